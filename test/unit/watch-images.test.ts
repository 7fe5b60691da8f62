// `site-gen watch` and a page's images: encoded after the page is served, and a request for one waits for its encoding.
import { appendFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectPaths } from '../../src/core/paths.ts';
import { DevBuilder } from '../../src/dev/builder.ts';
import { stagesForAll } from '../../src/dev/invalidate.ts';
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
    // The terminal says when the page's pictures are made: they were still coming after the page was served.
    const said = await watch.waitFor(/image files encoded for \/ in \d+ ms/, { timeout: 30_000 });
    const line = said.split('\n').find((each) => each.includes('image files encoded for /'))!;
    assert.match(
      line,
      /^\d\d:\d\d:\d\d \S+\.(jpg|png)( and \S+| and \d+ more)?: \d+ image files encoded for \/ in \d+ ms$/,
    );
  } finally {
    await watch.stop();
    copy.remove();
  }
});

test('after a stylesheet swap, the new output still serves the images of an open page (made again in it)', async () => {
  const copy = copyFixture(resolve('test/fixtures/markdown'));
  const builder = new DevBuilder({ paths: projectPaths(copy.config), extraScripts: [] });
  const imagesOf = (html: string) => [
    ...new Set([...html.matchAll(/\/assets\/img\/([^ ",]+)/g)].map((m) => m[0].slice(1))),
  ];
  try {
    const first = await builder.rebuild();
    if (!first.ok) throw first.error;
    const before = builder.output!.files;
    const images = imagesOf(String(before.get('index.html')));
    assert.ok(images.length > 0, 'the home page has pictures');
    // An open page is not reloaded on a stylesheet swap: its lazy pictures are asked for from the next output.
    appendFileSync(join(copy.root, 'src/site/styles/main.css'), '\nbody { margin: 1px; }\n');
    const swapped = await builder.rebuild(
      stagesForAll([{ file: join(copy.root, 'src/site/styles/main.css') }], builder.inputs()),
    );
    if (!swapped.ok) throw swapped.error;
    assert.is(swapped.change, 'css');
    const gone = swapped.changed.filter((file) => file.startsWith('assets/img/'));
    assert.equal(gone, [], 'images still being made in the new output are not changes');
    const after = builder.output!.files;
    assert.ok(after !== before, 'a new output');
    for (const image of images) {
      await after.later(image);
      assert.ok(after.get(image) !== undefined, `${image} is served by the new output`);
    }
  } finally {
    await builder.dispose();
    copy.remove();
  }
});

test.run();
