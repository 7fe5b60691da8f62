// absoluteUrl: a page's path as an absolute URL under the site's URL, exactly as the URL parser resolves it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { absoluteUrl } from '../../src/pipeline/document.ts';
import type { SiteInfo } from '../../src/core/config.ts';

const site = (url: string) => ({ url }) as SiteInfo;
const urls = [
  'https://example.com',
  'https://example.com/',
  'https://example.com/base',
  'https://example.com/base/',
  'https://example.com/a/b?q=1#top',
];
const paths = [
  '/',
  '/contact',
  '/contact/',
  '/posts/first-post/',
  '/sitemap.xml',
  '/a b',
  '/../up',
  '/x/./y',
  '/?q',
  '/é',
];

for (const url of urls)
  test(`resolves every path under ${url} as new URL does`, () => {
    for (const path of paths)
      assert.is(absoluteUrl(site(url), path), new URL(path.replace(/^\//, ''), url).href, `${path} under ${url}`);
  });

test("a site URL without a trailing slash keeps its last segment out of the pages' URLs", () => {
  assert.is(absoluteUrl(site('https://example.com/base'), '/contact/'), 'https://example.com/contact/');
});

test.run();
