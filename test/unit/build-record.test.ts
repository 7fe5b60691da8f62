// The record of the last build: a build with nothing changed checks the output folder and stops, writing nothing; any
// change to what the output is made from (content, site code, stylesheet, template, public/, config, the tool, flags)
// or to the output folder itself builds again.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BuildRecord } from '../../src/pipeline/build-record.ts';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { copyFixture, tempOut, type FixtureCopy } from '../helpers/fixture.ts';

const record = suite('build record');
let copy: FixtureCopy;
let out: string;

record.before.each(() => {
  copy = copyFixture();
  out = tempOut();
});

record.after.each(() => {
  for (const base of ['/', '/sub/'])
    rmSync(new BuildRecord(projectPaths(copy.config), { base, out }).file, { force: true });
  copy.remove();
  rmSync(out, { recursive: true, force: true });
});

const build = (options: { base?: string; out?: string; cache?: boolean } = {}) =>
  buildSite({ config: copy.config, out, ...options });

/** Every file of `dir` with its bytes. */
function tree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => [
      join(entry.parentPath, entry.name).slice(dir.length + 1),
      readFileSync(join(entry.parentPath, entry.name)).toString('base64'),
    ]),
  );
}

/** Builds once, then edits with `change`, and asserts that the next build builds, with `shows` true of its output. */
async function rebuildsAfter(
  change: () => void,
  what: string,
  shows?: (result: BuildResult) => boolean,
): Promise<BuildResult> {
  await build();
  assert.ok((await build()).upToDate, `${what}: the second build with nothing changed is up to date`);
  change();
  const after = await build();
  assert.not.ok(after.upToDate, `${what}: the build after the change builds`);
  if (shows) assert.ok(shows(after), `${what}: the change is in the output`);
  assert.ok((await build()).upToDate, `${what}: the build after that is up to date again`);
  return after;
}

const page = (path = 'index.html') => readFileSync(join(out, path), 'utf8');

record('a build with nothing changed writes nothing and reports what the last build did', async () => {
  const first = await build();
  assert.not.ok(first.upToDate, 'the first build builds');
  const before = tree(out);
  const inode = statSync(join(out, 'index.html')).ino;
  const second = await build();
  assert.ok(second.upToDate, 'nothing changed: the build stops after checking');
  assert.equal(second.pages, first.pages, 'the same page report');
  assert.equal(second.inputs, first.inputs);
  assert.is(second.files.size, first.files.size, 'the same number of files');
  assert.ok(
    Buffer.from(second.files.get('index.html')!).equals(Buffer.from(first.files.get('index.html')!)),
    'its files are read from the output folder',
  );
  assert.equal(tree(out), before, 'the output folder keeps every file and byte');
  assert.is(statSync(join(out, 'index.html')).ino, inode, 'the output folder was not written again');
});

record(
  'an edit of content, a page, an island, the stylesheet, the template, public/ or the config builds again',
  async () => {
    await rebuildsAfter(
      () => copy.edit('content/copy.ts', (t) => t.replace("'Fixture home'", "'Record test home'")),
      'content',
      () => page().includes('Record test home'),
    );
    await rebuildsAfter(
      () => copy.edit('src/site/pages/home.tsx', (t) => `${t}\n// a comment changes the code's hash\n`),
      'page code',
    );
    await rebuildsAfter(() => copy.edit('src/site/islands/counter.tsx', (t) => `${t}\n// an island edit\n`), 'island');
    await rebuildsAfter(
      () => copy.edit('src/site/styles/form.css', (t) => `${t}\n.record-test { color: red; }\n`),
      'stylesheet',
      (r) => [...r.files.keys()].some((f) => f.endsWith('.css') && String(r.files.get(f)).includes('record-test')),
    );
    await rebuildsAfter(
      () =>
        copy.edit('templates/document.html', (t) =>
          t.replace('<head>', '<head>\n<meta name="x-record-test" content="1">'),
        ),
      'template',
      () => page().includes('x-record-test'),
    );
    await rebuildsAfter(
      () => copy.write('public/record-test.txt', 'added'),
      'a file added to public/',
      () => readFileSync(join(out, 'record-test.txt'), 'utf8') === 'added',
    );
    await rebuildsAfter(
      () => unlinkSync(join(copy.root, 'public/record-test.txt')),
      'a file removed from public/',
      () => !readdirSync(out).includes('record-test.txt'),
    );
    await rebuildsAfter(
      () => copy.edit('site.config.ts', (t) => t.replace("'Fixture Records'", "'Record Test Records'")),
      'config',
      () => page().includes('Record Test Records'),
    );
  },
);

record('an edit made while the first build into a folder runs is seen by the next build', async () => {
  let edited = false;
  const first = await buildSite({
    config: copy.config,
    out,
    // Once the build has read the content (its pages render), the content changes.
    onProgress: (progress) => {
      if (edited || progress.step !== 'render') return;
      copy.edit('content/copy.ts', (t) => t.replace("'Fixture home'", "'Edited while building'"));
      edited = true;
    },
  });
  assert.ok(edited, 'the content was edited while the build ran');
  assert.not.ok(first.upToDate);
  assert.not.ok(page().includes('Edited while building'), 'the first build was made from the content as it started');
  const next = await build();
  assert.not.ok(next.upToDate, 'the next build builds: the record is of the content the first build read');
  assert.ok(page().includes('Edited while building'), 'and shows the edit');
});

