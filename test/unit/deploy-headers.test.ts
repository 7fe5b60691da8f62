import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isCompressibleType } from '../../src/core/http/compressible.ts';
import { pageAlias } from '../../src/deploy/headers.ts';
import { isPrecompressedSibling } from '../../src/deploy/local.ts';
import { targetsFor } from '../../src/deploy/targets.ts';
import type { LocalFile } from '../../src/deploy/local.ts';

const types = suite('isCompressibleType');

types('compresses text, JSON, XML and SVG but not images or fonts', () => {
  assert.ok(isCompressibleType('text/html; charset=utf-8'));
  assert.ok(isCompressibleType('application/json; charset=utf-8'));
  assert.ok(isCompressibleType('image/svg+xml'));
  assert.not.ok(isCompressibleType('image/png'));
  assert.not.ok(isCompressibleType('font/woff2'));
});

const siblings = suite('isPrecompressedSibling');

siblings('skips .br and .gz files that sit beside their uncompressed twin', () => {
  const all = new Set(['index.html', 'index.html.br', 'index.html.gz', 'downloads/press-kit.gz']);
  assert.ok(isPrecompressedSibling('index.html.br', all));
  assert.ok(isPrecompressedSibling('index.html.gz', all));
  assert.not.ok(isPrecompressedSibling('index.html', all));
  assert.not.ok(isPrecompressedSibling('downloads/press-kit.gz', all), 'a .gz file of the site itself is uploaded');
});

const targets = suite('targetsFor');

const file = (path: string): LocalFile => ({ path, absolutePath: `/dist/${path}`, size: 10, md5: '0'.repeat(32) });

targets('orders uploads: hashed assets, other files, pages, 404.html, then sitemap.xml and robots.txt', () => {
  const paths = [
    'sitemap.xml',
    '404.html',
    'index.html',
    'contact/index.html',
    'favicon.svg',
    'assets/home-3f9a1c2b.js',
    'robots.txt',
  ];
  const list = targetsFor(paths.map(file), { prefix: '', gzip: false });
  assert.equal(
    list.map((target) => `${target.phase}:${target.key}`),
    [
      'hashed-assets:assets/home-3f9a1c2b.js',
      'files:favicon.svg',
      'pages:contact',
      'pages:contact/index.html',
      'pages:index.html',
      'error-page:404.html',
      'indexes:robots.txt',
      'indexes:sitemap.xml',
    ],
  );
});

targets('stores each folder page also under the key without /index.html, as text/html', () => {
  const list = targetsFor([file('index.html'), file('contact/index.html')], { prefix: 'site/', gzip: false });
  const alias = list.find((target) => target.key === 'site/contact');
  assert.ok(alias, 'contact/index.html is also stored as site/contact');
  assert.is(alias!.alias, true);
  assert.is(alias!.contentType, 'text/html; charset=utf-8');
  assert.is(alias!.path, 'contact/index.html');
  assert.not.ok(
    list.some((target) => target.key === 'site' || target.key === 'site/'),
    'the home page gets no alias',
  );
});

targets('lets a real file win over a page alias of the same name', () => {
  const list = targetsFor([file('index.html'), file('contact/index.html'), file('contact')], {
    prefix: '',
    gzip: false,
  });
  assert.equal(
    list.filter((target) => target.key === 'contact').map((target) => target.path),
    ['contact'],
  );
});

targets('with gzip, encodes text files and leaves images as they are', () => {
  const list = targetsFor([file('index.html'), file('og-image.png'), file('assets/home-3f9a1c2b.js')], {
    prefix: '',
    gzip: true,
  });
  const encoding = Object.fromEntries(list.map((target) => [target.key, target.encoding]));
  assert.equal(encoding, { 'assets/home-3f9a1c2b.js': 'gzip', 'og-image.png': 'identity', 'index.html': 'gzip' });
});

const alias = suite('pageAlias');

alias('maps folder pages to their folder and leaves other files alone', () => {
  assert.is(pageAlias('contact/index.html'), 'contact');
  assert.is(pageAlias('a/b/index.html'), 'a/b');
  assert.is(pageAlias('index.html'), undefined);
  assert.is(pageAlias('404.html'), undefined);
});

types.run();
siblings.run();
targets.run();
alias.run();
