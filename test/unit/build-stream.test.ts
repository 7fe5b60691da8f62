// A build streams its pages: renders wait in the page cache, documents are made, compressed and written a batch at a
// time, so memory holds a bounded number of pages whatever the size of the site.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { serialize } from 'node:v8';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BATCH, BATCHES_AT_ONCE, PageWriter, writePages } from '../../src/pipeline/build.ts';
import { INDEX_ENTRIES_PER_PIECE, PackStore } from '../../src/pipeline/cache-store.ts';
import { Compressor } from '../../src/pipeline/compress.ts';
import type { PipelineOutput, RenderedRoute } from '../../src/pipeline/pipeline.ts';
import { Pipeline } from '../../src/pipeline/pipeline.ts';
import { RenderedPages } from '../../src/pipeline/rendered-pages.ts';
import { digestHex } from '../../src/core/digest.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { copyFixture } from '../helpers/fixture.ts';

const stream = suite('build: pages stream');

/** A pipeline's output of `count` pages whose documents count how many exist at once (made, not yet written). */
function countingOutput(count: number) {
  const state = { made: 0, written: 0, most: 0, firstWrittenAt: -1 };
  const plans = Array.from({ length: count }, (_, i) => ({
    route: { path: `/p/${i}`, page: () => null, head: () => ({ title: `${i}` }) },
    path: `/p/${i}`,
    file: `p/${i}/index.html`,
    entry: `p-${i}`,
  }));
  const pages = new RenderedPages(plans);
  for (const [i, plan] of plans.entries())
    pages.push({
      ...plan,
      key: digestHex(`k${i}`),
      hash: digestHex(`h${i}`),
      islands: [],
      links: [],
      ids: [],
      images: [],
      noindex: false,
      ms: 0,
    });
  const client = { files: new Map(), pages: new Map(), inputs: [], captureScript: '' };
  const output = {
    pages,
    files: new Map(),
    client,
    documents: {
      client,
      key: (page: RenderedRoute) => digestHex(`d${page.hash}`),
      scripts: () => undefined,
      make: (page: RenderedRoute) => {
        state.made += 1;
        state.most = Math.max(state.most, state.made - state.written);
        return {
          html: `<!doctype html><title>${page.path}</title>${'text '.repeat(300)}${page.path}`,
          criticalBytes: 0,
        };
      },
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
      assert.match(run.output.documents.make(run.output.pages.at(0)).html, /^<!doctype html>/i);
    } finally {
      await pipeline.dispose();
    }
  },
);