record('the build takes each Markdown file of content/ as the record read it, once; no other file', () => {
  mkdirSync(join(copy.root, 'content/notes'), { recursive: true });
  copy.write('content/notes/first.md', '---\ntitle: First\n---\nAs checked.\n');
  mkdirSync(join(copy.root, 'content/notes/drafts'));
  copy.write('content/notes/drafts/second.md', 'Not an entry.\n');
  copy.write('content/top.md', 'Not an entry either.\n');
  const kept = new BuildRecord(projectPaths(copy.config), { base: '/', out });
  assert.not.ok(kept.kept(), 'no record before the first build');
  kept.check();
  copy.write('content/notes/first.md', '---\ntitle: First\n---\nEdited after the check.\n');
  const file = join(copy.root, 'content/notes/first.md');
  assert.is(kept.take(file), '---\ntitle: First\n---\nAs checked.\n', 'the text the record is made of');
  assert.is(kept.take(file), undefined, 'given once: a second load reads the disk');
  assert.is(kept.take(join(copy.root, 'content/copy.ts')), undefined, 'a content module is not kept');
  assert.is(kept.take(join(copy.root, 'content/notes/drafts/second.md')), undefined, 'nor a file deeper than a folder');
  assert.is(kept.take(join(copy.root, 'content/top.md')), undefined, 'nor one beside the folders');
});

