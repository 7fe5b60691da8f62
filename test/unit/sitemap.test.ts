// The sitemap: one file while the pages fit the protocol's limits, then an index of parts; and where deploy puts them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isIndexFile, isSitemapFile } from '../../src/core/http/paths.ts';
import { targetsFor } from '../../src/deploy/targets.ts';
import { SITEMAP_BYTES, SITEMAP_URLS, sitemapFiles } from '../../src/pipeline/assemble.ts';

const sitemap = suite('sitemap');
const site = { name: 'Fixture', url: 'https://fixture.example/' } as Parameters<typeof sitemapFiles>[0];
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
const paths = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `/releases/release-${from + i}`);

sitemap('a site that fits one file: sitemap.xml lists every page, in order, as absolute URLs', () => {
  const files = sitemapFiles(site, ['/', '/contact', '/a&b']);
  assert.equal([...files.keys()], ['sitemap.xml']);
  assert.is(
    files.get('sitemap.xml'),
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      '  <url><loc>https://fixture.example/</loc></url>\n' +
      '  <url><loc>https://fixture.example/contact</loc></url>\n' +
      '  <url><loc>https://fixture.example/a&amp;b</loc></url>\n' +
      '</urlset>\n',
  );
  assert.is(
    locs(sitemapFiles(site, paths(SITEMAP_URLS)).get('sitemap.xml')!).length,
    SITEMAP_URLS,
    'exactly the limit',
  );
});

sitemap('past 50,000 pages: sitemap.xml is the index of parts of 50,000 URLs each, every page in one part', () => {
  const all = paths(2 * SITEMAP_URLS + 1);
  const files = sitemapFiles(site, all);
  assert.equal([...files.keys()], ['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml']);
  const index = files.get('sitemap.xml')!;
  assert.match(
    index,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">\n/,
  );
  assert.equal(locs(index), [
    'https://fixture.example/sitemap-1.xml',
    'https://fixture.example/sitemap-2.xml',
    'https://fixture.example/sitemap-3.xml',
  ]);
  const parts = ['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml'].map((file) => locs(files.get(file)!));
  assert.equal(
    parts.map((part) => part.length),
    [SITEMAP_URLS, SITEMAP_URLS, 1],
  );
  assert.equal(
    parts.flat(),
    all.map((path) => `https://fixture.example${path}`),
    'in the pages order, none twice',
  );
});

sitemap('a part is cut before it would pass 50 MB, whatever its count', () => {
  const long = Array.from({ length: 30_000 }, (_, i) => `/${'x'.repeat(2000)}/${i}`);
  const files = sitemapFiles(site, long);
  const parts = [...files].filter(([file]) => file !== 'sitemap.xml');
  assert.ok(parts.length >= 2, `${parts.length} parts`);
  for (const [file, xml] of parts)
    assert.ok(Buffer.byteLength(xml) <= SITEMAP_BYTES, `${file}: ${Buffer.byteLength(xml)} bytes`);
  assert.is(
    parts.reduce((sum, [, xml]) => sum + locs(xml).length, 0),
    long.length,
  );
});

sitemap('the sitemap, its parts and robots.txt are the files deploy uploads last', () => {
  for (const file of ['sitemap.xml', 'sitemap-1.xml', 'sitemap-12.xml']) assert.ok(isSitemapFile(file), file);
  for (const file of ['sitemap-0.xml', 'sitemap-a.xml', 'docs/sitemap-1.xml', 'sitemap.xml.br'])
    assert.not.ok(isSitemapFile(file), file);
  assert.ok(isIndexFile('robots.txt'));
  const local = (path: string) => ({ path, absolutePath: `/dist/${path}`, size: 10, md5: '0'.repeat(32) });
  const order = targetsFor(['index.html', 'sitemap-2.xml', 'robots.txt', 'sitemap.xml', 'about.txt'].map(local), {
    prefix: '',
    gzip: false,
  }).map((target) => `${target.phase}:${target.path}`);
  assert.equal(order.slice(-3).sort(), ['indexes:robots.txt', 'indexes:sitemap-2.xml', 'indexes:sitemap.xml']);
});

sitemap.run();
