// The build record written a piece at a time: the same JSON as one JSON.stringify, never one string of the whole.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BuildRecord, jsonPieces } from '../../src/pipeline/build-record.ts';
import { projectPaths } from '../../src/core/paths.ts';
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

pieces('the record lists every output file in path order, read a folder at a time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-record-list-'));
  try {
    const out = join(dir, 'dist');
    // "-" and "." sort before "/": a file "a-c" comes before the folder a's files, as whole paths sort.
    const files = ['a-c', 'a.b', 'a/x', 'a/b-c', 'a/b/y', 'a/b/y.br', 'ab', 'b/index.html', 'index.html', 'Z'];
    for (const file of files) {
      mkdirSync(join(out, file, '..'), { recursive: true });
      writeFileSync(join(out, file), file);
    }
    const paths = { ...projectPaths(join(dir, 'site.config.ts')), cache: join(dir, 'cache') };
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

pieces.run();