stream(
  'pages are written while later ones render; a page whose scripts the final bundle changed is written again',
  async () => {
    const fixture = copyFixture();
    // A page with one island first, then 300 without: the bundle made after the first pages has the counter's entry
    // alone, with the runtime inlined in it. The fixture's own pages come last with other islands, so the final bundle
    // moves the runtime into a chunk the entries share, and the first page's scripts change. The pages without islands
    // render slowly until a page with islands reaches the stream (the flag below), so that pages are still rendering
    // then; they count their renders, to see when the first of them reached the stream.
    fixture.edit(
      'src/site/routes.tsx',
      (text) => `${text}
import Counter from './islands/counter.tsx';
function First() {
  return <main id="main"><h1 className="title">First</h1><Counter label="One" tricky="" /></main>;
}
function Slow() {
  const state = globalThis as { streamed?: boolean; slowRenders?: number };
  state.slowRenders = (state.slowRenders ?? 0) + 1;
  if (!state.streamed) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  return <Static />;
}
routes.unshift(
  { path: '/first', page: First, head: () => ({ title: 'First' }) },
  ...Array.from({ length: 300 }, (_, i) => ({ path: \`/s/\${i}\`, page: Slow, head: () => ({ title: \`Static \${i}\` }) })),
);
`,
    );
    const writes: Array<{ file: string; html: string; rendering: boolean }> = [];
    let rendering = true;
    const sink = {
      write: async (file: string, data: Uint8Array | string) => {
        writes.push({ file, html: String(data), rendering });
      },
    };
    const progress: Array<{ done: number; total: number }> = [];
    const writer = new PageWriter(sink, undefined, ({ done, total }) => progress.push({ done, total }));
    const take = writer.page.bind(writer);
    const state = globalThis as { streamed?: boolean; slowRenders?: number };
    let firstTaken: { slowRenders: number; scripts: number } | undefined;
    writer.page = (...args) => {
      const [page, , documents] = args;
      firstTaken ??= { slowRenders: state.slowRenders ?? 0, scripts: documents.client.pages.size };
      if (page.islands.length > 0) state.streamed = true;
      return take(...args);
    };
    const pipeline = new Pipeline({ paths: projectPaths(fixture.config), base: '/', mode: 'build', stream: writer });
    try {
      const run = await pipeline.run();
      rendering = false;
      assert.ok(run.ok, run.ok ? '' : String(run.error));
      if (!run.ok) return;
      const { pages, documents } = run.output;
      await writer.finish(pages, documents);
      assert.ok(
        progress.every(({ done, total }) => done <= total),
        `the writing progress never passes the total (${JSON.stringify(progress.at(-1))})`,
      );
      assert.equal(progress.at(-1), { done: pages.length, total: pages.length });
      // The bundle is started once 64 pages have rendered (SPECULATE_AFTER): a page taken before is taken without it.
      assert.ok(
        firstTaken && firstTaken.slowRenders < 64 && firstTaken.scripts === 0,
        `a page without islands reaches the stream before the client bundle is made (${JSON.stringify(firstTaken)})`,
      );
      const early = new Set(writes.filter((w) => w.rendering).map((w) => w.file));
      assert.ok(early.size > 0, 'some pages were written before the last page rendered');
      assert.ok(early.has('s/10/index.html'), 'a page without islands is written once the first bundle is made');
      const times = (file: string) => writes.filter((w) => w.file === file).length;
      assert.is(times('first/index.html'), 2, "the first page's scripts changed: written early, then again");
      assert.is(times('s/10/index.html'), 1, 'a page without islands is written once');
      for (const page of pages) {
        const last = writes.filter((w) => w.file === page.file).at(-1);
        assert.ok(last, `${page.file} is written`);
        assert.is(last.html, documents.make(page).html, `${page.file} is its document with the final bundle`);
      }
    } finally {
      delete state.streamed;
      delete state.slowRenders;
      await pipeline.dispose();
      fixture.remove();
    }
  },
);

