// `site-gen watch` while a burst of edits rebuilds the site: every request for a page, asset or missing path is
// answered with a whole file of the old build or the new one, never a 500. Each edit is saved in place as editors
// do (emptied, then written): a rebuild that reads the empty file fails, and that failure must not be served.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { copyProject, startWatch, type ProjectCopy, type WatchProcess } from '../helpers/watch-project.ts';

const COPY = 'content/copy.ts';

const burst = suite('watch during a burst of edits');
const state = {} as { project: ProjectCopy; watch: WatchProcess };

burst.before(async () => {
  state.project = await copyProject();
  state.watch = await startWatch(state.project.root);
  await state.watch.waitFor(/first build: /, { timeout: 120_000 });
});

burst.after(async () => {
  await state.watch.stop();
  await state.project.remove();
});

burst('20 edits a few milliseconds apart: every answer is whole, none is a 500', async () => {
  const { url } = state.watch;
  const sitemap = await (await fetch(`${url}/sitemap.xml`)).text();
  const pages = [...sitemap.matchAll(/<loc>https?:\/\/[^/<]+(\/[^<]*)<\/loc>/g)].map((match) => match[1]!);
  assert.ok(pages.length >= 2, 'the site has pages to ask for');
  const home = await (await fetch(`${url}/`)).text();
  const assets = [...home.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
  const paths = [...pages, '/contact/', ...assets, '/no-such-page'];
  const problems: string[] = [];
  let answered = 0;
  let editing = true;
  const poll = async (offset: number) => {
    for (let i = offset; editing; i += 1) {
      const path = paths[i % paths.length]!;
      try {
        const response = await fetch(url + path);
        const body = await response.text();
        answered += 1;
        const expected = path === '/no-such-page' ? 404 : 200;
        const whole = !response.headers.get('content-type')?.startsWith('text/html') || /<\/html>\s*$/.test(body);
        if (response.status !== expected || !whole) {
          problems.push(`${path}: ${response.status}, ${body.length} bytes: ${body.slice(0, 200)}`);
        }
      } catch (error) {
        problems.push(`${path}: ${(error as Error).cause ?? error}`);
      }
    }
  };
  const pollers = [0, 1, 2].map(poll);
  const from = state.watch.output().length;
  try {
    const original = await state.project.read(COPY);
    for (let i = 1; i <= 20; i += 1) {
      // As an editor saving in place: the file is emptied, then written, a moment apart; a rebuild may read either.
      await writeFile(join(state.project.root, COPY), '');
      await new Promise((resolve) => setTimeout(resolve, (i * 7) % 25));
      await state.project.write(COPY, original.replace(/(hero: \{\s*badge: )[^\n]*,/, `$1'Burst edit ${i}',`));
      await new Promise((resolve) => setTimeout(resolve, 5 + ((i * 37) % 60)));
    }
    await state.watch.waitFor(/content\/copy\.ts: .*pages reloaded/, { from, timeout: 60_000 });
    // Let the last rebuild finish under the pollers too.
    await new Promise((resolve) => setTimeout(resolve, 1500));
  } finally {
    editing = false;
    await Promise.all(pollers);
    await state.project.restore();
  }
  assert.equal(
    problems,
    [],
    `${problems.length} of ${answered + problems.length} requests went wrong; site-gen watch printed:\n${state.watch.output().slice(from)}`,
  );
  assert.ok(answered > paths.length, `requests were made throughout (${answered})`);
  assert.match(await (await fetch(`${url}/`)).text(), 'Burst edit 20', 'the last edit is served');
});

burst.run();
