// `site-gen watch` and a page's images: encoded after the page is served, and a request for one waits for its encoding.
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectPaths } from '../../src/core/paths.ts';
import { copyFixture } from '../helpers/fixture.ts';
import { startWatch } from '../helpers/watch-project.ts';

const TYPES: Record<string, string> = { avif: 'image/avif', webp: 'image/webp', png: 'image/png', jpg: 'image/jpeg' };

test('every image of a page, asked for as soon as the page is served with no encoded file cached, answers 200', async () => {
  const copy = copyFixture(resolve('test/fixtures/markdown'));
  // No file encoded by an earlier run: every picture of the page is encoded after the page is served.
  rmSync(projectPaths(copy.config).cache, { recursive: true, force: true });
  const watch = await startWatch(copy.root);
  try {
    const page = await fetch(new URL('/', watch.url));
    assert.is(page.status, 200);
    const html = await page.text();
    const urls = [...new Set([...html.matchAll(/\/assets\/img\/[^ ",]+/g)].map((match) => match[0]))];
    assert.ok(urls.length >= 12, `the page's srcsets name its files (${urls.length})`);
    const answers = await Promise.all(
      urls.map(async (url) => {
        const reply = await fetch(new URL(url, watch.url));
        return {
          url,
          status: reply.status,
          type: reply.headers.get('content-type'),
          size: (await reply.bytes()).length,
        };
      }),
    );
    for (const { url, status, type, size } of answers) {
      assert.is(status, 200, url);
      assert.is(type, TYPES[url.split('.').pop()!], url);
      assert.ok(size > 0, `${url} has bytes`);
    }
  } finally {
    await watch.stop();
    copy.remove();
  }
});

test.run();
