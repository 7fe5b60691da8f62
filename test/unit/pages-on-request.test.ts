// The dev server's output map: pages, and other files such as the sitemap, made when first read and then kept.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PagesOnRequest } from '../../src/pipeline/pages-on-request.ts';

const lazy = suite('PagesOnRequest');

function output() {
  const made: string[] = [];
  const files = new PagesOnRequest(
    new Map([['robots.txt', 'User-agent: *']]),
    ['index.html', 'contact/index.html'],
    (file) => (made.push(file), `<p>${file}</p>`),
    new Map([['sitemap.xml', () => (made.push('sitemap.xml'), '<urlset/>')]]),
  );
  return { files, made };
}

lazy('knows every file without making any; makes one when first read, once', () => {
  const { files, made } = output();
  assert.is(files.size, 4);
  for (const file of ['robots.txt', 'index.html', 'sitemap.xml']) assert.ok(files.has(file), file);
  assert.not.ok(files.has('nope.html'));
  assert.equal(made, []);
  assert.equal([...files.made().keys()], ['robots.txt']);

  assert.is(files.get('sitemap.xml'), '<urlset/>');
  assert.is(files.get('sitemap.xml'), '<urlset/>');
  assert.is(files.get('index.html'), '<p>index.html</p>');
  assert.equal(made, ['sitemap.xml', 'index.html']);
  assert.equal([...files.made().keys()], ['robots.txt', 'sitemap.xml', 'index.html']);
  assert.is(files.size, 4);
});

lazy('tells a page from another file made on request', () => {
  const { files } = output();
  assert.ok(files.isPage('index.html'));
  assert.not.ok(files.isPage('sitemap.xml'));
  assert.ok(files.onRequest('sitemap.xml'));
  assert.ok(files.onRequest('contact/index.html'));
  assert.not.ok(files.onRequest('robots.txt'));
});

lazy('iterating makes every file (watch --out writes them all)', () => {
  const { files, made } = output();
  assert.equal([...files.keys()].sort(), ['contact/index.html', 'index.html', 'robots.txt', 'sitemap.xml']);
  assert.equal(made.sort(), ['contact/index.html', 'index.html', 'sitemap.xml']);
});

lazy.run();
