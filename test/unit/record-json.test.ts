// The build record written a piece at a time: the same JSON as one JSON.stringify, never one string of the whole.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BuildRecord, jsonPieces, MadeKeys } from '../../src/pipeline/build-record.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { digestHex } from '../../src/core/digest.ts';
import { writeCacheFile } from '../../src/pipeline/page-cache.ts';

const pieces = suite('record JSON in pieces');

/** A record shaped like a build's: thousands of output files, their keys, page reports, a config. */
function bigRecord(pages: number) {
  const files = Array.from({ length: pages }, (_, i) => `releases/release-${i}/index.html`);
  return {
    key: 'a'.repeat(32),
    inputs: ['/site/content/releases.ts', '/site/site.config.ts'],
    output: files.flatMap((file) => [`${file}`, `${file}.br`, `${file}.gz`].map((path, k) => [path, `${k}:1:2`])),
    build: {
      config: { site: { name: 'Site "quoted" \u2028', url: 'https://example.com' }, build: { budgets: undefined } },
      pages: files.map((file, i) => ({ path: `/${i}`, file, html: { raw: i, brotli: i / 2 }, missing: undefined })),
      inputs: [],
    },
    made: new Map(files.map((file, i) => [file, `key-${i}`])),
    renders: new Map(files.map((file) => [file, 'hash'])),
    absent: undefined,
  };
}

/** What JSON.stringify gives for the record once its maps are the arrays of their entries. */
const asArrays = (record: ReturnType<typeof bigRecord>) =>
  JSON.stringify({ ...record, made: [...record.made], renders: [...record.renders] });

pieces('gives the text of JSON.stringify, maps written as arrays of entries', () => {
  for (const count of [0, 1, 999, 1000, 1001, 3500]) {
    const record = bigRecord(count);
    assert.is([...jsonPieces(record, 3)].join(''), asArrays(record), `${count} pages: the same text`);
  }
});

pieces('writes a long array a thousand elements at a time, never the record as one string', () => {
  const record = bigRecord(5000);
  const all = [...jsonPieces(record, 3)];
  const total = all.join('').length;
  const longest = Math.max(...all.map((piece) => piece.length));
  assert.ok(longest < total / 10, `the longest piece (${longest} characters) is a small part of ${total}`);
  const pages = JSON.stringify(record.build.pages.slice(0, 1000)).slice(1, -1);
  assert.ok(all.includes(pages), 'the first thousand page reports are one piece');
});

pieces('values at the depth are stringified whole, as JSON.stringify writes them', () => {
  const value = { a: { b: { c: [1, { d: 2 }], e: new Date(0) } }, f: [undefined, () => 1], g: () => 1, h: null };
  for (const depth of [0, 1, 2, 5])
    assert.is([...jsonPieces(value, depth)].join(''), JSON.stringify(value), `depth ${depth}`);
  assert.is([...jsonPieces('text', 3)].join(''), '"text"');
});

