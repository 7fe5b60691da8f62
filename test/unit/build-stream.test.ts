// A build streams its pages: renders wait in the page cache, documents are made, compressed and written a batch at a
// time, so memory holds a bounded number of pages whatever the size of the site.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BATCH, BATCHES_AT_ONCE, writePages } from '../../src/pipeline/build.ts';
import { PackStore } from '../../src/pipeline/cache-store.ts';
import { Compressor } from '../../src/pipeline/compress.ts';
import type { PipelineOutput, RenderedRoute } from '../../src/pipeline/pipeline.ts';
import { Pipeline } from '../../src/pipeline/pipeline.ts';
import { projectPaths } from '../../src/core/paths.ts';

const stream = suite('build: pages stream');

/** A pipeline's output of `count` pages whose documents count how many exist at once (made, not yet written). */
function countingOutput(count: number) {
  const state = { made: 0, written: 0, most: 0, firstWrittenAt: -1 };
  const pages = Array.from(
    { length: count },
    (_, i): RenderedRoute => ({
      route: { path: `/p/${i}`, page: () => null, head: () => ({ title: `${i}` }) },
      path: `/p/${i}`,
      file: `p/${i}/index.html`,
      entry: `p-${i}`,
      key: `k${i}`,
      hash: `h${i}`,
      islands: [],
      links: [],
      ids: [],
      images: [],
      noindex: false,
      ms: 0,
    }),
  );
  const output = {
    pages,
    files: new Map(),
    client: { files: new Map(), pages: new Map(), inputs: [], captureScript: '' },
    document: (page: RenderedRoute) => {
      state.made += 1;
      state.most = Math.max(state.most, state.made - state.written);
      return { html: `<!doctype html><title>${page.path}</title>${'text '.repeat(300)}${page.path}`, criticalBytes: 0 };
    },
  } as unknown as PipelineOutput;
  const sink = {
    write: async (path: string) => {
      if (!path.endsWith('.html')) return;
      state.written += 1;
      if (state.firstWrittenAt < 0) state.firstWrittenAt = state.made;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return { state, output, sink };
}

stream(
  'memory holds a bounded number of pages: documents are made a batch at a time as earlier ones are written',
  async () => {
    const count = 2000;
    const { state, output, sink } = countingOutput(count);
    const progress: number[] = [];
    const reports = await writePages(output, sink, new Compressor(), (p) => progress.push(p.done));
    assert.is(reports.length, count, 'a report for every page');
    assert.is(state.written, count, 'every page written');
    assert.ok(
      state.most <= BATCH * BATCHES_AT_ONCE,
      `at most ${BATCH * BATCHES_AT_ONCE} pages made and not yet written at once (was ${state.most})`,
    );
    assert.ok(state.firstWrittenAt < count / 2, 'the first page is written long before the last is made');
    assert.equal(
      reports.map((r) => r.path),
      output.pages.map((p) => p.path),
      'the reports are in the routes order, whatever order the writes finished in',
    );
    assert.is(progress.at(-1), count, 'progress reaches the total');
  },
);

stream(
  "a build's pipeline keeps no page's HTML: its pages carry only what links, scripts and the sitemap need",
  async () => {
    const pipeline = new Pipeline({
      paths: projectPaths('test/fixtures/basic/site.config.ts'),
      base: '/',
      mode: 'build',
    });
    try {
      const run = await pipeline.run();
      assert.ok(run.ok, 'the fixture builds');
      if (!run.ok) return;
      for (const page of run.output.pages) {
        assert.not.ok('html' in page || 'page' in page, `${page.path} holds no HTML`);
        assert.ok(run.output.render(page).html.length > 0, `${page.path}'s render is read back from the store`);
      }
      assert.not.ok(run.output.files.has('index.html'), 'the pages are not in the files: they are made one at a time');
      assert.match(run.output.document(run.output.pages[0]!).html, /^<!doctype html>/i);
    } finally {
      await pipeline.dispose();
    }
  },
);

stream.run();

const store = suite('build cache: pack store');

store('reads an entry back by key in a later run, and prunes what a run did not use', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
  try {
    const first = PackStore.open(dir);
    first.set('a', { text: 'kept' });
    first.set('b', { text: 'dropped' });
    await first.save();
    await first.close();

    const second = PackStore.open(dir);
    assert.equal(second.get('a'), { text: 'kept' }, 'read back by key');
    await second.save();
    await second.close();

    const third = PackStore.open(dir);
    assert.is(third.get('b'), undefined, 'an entry the last run did not use is pruned');
    assert.equal(third.get('a'), { text: 'kept' });
    assert.equal(third.counts, { used: 1, previous: 1 });
    await third.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

store('deletes packs no entry is in any more, and compacts packs mostly dead', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
  const packs = () => readdirSync(dir).filter((name) => name.startsWith('pack-'));
  try {
    const first = PackStore.open(dir);
    for (let i = 0; i < 10; i += 1) first.set(`old${i}`, 'x'.repeat(1000));
    await first.save();
    await first.close();
    assert.is(packs().length, 1);

    const second = PackStore.open(dir);
    second.get('old0'); // one of ten kept: 10 % of the first pack is live
    second.set('new', 'y'.repeat(1000));
    await second.save();
    await second.close();
    assert.is(packs().length, 1, 'the mostly dead pack was compacted into one with only the live entries');
    assert.ok(
      PackStore.sizeOnDisk(dir) < 4000,
      `the dead entries' space is given back (${PackStore.sizeOnDisk(dir)} B)`,
    );

    const third = PackStore.open(dir);
    assert.is(third.get('old0'), 'x'.repeat(1000));
    assert.is(third.get('new'), 'y'.repeat(1000));
    await third.save(); // nothing else used, nothing changed: the index stays
    await third.close();

    const fourth = PackStore.open(dir);
    fourth.set('only', 1);
    await fourth.save();
    await fourth.close();
    assert.is(packs().length, 1, 'a pack with no live entry is deleted');
    assert.is(PackStore.open(dir).get('old0'), undefined);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

store('a damaged pack or index only costs the cache', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
  try {
    const first = PackStore.open(dir);
    first.set('a', 'value');
    await first.save();
    await first.close();
    for (const name of readdirSync(dir)) if (name.startsWith('pack-')) rmSync(join(dir, name));
    assert.is(PackStore.open(dir).get('a'), undefined, 'a missing pack: the entry is made again');
    writeFileSync(join(dir, 'index.v8'), 'not an index');
    assert.is(PackStore.open(dir).get('a'), undefined, 'a damaged index: an empty cache');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

store.run();