record('another --base or --out builds, and each output folder keeps its own record', async () => {
  await build();
  const based = await build({ base: '/sub/' });
  assert.not.ok(based.upToDate, 'another base builds');
  assert.match(page(), '/sub/', 'and its output is for that base');
  assert.not.ok((await build()).upToDate, 'back to "/": the folder holds the /sub/ build, so it builds');
  const other = tempOut();
  try {
    assert.not.ok((await build({ out: other })).upToDate, 'another output folder builds');
    assert.ok((await build({ out: other })).upToDate, 'then is up to date');
    assert.ok((await build()).upToDate, 'and the first folder is still up to date');
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

record(
  'an output folder changed since the build (a file edited, deleted or added, or the folder removed) builds again',
  async () => {
    await build();
    const changes: Array<[string, () => void]> = [
      ['edited', () => appendFileSync(join(out, 'index.html'), ' ')],
      ['deleted', () => unlinkSync(join(out, 'contact/index.html.br'))],
      ['added', () => writeFileSync(join(out, 'stray.txt'), 'stray')],
      ['removed', () => rmSync(out, { recursive: true, force: true })],
    ];
    for (const [what, change] of changes) {
      assert.ok((await build()).upToDate, `before the change (${what}), the build is up to date`);
      const expected = tree(out);
      change();
      assert.not.ok((await build()).upToDate, `a file ${what}: the build builds`);
      assert.equal(tree(out), expected, `a file ${what}: the output is as the build makes it`);
    }
  },
);

/** Every file of `dir` with what identifies it on disk: a file written again gets a new inode or change time. */
function identities(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => {
      const info = statSync(join(entry.parentPath, entry.name), { bigint: true });
      return [join(entry.parentPath, entry.name).slice(dir.length + 1), `${info.ino}:${info.ctimeNs}`];
    }),
  );
}

/** Builds, makes `change`, builds again (which must build): that build, and the files it wrote again, sorted. */
async function rewrittenAfter(change: () => void): Promise<{ result: BuildResult; rewritten: string[] }> {
  await build();
  const before = identities(out);
  change();
  const result = await build();
  assert.not.ok(result.upToDate, 'the build after the change builds');
  const rewritten = [...identities(out)].filter(([path, id]) => before.get(path) !== id).map(([path]) => path);
  return { result, rewritten: rewritten.sort() };
}

/** What a build with no cache makes of the project now, in a folder of its own. */
async function fresh(): Promise<Map<string, string>> {
  const elsewhere = tempOut();
  try {
    await buildSite({ config: copy.config, out: elsewhere, cache: false });
    return tree(elsewhere);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
}

record(
  'a content edit writes only the files of the page it shows on, and the output is what a fresh build makes',
  async () => {
    const { result, rewritten } = await rewrittenAfter(() =>
      copy.edit('content/copy.ts', (t) => t.replace("'Fixture home'", "'Edited home'")),
    );
    assert.equal(
      rewritten,
      ['index.html', 'index.html.br', 'index.html.gz'],
      'only the home page and its .br and .gz are written again',
    );
    assert.is(result.written, 3, 'the build counts the files it wrote');
    assert.match(page(), /Edited home/);
    assert.equal(tree(out), await fresh(), 'the folder holds what a build from nothing makes');
    assert.is(result.pages.length, 4, 'every page is in the report, those kept as they were too');
    assert.ok(
      result.pages.every((p) => p.html.brotli > 0),
      'the kept pages report the sizes the last build measured',
    );
  },
);

record("a page's .gz edited since: that page's three files are written again, and no other", async () => {
  const { rewritten } = await rewrittenAfter(() => appendFileSync(join(out, 'contact/index.html.gz'), ' '));
  assert.equal(
    rewritten,
    ['contact/index.html', 'contact/index.html.br', 'contact/index.html.gz'],
    "the .gz is told from its page's HTML and .br, which share its place in the record",
  );
  assert.equal(tree(out), await fresh(), 'the folder holds what a build from nothing makes');
});

record("a route removed: its page's files are deleted, with the folder they leave empty", async () => {
  await build();
  copy.edit('src/site/routes.tsx', (t) =>
    t.replace("  { path: '/static', page: Static, head: () => ({ title: 'Static' }) },\n", ''),
  );
  const result = await build();
  assert.not.ok(result.upToDate);
  assert.not.ok(existsSync(join(out, 'static')), 'static/ is gone');
  assert.equal(tree(out), await fresh(), 'the folder holds what a build from nothing makes');
  // The page's folder gives its name to a file: the folder goes before the file takes its place.
  copy.write('public/static', 'a file where a folder was');
  await build();
  assert.is(readFileSync(join(out, 'static'), 'utf8'), 'a file where a folder was');
  assert.equal(tree(out), await fresh(), 'and the folder holds what a build from nothing makes');
});

record('a build that fails a check leaves the output folder as it was, though it writes in place', async () => {
  await build();
  const before = tree(out);
  copy.edit('content/copy.ts', (t) => t.replace("'Fixture home'", "'Failing home'"));
  copy.edit('src/site/pages/home.tsx', (t) =>
    t.replace('<ClickTotal />', '<ClickTotal />\n      <a href="/nowhere">Nowhere</a>'),
  );
  await build().then(
    () => assert.unreachable('a broken link fails the build'),
    (error: Error) => assert.match(error.message, /nowhere/),
  );
  assert.equal(tree(out), before, 'a broken link: nothing in the output changed');
  copy.edit('src/site/pages/home.tsx', (t) => t.replace('\n      <a href="/nowhere">Nowhere</a>', ''));
  copy.edit('site.config.ts', (t) =>
    t.replace('  site: {', '  build: { budgets: { html: 100, js: 100_000 } },\n  site: {'),
  );
  await build().then(
    () => assert.unreachable('a page over its budget fails the build'),
    (error: Error) => assert.match(error.message, /budget|KB/i),
  );
  assert.equal(tree(out), before, 'a page over budget: nothing in the output changed');
  assert.is(
    readdirSync(join(out, '..')).filter((name) => name.startsWith(`.${basename(out)}.tmp-`)).length,
    0,
    'no staging folder is left',
  );
});

record('--no-cache builds every time, and the build after it builds too', async () => {
  await build();
  const fresh = await build({ cache: false });
  assert.not.ok(fresh.upToDate, '--no-cache never stops early');
  assert.is(fresh.rendered.made, 0, 'nor reads the page cache');
  assert.ok(fresh.compressed.fresh > 0, 'it compresses every file again');
  assert.not.ok((await build()).upToDate, 'the folder holds files the record does not know: build again');
  assert.ok((await build()).upToDate);
});

record('another version of the tool builds again', async () => {
  await build();
  const paths = projectPaths(copy.config);
  assert.ok(new BuildRecord(paths, { base: '/', out }).check(), 'the same tool: the last build stands');
  assert.not.ok(
    new BuildRecord(paths, { base: '/', out }, 'another-tool-version').check(),
    'another tool: it does not',
  );
  // What the last build's files were made from names its tool: another version keeps none of them, and holds none.
  const same = new BuildRecord(paths, { base: '/', out });
  same.check();
  const mine = same.last<{ file: string }>()!;
  assert.ok(mine.keys.made.has('index.html') && mine.pages.has('index.html'), 'the same tool: files and reports');
  const other = new BuildRecord(paths, { base: '/', out }, 'another-tool-version');
  other.check();
  const theirs = other.last<{ file: string }>()!;
  assert.not.ok(theirs.keys.made.has('index.html'), 'another tool: no file made from what it names');
  assert.is(theirs.pages.size, 0, 'nor the reports');
  assert.ok(theirs.keys.renders.has('index.html'), "each page's render hash stays: a render does not name the tool");
  assert.ok([...theirs.present].includes('index.html'), 'and the files the folder holds');
});

record('a damaged record only costs a build', async () => {
  await build();
  const file = new BuildRecord(projectPaths(copy.config), { base: '/', out }).file;
  assert.ok(readFileSync(file, 'utf8').length > 0, 'the build left its record');
  writeFileSync(file, '{"key": 1');
  assert.not.ok((await build()).upToDate, 'a damaged record: build');
  assert.ok((await build()).upToDate, 'and the record is whole again');
});

record.run();
