// `site-gen build`: renders the site into the output folder, shows its progress, then a summary of what it built.
import type { Command } from 'commander';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { WriteError } from '../core/errors.ts';
import type { BuildResult, PageReport } from '../pipeline/build.ts';
import { duration, progressMode, ProgressView } from './build-progress.ts';
import { boundHeapGrowth } from '../pipeline/heap.ts';
import { optimiseLater } from '../pipeline/jit.ts';
import { configOption, outOption } from './options.ts';

interface BuildFlags {
  config: string;
  out: string;
  base: string;
  json?: boolean;
  quiet?: boolean;
  report?: string;
  cache: boolean;
  precompress: boolean;
}

/** Pages the summary names, slowest and heaviest each: the full table is in --report FILE and --json. */
const LISTED = 10;

export function addBuildCommand(program: Command): void {
  program
    .command('build')
    .description(
      'render every route to static HTML with critical CSS and island scripts, check links and budgets, write the output folder atomically',
    )
    .addOption(configOption())
    .addOption(outOption('written by the build, replaced only when the build succeeds'))
    .option('--base <path>', 'URL path the site is served under, e.g. /my-site/', '/')
    .option('--json', 'print the summary as JSON, every page in it, and no progress')
    .option('-q, --quiet', 'print nothing but errors')
    .option(
      '--report <file>',
      'write the table of every page (size, inline CSS, scripts, time) to FILE; JSON if it ends in .json',
    )
    .option('--no-cache', 'make every page, script and compressed file again, ignoring node_modules/.cache/site-gen')
    .option('--no-precompress', 'write no .br/.gz files and skip the budgets (brotli sizes): for a quick local build')
    .action(async (flags: BuildFlags) => {
      // Before the site's code loads: from then on the heap holds the site, then the pages' records.
      boundHeapGrowth();
      optimiseLater();
      // Loaded when the command runs: the build's packages (esbuild, lightningcss, css-select, React's renderer) are most
      // of the start-up time, which --help and the other commands do not need to pay.
      const { buildSite } = await import('../pipeline/build.ts');
      const stream = process.stderr;
      const view = flags.json || flags.quiet ? undefined : new ProgressView({ stream, mode: progressMode(stream) });
      let result: BuildResult;
      try {
        result = await buildSite({
          config: flags.config,
          out: flags.out,
          base: flags.base,
          cache: flags.cache,
          precompress: flags.precompress,
          onProgress: view && ((progress) => view.update(progress)),
        });
      } finally {
        view?.end();
      }
      if (flags.report) await writeReport(flags.report, result, flags.out);
      if (flags.json) await writePieces(process.stdout, summaryJsonText(result, flags.out));
      else if (!flags.quiet)
        process.stdout.write(
          summaryText(result, flags.out, { report: flags.report, precompressed: flags.precompress }),
        );
    });
}

async function writeReport(file: string, result: BuildResult, out: string): Promise<void> {
  const text = file.endsWith('.json') ? summaryJsonText(result, out) : summaryTable(result, out);
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new WriteError(
      `--report ${file}: could not write the page table (${(error as NodeJS.ErrnoException).code ?? String(error)}). Choose a file in a folder that exists and is writable.`,
      { cause: error },
    );
  }
}

export function summaryJson(result: BuildResult, out: string) {
  return summaryFields(result, out, result.pages);
}

/** What `--json` prints, with `pages` as given: the reports' array, or the list that makes them as it is read. */
function summaryFields<Pages extends Iterable<PageReport>>(result: BuildResult, out: string, pages: Pages) {
  return {
    out,
    ms: result.ms,
    times: result.times,
    compressed: result.compressed,
    rendered: result.rendered,
    images: result.images,
    files: result.files.size,
    upToDate: result.upToDate,
    written: result.written,
    pages,
  };
}

/** Text pieces of about this many characters (see inPieces). */
const TEXT_PIECE = 64 * 1024;

/** `texts` in order, joined into pieces of about TEXT_PIECE characters: a long report is never one text. */
function* inPieces(texts: Iterable<string>): Generator<string> {
  let piece = '';
  for (const text of texts) {
    piece += text;
    if (piece.length < TEXT_PIECE) continue;
    yield piece;
    piece = '';
  }
  if (piece) yield piece;
}

/**
 * `JSON.stringify(summaryJson(result, out), null, 2)` and a newline, in pieces: the pages' reports a few hundred at a
 * time rather than as one text. At 100,003 pages that text is 30 MB, and it was made, with the copies that made it,
 * at the very end of the build: the top of its memory with `--json` (442 MB, against 366 MB since).
 */
export function* summaryJsonText(result: BuildResult, out: string): Generator<string> {
  yield* inPieces(prettyJson(summaryFields(result, out, result.reports)));
}

/**
 * `JSON.stringify(value, null, 2)` and a newline, for an object: a field at a time, the items of an array or of a list
 * (an iterable with a length, such as a ReportList, written as an array) one by one.
 */
function* prettyJson(value: object): Generator<string> {
  const fields = Object.entries(value).filter(([, field]) => field !== undefined);
  yield '{';
  for (const [at, [key, field]] of fields.entries()) {
    yield `\n  ${JSON.stringify(key)}: `;
    const list = isList(field) ? field : undefined;
    if (list && list.length > 0) {
      yield '[';
      let index = 0;
      for (const item of list)
        yield `${index++ === 0 ? '' : ','}\n    ${JSON.stringify(item, null, 2).replace(/\n/g, '\n    ')}`;
      yield '\n  ]';
    } else yield JSON.stringify(list ? [] : field, null, 2).replace(/\n/g, '\n  ');
    if (at < fields.length - 1) yield ',';
  }
  yield '\n}\n';
}