stream(
  "pages are written while their scripts' weight is still being compressed; the reports carry it at the end",
  async () => {
    const count = BATCH * BATCHES_AT_ONCE * 3;
    const { state, output, sink } = countingOutput(count);
    const script = 'console.log("island");'.repeat(200);
    output.client.files.set('assets/island.js', Buffer.from(script));
    output.documents.scripts = () => ({ entry: 'assets/island.js', files: ['assets/island.js'] });
    // The scripts' brotli ends only once every page is written (or after 5 s, which the assertion below then fails).
    let release = () => {};
    const weighed = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(release, 5000);
    let writtenWhenWeighed = -1;
    const compressor = {
      compress: async (path: string, data: string) => {
        if (path.endsWith('.js')) {
          await weighed;
          writtenWhenWeighed = state.written;
          return { br: Buffer.alloc(7), gz: Buffer.alloc(9) };
        }
        return { br: Buffer.alloc(data.length >> 3), gz: Buffer.alloc(data.length >> 2) };
      },
      whileWaiting: (waiting: Promise<unknown>) => waiting.then(() => undefined),
    } as unknown as Compressor;
    const counted = sink.write;
    sink.write = async (path: string) => {
      await counted(path);
      if (path.endsWith('.html') && state.written === count) release();
    };
    const reports = await writePages(output, sink, compressor, undefined);
    clearTimeout(timer);
    assert.is(writtenWhenWeighed, count, 'every page was written before the scripts were weighed');
    assert.equal(
      reports[0]!.js,
      { raw: script.length, brotli: 7, files: 1 },
      "the first page's report has its scripts",
    );
    assert.ok(
      reports.every((report) => report.js.brotli === 7),
      'every report has the weight, filled in once it was known',
    );
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

/**
 * Runs `test` in a new pack store folder whose first run wrote ten entries of 1,000 characters (`old0` to `old9`) into
 * one pack, `old`; `packs` lists the folder's packs. The folder is removed afterwards.
 */
async function afterTenEntries(
  test: (dir: string, old: string, packs: () => string[]) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
  const packs = () => readdirSync(dir).filter((name) => name.startsWith('pack-'));
  try {
    const first = PackStore.open(dir);
    for (let i = 0; i < 10; i += 1) first.set(`old${i}`, 'x'.repeat(1000));
    await first.save();
    await first.close();
    assert.is(packs().length, 1);
    await test(dir, packs()[0]!, packs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

store('deletes packs no entry is in any more, and compacts packs mostly dead', () =>
  afterTenEntries(async (dir, _old, packs) => {
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
  }),
);

store('a run that used nothing of the last one keeps its own pack as it wrote it, not a copy', () =>
  afterTenEntries(async (dir, old, packs) => {
    // Another version of the tool, or a new day: every key is new. Its live entries are 9 KB of the 19 KB on disk.
    const second = PackStore.open(dir);
    for (let i = 0; i < 9; i += 1) second.set(`new${i}`, 'y'.repeat(1000));
    const written = packs().filter((name) => name !== old);
    assert.is(written.length, 1, 'the run appends to one pack of its own');
    await second.save();
    await second.close();
    assert.equal(packs(), written, 'the dead pack is deleted and the live one kept, not copied into a third');

    const third = PackStore.open(dir);
    assert.is(third.get('new8'), 'y'.repeat(1000));
    assert.is(third.get('old0'), undefined);
    await third.close();
  }),
);

store("a mostly dead pack's live entries move to the run's pack, whatever the other packs hold", () =>
  afterTenEntries(async (dir, old, packs) => {
    // One of the old pack's ten entries is used; the run writes twice as much of its own: 21 KB of 30 KB are live.
    const second = PackStore.open(dir);
    second.get('old1');
    for (let i = 0; i < 20; i += 1) second.set(`new${i}`, 'y'.repeat(1000));
    const written = packs().filter((name) => name !== old);
    await second.save();
    await second.close();
    assert.equal(
      packs(),
      written,
      "the old pack's live entry went to the end of the run's pack, and the old pack went",
    );

    const third = PackStore.open(dir);
    assert.is(third.get('old1'), 'x'.repeat(1000));
    assert.is(third.get('new19'), 'y'.repeat(1000));
    assert.is(third.get('old2'), undefined);
    await third.close();
  }),
);

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

store('an index of many pieces is read back whole; a cut one, or one of an earlier form, is none', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
  try {
    const count = 2 * INDEX_ENTRIES_PER_PIECE + 7;
    const first = PackStore.open(dir);
    for (let i = 0; i < count; i++) first.set(`entry ${i}`, i);
    await first.save();
    await first.close();

    const second = PackStore.open(dir);
    let found = 0;
    for (let i = 0; i < count; i++) if (second.get(`entry ${i}`) === i) found += 1;
    assert.is(found, count, 'every entry of every piece');
    await second.close();

    const index = readFileSync(join(dir, 'index.v8'));
    writeFileSync(join(dir, 'index.v8'), index.subarray(0, index.length - 10));
    assert.is(PackStore.open(dir).get('entry 0'), undefined, 'a cut index: an empty cache');
    // The form before pieces: one V8 serialization of every entry. Its packs are as good, but it is not read.
    const pack = readdirSync(dir).find((name) => name.startsWith('pack-'))!;
    writeFileSync(join(dir, 'index.v8'), serialize([['entry 0', [pack, 0, 3]]]));
    assert.is(PackStore.open(dir).get('entry 0'), undefined, 'an index of the earlier form: an empty cache');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

store.run();
