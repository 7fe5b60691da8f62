// The page cache between builds: an unchanged build reads every page back, and any change of content, a component,
// an island, the CSS, the template or the config gives the same output as a build without the cache.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';
import { PackStore } from '../../src/pipeline/cache-store.ts';
import { PageCache, toolVersionKey } from '../../src/pipeline/page-cache.ts';
import type { StoredReads } from '../../src/pipeline/read-records.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { copyProject, type ProjectCopy } from '../helpers/watch-project.ts';

const cache = suite('page cache');
let project: ProjectCopy;
let config: string;

cache.before(async () => {
  project = await copyProject();
  config = `${project.root}/site.config.ts`;
});

cache.after(async () => {
  rmSync(PageCache.dirFor(projectPaths(config).cache, config, '/'), { recursive: true, force: true });
  await project.remove();
});

const build = (withCache = true) => buildSite({ config, out: 'unused', write: false, cache: withCache });

/** The same files with the same bytes: what a visitor or a deploy would get is identical. */
function assertSameOutput(cached: BuildResult, fresh: BuildResult, what: string): void {
  assert.equal(
    [...cached.files.keys()].sort(),
    [...fresh.files.keys()].sort(),
    `${what}: the same files as a build without the cache`,
  );
  for (const [path, data] of fresh.files) {
    assert.ok(
      Buffer.from(cached.files.get(path)!).equals(Buffer.from(data)),
      `${what}: ${path} is byte-identical to a build without the cache`,
    );
  }
}

/** Edits `file`, then builds with the cache and without: both must agree, and the edit must show. */
async function afterEdit(
  file: string,
  change: (text: string) => string,
  shows: (files: BuildResult['files']) => boolean,
  what: string,
) {
  await project.edit(file, change);
  const cached = await build();
  assertSameOutput(cached, await build(false), what);
  assert.ok(shows(cached.files), `${what}: the edit is in the cached build's output`);
  return cached;
}

const text = (files: BuildResult['files'], path: string) => Buffer.from(files.get(path) ?? '').toString('utf8');

cache('an unchanged build reads every page back and writes the same bytes as a cold build', async () => {
  const cold = await build();
  const pages = cold.pages.length;
  assert.equal(cold.rendered, { kept: 0, made: pages }, 'the first build renders every page');
  const warm = await build();
  assert.equal(warm.rendered, { kept: pages, made: 0 }, 'nothing changed: no page is rendered again');
  assertSameOutput(warm, cold, 'unchanged');
  assertSameOutput(warm, await build(false), 'unchanged');
});

cache('a content edit every page shows renders every page again', async () => {
  const result = await afterEdit(
    'content/copy.ts',
    (t) => t.replace(/tagline: '[^']*'/, "tagline: 'Cache test tagline'"),
    (f) => text(f, 'contact/index.html').includes('Cache test tagline'),
    'content',
  );
  assert.equal(result.rendered.made, result.pages.length);
});

cache('a component edit is never served from an older render', async () => {
  await afterEdit(
    'src/site/components/Footer.tsx',
    (t) => t.replace('className="site-footer"', 'className="site-footer" data-cache-test="1"'),
    (f) => text(f, 'index.html').includes('data-cache-test="1"'),
    'component',
  );
});

cache('an island edit makes a new client bundle', async () => {
  const before = (await build()).files;
  await afterEdit(
    'src/site/islands/contact-form.tsx',
    (t) => t.replace('useState(false)', 'useState((globalThis as { cacheTest?: boolean }).cacheTest ?? false)'),
    (f) => [...f.keys()].some((path) => path.endsWith('.js') && !before.has(path)),
    'island',
  );
});