/** Whether `value` is an array, or an iterable with a length (written as an array). */
function isList(value: unknown): value is Iterable<unknown> & { length: number } {
  return (
    Array.isArray(value) ||
    (typeof value === 'object' &&
      value !== null &&
      Symbol.iterator in value &&
      typeof (value as { length?: unknown }).length === 'number')
  );
}

/** Writes `pieces` to `stream` one after another, each once the stream has room for it. */
async function writePieces(stream: NodeJS.WritableStream, pieces: Iterable<string>): Promise<void> {
  for (const piece of pieces) if (!stream.write(piece)) await once(stream, 'drain');
}

const kb = (n: number) => (n / 1024).toFixed(1);
const count = (n: number) => n.toLocaleString('en-US');

function shownOut(out: string): string {
  const rel = relative(process.cwd(), out);
  return rel && !rel.startsWith('..') ? rel : out;
}

/**
 * The full per-page table (--report FILE): one line per page, in pieces (see inPieces), the widths of its columns
 * found in a first pass over the reports.
 */
export function* summaryTable(result: BuildResult, out: string): Generator<string> {
  const head = ['route', 'file', 'HTML KB', 'HTML br', 'inline CSS KB', 'JS KB', 'JS br', 'JS files', 'ms'];
  function* rows(): Generator<string[]> {
    for (const p of result.reports)
      yield [
        p.path,
        p.file,
        kb(p.html.raw),
        kb(p.html.brotli),
        kb(p.inlineCss.raw),
        kb(p.js.raw),
        kb(p.js.brotli),
        String(p.js.files),
        (p.ms ?? 0).toFixed(1),
      ];
  }
  function* text(): Generator<string> {
    for (const line of tableLines(head, rows)) yield `${line}\n`;
    yield `\n${totals(result, out)}\n`;
  }
  yield* inPieces(text());
}

/** What a person reads after a build: the totals, the heaviest and slowest pages (ten at most), where the rest is. */
export function summaryText(
  result: BuildResult,
  out: string,
  { report, precompressed = true }: { report?: string; precompressed?: boolean } = {},
): string {
  const pages = result.reports;
  const lines = [totals(result, out)];
  if (result.upToDate) lines.push('Nothing changed since the last build: the output folder was left as it was.');
  if (pages.length > 0) {
    const weight = (p: PageReport) => p.html.brotli + p.js.brotli;
    const heaviest = topOf(pages, weight);
    lines.push(
      '',
      `Heaviest pages (brotli: HTML with its inline CSS, and the JavaScript loaded without a tap):`,
      ...table(
        ['route', 'HTML br', 'JS br'],
        heaviest.map((p) => [p.path, `${kb(p.html.brotli)} KB`, `${kb(p.js.brotli)} KB`]),
      ).map((line) => `  ${line}`),
    );
    if (!result.upToDate) {
      const slowest = topOf(pages, (p) => p.ms ?? 0);
      lines.push(
        '',
        'Slowest pages (render and document):',
        ...table(
          ['route', 'ms'],
          slowest.map((p) => [p.path, (p.ms ?? 0).toFixed(1)]),
        ).map((line) => `  ${line}`),
      );
    }
    const budgets = result.config.build.budgets;
    lines.push(
      '',
      precompressed
        ? `Budgets (brotli): every page within ${kb(budgets.html)} KB of HTML and ${kb(budgets.js)} KB of JavaScript.`
        : 'Budgets not checked: --no-precompress makes no brotli sizes to check them against.',
    );
  }
  lines.push(
    report ? `Every page's figures: ${report}.` : `Every page's figures: site-gen build --report FILE (or --json).`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * The LISTED pages of highest `measure`, highest first (the first in the routes' order among equals, as a stable sort
 * gives them), in one pass: not every report made at once to sort them.
 */
function topOf(pages: Iterable<PageReport>, measure: (page: PageReport) => number): PageReport[] {
  const top: Array<{ page: PageReport; value: number }> = [];
  for (const page of pages) {
    const value = measure(page);
    if (top.length === LISTED && value <= top[LISTED - 1]!.value) continue;
    let at = top.length;
    while (at > 0 && top[at - 1]!.value < value) at -= 1;
    top.splice(at, 0, { page, value });
    if (top.length > LISTED) top.pop();
  }
  return top.map(({ page }) => page);
}

function totals(result: BuildResult, out: string): string {
  const made =
    result.rendered.made + result.rendered.kept > 0
      ? ` (${count(result.rendered.made)} rendered, ${count(result.rendered.kept)} read back from the cache)`
      : '';
  const time = result.ms < 10_000 ? `${count(result.ms)} ms` : duration(result.ms / 1000);
  return `Built ${count(result.reports.length)} pages, ${count(result.files.size)} files into ${shownOut(out)}/ in ${time}${made}.`;
}

/** Rows under a head, the first column left-aligned, the others right-aligned. */
function table(head: string[], rows: string[][]): string[] {
  return [...tableLines(head, () => rows)];
}

/**
 * A table's lines: `head`, a rule, then a line for each of `rows()`, which is read twice (the columns' widths, then
 * the lines): a table of every page is not held whole, and its widths are not a spread of 100,000 numbers (which
 * throws past about 125,000).
 */
function* tableLines(head: string[], rows: () => Iterable<string[]>): Generator<string> {
  const widths = head.map((h) => h.length);
  for (const row of rows()) for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i]!, cell.length);
  const line = (cells: string[]) =>
    cells
      .map((c, i) =>
        i < 2 && head.length > 3 ? c.padEnd(widths[i]!) : i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  yield line(head);
  yield line(widths.map((w) => '-'.repeat(w)));
  for (const row of rows()) yield line(row);
}