pieces('writeCacheFile writes the pieces into one file that reads back whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-record-json-'));
  try {
    const file = join(dir, 'builds', 'record.json');
    const record = bigRecord(20_000);
    await writeCacheFile(file, () => jsonPieces(record, 3));
    const text = readFileSync(file, 'utf8');
    assert.ok(text.length > 2 * 1024 * 1024, 'a record of more than one write');
    assert.is(text, asArrays(record), 'the file is the record, every file and key in it');
    const read = JSON.parse(text) as { made: Array<[string, string]>; output: unknown[] };
    assert.is(read.made.length, 20_000, 'every page file keeps its key');
    assert.equal(new Map(read.made).get('releases/release-19999/index.html'), 'key-19999');
    assert.is(read.output.length, 60_000, 'every output file is listed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// "-" and "." sort before "/": a file "a-c" comes before the folder a's files, as whole paths sort.
const FILES = ['a-c', 'a.b', 'a/x', 'a/b-c', 'a/b/y', 'a/b/y.br', 'ab', 'b/index.html', 'index.html', 'Z'];

/** An output folder of FILES (each holding its own name) in a new folder `dir`, and a project's paths beside it. */
function outputOfFiles(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const out = join(dir, 'dist');
  for (const file of FILES) {
    mkdirSync(join(out, file, '..'), { recursive: true });
    writeFileSync(join(out, file), file);
  }
  return { dir, out, files: FILES, paths: { ...projectPaths(join(dir, 'site.config.ts')), cache: join(dir, 'cache') } };
}

pieces('the record lists every output file in path order, read a folder at a time', async () => {
  const { dir, out, files, paths } = outputOfFiles('site-gen-record-list-');
  try {
    const record = new BuildRecord(paths, { base: '/', out });
    await record.save({ config: {} as never, pages: [], inputs: [] });
    const saved = JSON.parse(readFileSync(record.file, 'utf8')) as { output: Array<[string, string]> };
    const sorted = [...files].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    assert.equal(
      saved.output.map(([path]) => path),
      sorted,
      'every file, in the order of the whole paths',
    );
    assert.ok(new BuildRecord(paths, { base: '/', out }).check(), 'the next build finds the folder as recorded');
    writeFileSync(join(out, 'a/b/y'), 'changed');
    assert.not.ok(new BuildRecord(paths, { base: '/', out }).check(), 'a file changed since: build again');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

pieces(
  'a record given the files the build wrote lists them as the walk of the folder would, without walking it',
  async () => {
    const { dir, out, files, paths } = outputOfFiles('site-gen-record-named-');
    try {
      const build = { config: {} as never, pages: [], inputs: [] };
      const walked = new BuildRecord(paths, { base: '/', out });
      await walked.save(build);
      const byWalk = readFileSync(walked.file, 'utf8');
      await new BuildRecord(paths, { base: '/', out }).save(build, undefined, [...files].sort());
      assert.is(readFileSync(walked.file, 'utf8'), byWalk, 'the same record, identities and order');
      assert.ok(new BuildRecord(paths, { base: '/', out }).check(), 'the next build finds the folder as recorded');

      // A file the folder does not have: no record of that build is saved (this one's stands, and no longer matches).
      writeFileSync(join(out, 'Z'), 'changed');
      await new BuildRecord(paths, { base: '/', out }).save(build, undefined, [...files, 'zz-missing'].sort());
      assert.is(readFileSync(walked.file, 'utf8'), byWalk, 'the record is not replaced');
      assert.not.ok(new BuildRecord(paths, { base: '/', out }).check(), 'and the next build builds');

      // A file in the folder that the build did not name (put there by something else): the next build builds.
      await new BuildRecord(paths, { base: '/', out }).save(build, undefined, [...files].sort());
      assert.ok(new BuildRecord(paths, { base: '/', out }).check());
      writeFileSync(join(out, 'stray.txt'), 'not the build');
      assert.not.ok(new BuildRecord(paths, { base: '/', out }).check(), 'a file no build wrote: build again');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** A digest standing for `name`: what a page's document key and render hash are (see DigestColumn). */
const d = (name: string) => digestHex(name);

pieces("what a build's files are made from: a page's .br and .gz with its key, then the other files", () => {
  const keys = new MadeKeys();
  // Out of order, as batches finish: index 1 (a small page, no siblings) before index 0; index 2 never set.
  keys.page(1, 'small/index.html', d('key-1'), d('render-1'), false);
  keys.page(0, 'index.html', d('key-0'), d('render-0'), true);
  keys.page(3, 'about/index.html', d('key-3'), d('render-3'), true);
  keys.other('sitemap.xml', 'bytes-1');
  keys.other('sitemap.xml.br', 'bytes-1');
  assert.equal(
    [...keys.made()],
    [
      ['index.html', d('key-0')],
      ['index.html.br', d('key-0')],
      ['index.html.gz', d('key-0')],
      ['small/index.html', d('key-1')],
      ['about/index.html', d('key-3')],
      ['about/index.html.br', d('key-3')],
      ['about/index.html.gz', d('key-3')],
      ['sitemap.xml', 'bytes-1'],
      ['sitemap.xml.br', 'bytes-1'],
    ],
  );
  assert.equal(
    [...keys.files()],
    [...keys.made()].map(([path]) => path),
    'the files are those of made()',
  );
  assert.equal(
    [...keys.renders()],
    [
      ['index.html', d('render-0')],
      ['small/index.html', d('render-1')],
      ['about/index.html', d('render-3')],
    ],
  );
  for (const path of keys.files()) assert.ok(keys.has(path), `has ${path}`);
  for (const path of ['small/index.html.br', 'small/index.html.gz', 'sitemap.xml.gz', 'other.html', 'index.htm'])
    assert.not.ok(keys.has(path), `not ${path}`);
  // A page set again (its document changed after it was written early) takes its new key, and may lose its siblings.
  keys.page(3, 'about/index.html', d('key-3b'), d('render-3b'), false);
  assert.not.ok(keys.has('about/index.html.br'), 'the page set again without siblings');
  assert.ok(JSON.stringify([...keys.made()]).includes(`["about/index.html","${d('key-3b')}"]`));
});

pieces("a build's files in path order, as a walk of the folder gives them, without a list of them", () => {
  const keys = new MadeKeys();
  // Pages set out of order, some without siblings; other files that fall between a page and its siblings.
  keys.page(2, 'b/index.html', d('k'), d('r'), true);
  keys.page(0, 'index.html', d('k'), d('r'), true);
  keys.page(1, 'a/index.html', d('k'), d('r'), false);
  keys.page(4, 'a-z/index.html', d('k'), d('r'), true);
  for (const other of ['sitemap.xml', 'b/index.html.a', 'b/index.html.c', '_headers', 'a/index.htm', 'zz/x.js'])
    keys.other(other, 'bytes');
  const sorted = [...keys.files()].sort();
  const list = keys.inPathOrder();
  assert.equal([...list], sorted);
  assert.equal([...list], sorted, 'iterated again, the same');
  assert.is(list.size, sorted.length);
  assert.ok(list.has('b/index.html.br') && list.has('_headers'));
  assert.not.ok(list.has('a/index.html.br'), 'a page written without its siblings');

  // A page's file the start of the next one's: its siblings do not follow it at once ('a.html.br' > 'a.html.b.html').
  keys.page(5, 'p.html', d('k'), d('r'), true);
  keys.page(6, 'p.html.b.html', d('k'), d('r'), true);
  keys.page(7, 'p.html.z.html', d('k'), d('r'), false);
  const withPrefix = [...keys.files()].sort();
  assert.ok(withPrefix.indexOf('p.html.b.html') < withPrefix.indexOf('p.html.br'), 'the case is the one meant');
  assert.equal([...keys.inPathOrder()], withPrefix);
  assert.is(keys.inPathOrder().size, withPrefix.length);
});

pieces.run();