cache('a CSS edit keeps the renders but selects critical CSS again', async () => {
  const result = await afterEdit(
    'src/site/styles/pages.css',
    (t) => t.replace(/^\.page-hero \{\n/m, '.page-hero {\n  outline-offset: 7px;\n'),
    (f) => text(f, 'contact/index.html').includes('outline-offset:7px'),
    'CSS',
  );
  assert.is(result.rendered.made, 0, 'the stylesheet is not part of a render');
});

cache('a template edit reaches every document', async () => {
  await afterEdit(
    'templates/document.html',
    (t) => t.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta name="x-cache-test" content="1">'),
    (f) => text(f, 'index.html').includes('x-cache-test'),
    'template',
  );
});

cache('a config edit renders the pages again', async () => {
  const result = await afterEdit(
    'site.config.ts',
    (t) => t.replace("name: 'Soundmark Music Group'", "name: 'Cache Test Group'"),
    (f) => text(f, 'index.html').includes('Cache Test Group'),
    'config',
  );
  assert.is(result.rendered.made, result.pages.length);
});

cache('a deleted cache is made again', async () => {
  rmSync(PageCache.dirFor(projectPaths(config).cache, config, '/'), { recursive: true, force: true });
  const result = await build();
  assert.equal(result.rendered, { kept: 0, made: result.pages.length });
});

cache.run();

const bundles = suite('page cache: client bundle');

bundles('a kept bundle is read back while every file it read is unchanged, and never after one changed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-page-cache-'));
  try {
    const island = join(dir, 'island.tsx');
    writeFileSync(island, 'export default 1;');
    const bundle = {
      files: new Map([['assets/a-1.js', new Uint8Array([1, 2, 3])]]),
      pages: new Map([['dev', { entry: '/assets/a-1.js', files: ['assets/a-1.js'] }]]),
      inputs: [island],
      captureScript: 'capture();',
    };
    const first = PageCache.open(dir, join(dir, 'site.config.ts'), '/', 'dev');
    assert.is(first.bundle('k'), undefined, 'nothing kept yet');
    first.setBundle('k', bundle);
    await first.save();

    const read = PageCache.open(dir, join(dir, 'site.config.ts'), '/', 'dev').bundle('k');
    assert.ok(read, 'the next session reads it back');
    assert.equal([...read!.files.keys()], ['assets/a-1.js']);
    assert.equal([...read!.files.get('assets/a-1.js')!], [1, 2, 3]);
    assert.equal(read!.pages.get('dev'), bundle.pages.get('dev'));
    assert.equal(read!.inputs, [island]);

    writeFileSync(island, 'export default 2;');
    assert.is(
      PageCache.open(dir, join(dir, 'site.config.ts'), '/', 'dev').bundle('k'),
      undefined,
      'an edited island is bundled again',
    );
    assert.is(
      PageCache.open(dir, join(dir, 'site.config.ts'), '/', 'build').bundle('k'),
      undefined,
      'build and watch keep separate files',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

bundles.run();

const reads = suite('stored reads');

reads(
  'reads longer than the buffer they are written from come back whole in the next build; a damaged list gives none',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-gen-reads-'));
    const config = join(dir, 'site.config.ts');
    try {
      // The texts (about 4 MB) and the groups (about 1.5 MB) are written in several pieces (see encodeList); the texts
      // are not all ASCII.
      const stored: StoredReads = {
        reads: Array.from({ length: 100_003 }, (_, i) => `g["c","releases",${i},"title"]\u0001sTitle ${i} – Ré`),
        groups: Array.from({ length: 100_001 }, (_, i) => [i, i + 1]),
        pages: [['page key', 'render hash', 'html hash', [0, 100_000]]],
      };
      const first = PageCache.open(dir, config, '/');
      assert.is(first.reads(), undefined, 'nothing kept yet');
      // Handed on in parts as a build makes them (see ReadRecords): the texts in three, the groups in two.
      const sink = first.readsSink();
      sink.part('reads', stored.reads.slice(0, 40_000));
      sink.part('groups', stored.groups.slice(0, 70_000));
      sink.part('reads', stored.reads.slice(40_000, 90_000));
      sink.part('pages', stored.pages);
      sink.part('reads', stored.reads.slice(90_000));
      sink.part('groups', stored.groups.slice(70_000));
      sink.done();
      await first.save();
      await first.dispose();

      const store = () => PackStore.open(PageCache.dirFor(dir, config, '/'));
      const key = `reads:${toolVersionKey()}`;
      const firstRun = store().get<{ run: string }>(key)!.run;
      const next = PageCache.open(dir, config, '/');
      const last = next.reads();
      const texts = [...(last?.texts() ?? [])];
      assert.equal(
        texts.map((part) => part?.length),
        [40_000, 50_000, 10_003],
        'the texts a part at a time',
      );
      const read = last && { reads: texts.flatMap((part) => part ?? []), groups: last.groups, pages: last.pages };
      // Compared as text: uvu's diff of two lists this long, were they to differ, would take minutes.
      assert.equal(
        [read?.reads.length, read?.groups.length, read?.pages.length],
        [stored.reads.length, stored.groups.length, stored.pages.length],
      );
      assert.ok(JSON.stringify(read) === JSON.stringify(stored), 'the next build reads every part back, in order');
      // The next build stores its own reads: the first build's parts are pruned from the cache.
      const again = next.readsSink();
      again.part('reads', ['g["c"]\u0001o']);
      again.part('groups', [[0]]);
      again.part('pages', [['page key', 'render hash', 'html hash', [0]]]);
      again.done();
      await next.save();
      await next.dispose();
      const kept = store();
      assert.not.ok(kept.has(`${firstRun}:reads:0`), "the last build's parts are not kept");
      const again2 = PageCache.open(dir, config, '/').reads();
      assert.equal([...(again2?.texts() ?? [])], [['g["c"]\u0001o']]);
      assert.equal([again2?.groups, again2?.pages], [[[0]], [['page key', 'render hash', 'html hash', [0]]]]);

      // A part replaced by an entry of another form (a damaged cache), every other entry kept as it was: the pages are
      // rendered again.
      const run = kept.get<{ run: string }>(key)!.run;
      for (const part of ['reads', 'groups', 'pages']) assert.ok(kept.getList(`${run}:${part}:0`), `${part} kept`);
      // A part of the texts damaged: read as none when it is asked for (every read then counts as changed).
      kept.set(`${run}:reads:0`, 4);
      await kept.save();
      assert.equal([...(PageCache.open(dir, config, '/').reads()?.texts() ?? [])], [undefined]);
      kept.set(`${run}:groups:0`, 4);
      await kept.save();
      await kept.close();
      assert.is(PageCache.open(dir, config, '/').reads(), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

reads(
  'saved after each build of a watch session, the store keeps all the session used, less what it dropped',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
    try {
      const store = PackStore.open(dir);
      store.set('a', 1);
      store.set('b', 2);
      await store.save();
      // The next build of the session reads nothing of `b`, sets `c` and lets `a` go.
      store.set('c', 3);
      store.drop('a');
      await store.save();
      assert.equal([store.get('b'), store.get('c')], [2, 3], 'read by the session after its saves');
      await store.close();
      const next = PackStore.open(dir);
      assert.equal([next.get('a'), next.get('b'), next.get('c')], [undefined, 2, 3]);
      await next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

reads(
  'a value the cache cannot keep (a Proxy) is missed alone: the entries after it and the index are kept',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-gen-pack-'));
    try {
      const store = PackStore.open(dir);
      store.set('before', { page: 'kept' });
      store.set('replaced', { page: 'the last run' });
      store.set('replaced', new Proxy({ page: 'a render holding content' }, {}));
      store.set('after', { page: 'kept too' });
      await store.save();
      await store.close();
      const next = PackStore.open(dir);
      assert.equal(next.get('before'), { page: 'kept' });
      assert.is(next.get('replaced'), undefined, 'not what was set under its key before');
      assert.equal(next.get('after'), { page: 'kept too' });
      await next.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

reads.run();
