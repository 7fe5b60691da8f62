// What `site-gen build` shows while it runs and when it ends: a bar on a terminal, a line every few seconds in CI, a
// summary rather than a line per page, the full table in --report FILE and --json, nothing with --quiet.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { summaryJson, summaryJsonText, summaryTable, summaryText } from '../../src/cli/build.ts';
import { describe, progressMode, ProgressView } from '../../src/cli/build-progress.ts';
import type { BuildResult, PageReport } from '../../src/pipeline/build.ts';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

const view = suite('build progress');

view('a terminal gets a bar redrawn in place with done/total, rate and time left', () => {
  let now = 0;
  const { writes, stream } = fakeStream(true);
  const progress = new ProgressView({ stream, mode: progressMode(stream, {}), now: () => now });
  for (let done = 1; done <= 1000; done += 1) {
    now += 1; // 1,000 pages a second
    progress.update({ step: 'render', done, total: 1000 });
  }
  progress.end();
  assert.ok(writes.length < 20, `redrawn at most ten times a second, not once per page (${writes.length} writes)`);
  const draws = writes.filter((w) => w.startsWith('\r'));
  assert.ok(draws.length >= 5, 'redrawn as it goes');
  assert.ok(
    draws.every((w) => !w.includes('\n')),
    'each redraw stays on its line',
  );
  const half = draws.find((w) => w.includes(' 501/'));
  assert.ok(half, 'drawn half way');
  assert.match(half!, /rendering +\[#{12}-{12}\] 501\/1,000 pages, 1,00\d pages\/s, about 1 s left\x1b\[K$/);
  assert.match(draws.at(-1)!, /\[#{24}\] 1,000\/1,000 pages/);
  assert.is(writes.at(-1), '\n', 'the bar ends its line at the end');
});

view('in CI, or with no terminal, a line every few seconds and one as each step ends', () => {
  for (const [isTTY, env] of [
    [true, { CI: 'true' }],
    [false, {}],
  ] as const) {
    let now = 0;
    const { writes, stream } = fakeStream(isTTY);
    assert.is(progressMode(stream, env), 'lines');
    const progress = new ProgressView({ stream, mode: progressMode(stream, env), now: () => now });
    for (let done = 1; done <= 20_000; done += 1) {
      now += 1; // 20 s of rendering
      progress.update({ step: 'render', done, total: 20_000 });
    }
    progress.update({ step: 'write', done: 20_000, total: 20_000 });
    // The build reports the last page again as it ends: the step's last line is not printed twice.
    progress.update({ step: 'write', done: 20_000, total: 20_000 });
    progress.end();
    assert.ok(
      writes.every((w) => w.startsWith('site-gen build: ') && w.endsWith('\n') && !w.includes('\r')),
      'whole lines, no redraw',
    );
    assert.is(writes.length, 6, 'one at the start, one every 5 s, one at the end, one for the next step');
    assert.match(writes[1]!, /^site-gen build: rendering 5,001\/20,000 pages, 1,000 pages\/s, about 15 s left\n$/);
    assert.match(writes.at(-1)!, /^site-gen build: writing 20,000\/20,000 pages\n$/);
  }
});

view('encoding images counts image files; a rate under one a second is left out, the time left is not', () => {
  assert.is(describe({ step: 'images', done: 3, total: 15 }, 6_000), '3/15 image files, about 24 s left');
  assert.is(
    describe({ step: 'images', done: 12, total: 15 }, 6_000),
    '12/15 image files, 2 image files/s, about 2 s left',
  );
  assert.is(describe({ step: 'images', done: 0, total: 15 }, 0), '0/15 image files');
  const { writes, stream } = fakeStream(false);
  const progress = new ProgressView({ stream, mode: 'lines', now: () => 0 });
  progress.update({ step: 'images', done: 0, total: 15 });
  assert.equal(writes, ['site-gen build: encoding 0/15 image files\n']);
});

view('the time left reads in minutes past a minute', () => {
  assert.is(
    describe({ step: 'write', done: 1000, total: 100_000 }, 1000),
    '1,000/100,000 pages, 1,000 pages/s, about 1 min 39 s left',
  );
});

view('a step that starts with pages done counts its rate from the pages it did itself', () => {
  assert.is(
    describe({ step: 'write', done: 9_500, total: 10_000 }, 1000, 9_000),
    '9,500/10,000 pages, 500 pages/s, about 1 s left',
  );
  assert.is(
    describe({ step: 'write', done: 10_000, total: 10_000 }, 1, 10_000),
    '10,000/10,000 pages',
    'every page written while pages rendered: no rate',
  );
});

view.run();

const cli = suite('site-gen build: what it prints');
const run = promisify(execFile);
const config = 'test/fixtures/basic/site.config.ts';

async function build(...args: string[]) {
  const out = mkdtempSync(join(tmpdir(), 'site-gen-progress-'));
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [
        'bin/site-gen.js',
        'build',
        '--config',
        config,
        '--out',
        join(out, 'dist'),
        '--no-cache',
        ...args.map((a) => a.replace('OUT', out)),
      ],
      { env: { ...process.env, CI: '' } },
    );
    const report = (() => {
      try {
        return readFileSync(
          join(out, args.includes('--report') ? args[args.indexOf('--report') + 1]!.replace('OUT/', '') : 'none'),
          'utf8',
        );
      } catch {
        return undefined;
      }
    })();
    return { stdout, stderr, report };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

cli(
  'a summary, not a line per page: totals, heaviest and slowest pages, budgets, where the full table is',
  async () => {
    const { stdout, stderr } = await build();
    assert.match(stdout, /^Built 4 pages, \d+ files into .*dist\/ in [\d,]+ ms\.\n/);
    assert.match(stdout, /Heaviest pages[^\n]*\n  route +HTML br +JS br\n/);
    assert.match(stdout, /Slowest pages[^\n]*\n  route +ms\n/);
    assert.match(stdout, /Budgets \(brotli\): every page within/);
    assert.match(stdout, /site-gen build --report FILE \(or --json\)/);
    assert.not.match(stdout, /contact\/index\.html/, 'no per-page table');
    assert.match(
      stderr,
      /site-gen build: rendering 4\/4 pages/,
      'progress goes to stderr, here as lines (no terminal)',
    );
    assert.is(
      stderr.match(/site-gen build: writing 4\/4 pages\n/g)?.length,
      1,
      `each step's last line once:\n${stderr}`,
    );
  },
);

cli('--report FILE writes every page: a table, or JSON for a .json name', async () => {
  const table = await build('--report', 'OUT/pages.txt');
  assert.match(table.report!, /^route +file +HTML KB +HTML br +inline CSS KB +JS KB +JS br +JS files +ms\n/);
  for (const file of ['index.html', 'contact/index.html', 'static/index.html', '404.html'])
    assert.match(table.report!, new RegExp(`\\s${file.replace('.', '\\.')}\\s`), `${file} is in the table`);
  assert.match(table.stdout, /Every page's figures: .*pages\.txt\./);
  const json = await build('--report', 'OUT/pages.json');
  assert.equal(
    JSON.parse(json.report!).pages.map((p: { path: string }) => p.path),
    ['/', '/contact', '/static', '/404'],
  );
});

cli('--quiet prints nothing; --json prints only the JSON, with no progress', async () => {
  const quiet = await build('--quiet');
  assert.is(quiet.stdout, '');
  assert.is(quiet.stderr.replace(/.*nodedir.*\n/g, ''), '');
  const json = await build('--json');
  assert.is(JSON.parse(json.stdout).pages.length, 4);
  assert.not.match(json.stderr, /site-gen build:/);
});

cli('--report into a folder that does not exist exits 1 naming the flag', async () => {
  const error = await build('--report', 'OUT/missing/folder/pages.txt').catch(
    (e: { code: number; stderr: string }) => e,
  );
  assert.is((error as { code: number }).code, 1);
  assert.match(
    (error as { stderr: string }).stderr,
    /--report .*pages\.txt: could not write the page table \(ENOENT\)/,
  );
});

cli.run();

const json = suite('--json and --report FILE.json, written in pieces');

/** A build's result as the summary reads it, with `count` pages (one with a path JSON escapes). */
function resultWith(count: number): BuildResult {
  const pages: PageReport[] = Array.from({ length: count }, (_, i) => ({
    path: i === 1 ? '/a "quoted"\\path\n' : `/p/${i}`,
    file: `p/${i}/index.html`,
    html: { raw: 1000 + i, brotli: 300 + i },
    inlineCss: { raw: 12 },
    js: { raw: 0, brotli: 0, files: 0 },
    ms: i / 10,
  }));
  return {
    pages,
    reports: pages,
    config: { build: { budgets: { html: 50_000, js: 100_000 } } },
    files: new Map([['index.html', '']]),
    ms: 12,
    times: { render: 3, compress: undefined },
    compressed: { fresh: 1, cached: 0 },
    rendered: { kept: 0, made: count },
    images: { encoded: 0, kept: 0 },
    upToDate: false,
    written: 3,
  } as unknown as BuildResult;
}

json('the same text as JSON.stringify with two spaces, a few hundred pages a piece', () => {
  for (const count of [0, 1, 3, 2000]) {
    const result = resultWith(count);
    const pieces = [...summaryJsonText(result, 'dist')];
    assert.is(pieces.join(''), `${JSON.stringify(summaryJson(result, 'dist'), null, 2)}\n`, `${count} pages`);
    if (count === 2000) assert.ok(pieces.length > 4, `in pieces, not one text: ${pieces.length}`);
  }
});

json('from a list that makes each report as it is read: the same text, and no array of the reports made', () => {
  for (const count of [0, 1, 2000]) {
    const result = resultWith(count);
    const pages = result.pages;
    let read = 0;
    const reports = {
      length: pages.length,
      *[Symbol.iterator]() {
        for (const page of pages) {
          read += 1;
          yield { ...page };
        }
      },
    };
    const listed = {
      ...result,
      reports,
      get pages(): never {
        throw new Error('the array was asked for');
      },
    };
    const text = [...summaryJsonText(listed, 'dist')].join('');
    assert.is(text, `${JSON.stringify(summaryJson(result, 'dist'), null, 2)}\n`, `${count} pages`);
    assert.is(read, count, 'each report made once');
    summaryText(listed, 'dist');
    [...summaryTable(listed, 'dist')];
  }
});

json('the heaviest and slowest pages: the ten highest, the first of equals first, as a stable sort gives them', () => {
  const result = resultWith(40);
  // Weights and times with many equals: the sort of every report the summary once made gives the expected lists.
  result.pages.forEach((page, i) => {
    page.path = `/p/${i}`;
    page.html.brotli = (i * 7) % 5;
    page.ms = (i * 3) % 4;
  });
  const expected = (measure: (p: PageReport) => number) =>
    [...result.pages]
      .sort((a, b) => measure(b) - measure(a))
      .slice(0, 10)
      .map((p) => p.path);
  const text = summaryText(result, 'dist');
  const listed = (title: string) =>
    text
      .split(title)[1]!
      .split('\n\n')[0]!
      .split('\n')
      .slice(3)
      .map((line) => line.trim().split(/ {2,}/)[0]);
  assert.equal(
    listed('Heaviest pages'),
    expected((p) => p.html.brotli + p.js.brotli),
  );
  assert.equal(
    listed('Slowest pages'),
    expected((p) => p.ms ?? 0),
  );
});

json('the page table of 150,003 pages, in pieces, its columns as wide as their widest cell', () => {
  const count = 150_003;
  const result = resultWith(count);
  result.pages[1]!.path = '/the-longest/route-of-all';
  const pieces = [...summaryTable(result, 'dist')];
  assert.ok(pieces.length > 100, `in pieces, not one text: ${pieces.length}`);
  const lines = pieces.join('').split('\n');
  assert.is(lines.length, count + 5, 'head, rule, a line a page, a blank line, the totals, the last newline');
  assert.match(lines[0]!, /^route +file +HTML KB/);
  const route = lines[1]!.indexOf(' ');
  assert.is(route, '/the-longest/route-of-all'.length, 'the route column: its widest route');
  assert.is(lines[2 + count - 1]!.slice(0, route + 2), `/p/${count - 1}`.padEnd(route + 2));
  assert.match(lines[count + 3]!, /^Built 150,003 pages/);
});

json.run();
