// How site-gen scales with pages, on copies of this project grown from data (bench/lib/scale-site.ts: one page per
// release, each with its own title and text): cold, unchanged and one-page-changed builds of 1,000 and 10,000 extra
// pages, each cold build back to back with a checkout of an earlier commit (--baseline DIR) for a ratio; cold,
// unchanged and one-page-changed builds of 100,000 pages (--big), with each build's peak memory; the cache left on
// disk; this 3-page site cold; and `site-gen watch` on the biggest paired site (first page served, footer edit ->
// reloaded page, CSS edit -> swapped stylesheet, in Chromium).
// Writes its section of bench/RESULTS.md. Run:
//   npm run bench:scale -- --baseline /tmp/base-checkout [--reference /tmp/ref-checkout --runs 1 --sizes 1000,10000
//     --big 100000 --edits 10]
//   npm run bench:scale -- --watch-only [--baseline /tmp/base-checkout --runs 3 --sizes 10000 --edits 5]
// --watch-only times `site-gen watch` alone (on the biggest size; with --baseline, each run the baseline's then this
// checkout's, back to back) and prints the figures without writing bench/RESULTS.md.
// The issue's bounds are for a machine where b3c179e builds 1,003 pages in 3.1 s: they are scaled here by the
// reference's 1,003-page cold build (--reference, the baseline unless given), measured beside each size's builds (in each
// run, just before them), so that a size's bound follows the machine's speed while that size is built: it swings by half
// within an hour on these machines.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright';
import { runBuild, type BuildRun } from '../bench/lib/build-times.ts';
import { currentLoad, describeMachine } from '../bench/lib/machine.ts';
import { contactPagesSite, scaleSite } from '../bench/lib/scale-site.ts';
import { connected, reloadedWith } from '../bench/lib/reload.ts';
import { median } from '../bench/lib/stats.ts';
import { writeSection } from '../bench/lib/results-section.ts';
import { TOOL_ROOT } from '../test/helpers/watch-project.ts';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    edits: { type: 'string', default: '10' },
    sizes: { type: 'string', default: '1000,10000' },
    big: { type: 'string', default: '100000' },
    baseline: { type: 'string', default: '' },
    reference: { type: 'string', default: '' },
    port: { type: 'string', default: '4435' },
    'watch-only': { type: 'boolean', default: false },
  },
});
const RUNS = Number(flags.runs);
const EDITS = Number(flags.edits);
const SIZES = flags.sizes.split(',').map(Number);
const BIG = Number(flags.big);
const WATCH_PAGES = Math.max(...SIZES);
/** How long the browser waits for a reload, a reconnection or a swapped stylesheet of the watch session before failing. */
const WAIT_MS = 60_000;
const BASELINE = flags.baseline;
if (BASELINE && !existsSync(join(BASELINE, 'bin/site-gen.js')))
  throw new Error(`--baseline ${BASELINE}: no bin/site-gen.js there. Give a checkout of the commit to compare with.`);
/** The checkout whose cold 1,003-page build stands for b3c179e's, to scale the bounds by: the baseline unless given. */
const REFERENCE = flags.reference || BASELINE;
if (flags.reference && !existsSync(join(flags.reference, 'bin/site-gen.js')))
  throw new Error(
    `--reference ${flags.reference}: no bin/site-gen.js there. Give a checkout whose 1,003-page build scales the bounds.`,
  );
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** This tool's cache (the tool keeps it in its own node_modules, whichever site it builds). */
const cacheDir = join(TOOL_ROOT, 'node_modules/.cache/site-gen');
/** The issue's reference: b3c179e's cold 1,003-page build on the machine its bounds were set on. */
const REFERENCE_MS = 3100;

/** Linux's CPU pressure: the share of the last 10 s some task waited for a CPU (other sessions on the machine). */
async function pressure(): Promise<string> {
  const text = await readFile('/proc/pressure/cpu', 'utf8').catch(() => '');
  return /some avg10=([\d.]+)/.exec(text)?.[1] ? `${/some avg10=([\d.]+)/.exec(text)![1]}%` : 'unknown';
}

const load = async () => `load ${currentLoad()}, CPU pressure ${await pressure()}`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** Bytes under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  return total;
}

interface Measured extends BuildRun {
  written?: number;
}

/**
 * One build with the caches cleared first (outside the timer), into `out`, a folder no build used: what a fresh
 * checkout pays. No output is deleted until every build is timed: on this disk, deleting a tree of thousands of folders
 * makes the next thousands of file creations, by whichever process, cost seconds of system time (docs/benchmarks.md,
 * "Output folders"), so a deletion before a build would time the deletion rather than the build.
 */
async function cold(root: string, out: string, tool = TOOL_ROOT): Promise<Measured> {
  if (existsSync(out)) throw new Error(`${out} exists: a cold build writes into a new folder.`);
  // The tool keeps its cache in its own node_modules: the baseline's is its checkout's.
  for (const part of ['pages', 'builds'])
    await rm(join(tool, 'node_modules/.cache/site-gen', part), { recursive: true, force: true });
  const { run, summary } = await runBuild(root, out, {}, tool);
  return { ...run, written: summary.written };
}

async function again(root: string, out: string, tool = TOOL_ROOT): Promise<Measured> {
  const { run, summary } = await runBuild(root, out, {}, tool);
  return { ...run, written: summary.written };
}

const pickMs = (runs: Measured[], key: 'wallMs' | 'buildMs' | 'cpuMs') => median(runs.map((r) => r[key]));
/** The highest peak memory of `runs`, MB. */
const peakOf = (runs: ReadonlyArray<{ peakMB: number }>) => Math.max(...runs.map((r) => r.peakMB));

interface SizeResult {
  pages: number;
  mine: { cold: Measured[]; unchanged: Measured[]; changed: Measured[]; cacheBytes: number; outBytes: number };
  base?: { cold: Measured[]; changed: Measured[] };
  /** The reference's cold 1,003-page builds, one just before each run of this size: what its bounds are scaled by. */
  reference: Measured[];
  load: string;
}

/** The 1,003-page site the reference builds are made of (see SizeResult.reference), made when first needed. */
let referenceSite: Awaited<ReturnType<typeof scaleSite>> | undefined;

/** The reference checkout's cold 1,003-page build, into `out`: the machine's speed now, against REFERENCE_MS. */
async function referenceBuild(out: string): Promise<Measured> {
  referenceSite ??= await scaleSite(1000);
  return cold(referenceSite.root, out, REFERENCE);
}

/** A size's bounds are the issue's times this (1 when the run has no baseline to measure the machine with). */
const scaleOf = (r: SizeResult) => (r.reference.length > 0 ? pickMs(r.reference, 'wallMs') / REFERENCE_MS : 1);

/** Edits one release's summary: one page's text changes, every other page's stays. */
const changeOne = (pages: number, i: number) => (text: string) =>
  text.replace(
    new RegExp(`("id": "release-${String(Math.ceil(pages / 2)).padStart(4, '0')}",[^}]*"summary": ")([^"]*)`),
    `$1Edited ${i}: $2`,
  );

/** Output folders of the builds timed so far: deleted when every build is timed (see `cold`). */
const leftOutputs: string[] = [];

/** `withBaseline`: the baseline's cold and one-changed builds too; `full`: the one-changed build (20 s at 100,000). */
async function measureSize(size: number, withBaseline: boolean, full = true): Promise<SizeResult> {
  const project = await scaleSite(size);
  const outputs = await mkdtemp(join(tmpdir(), 'site-gen-scale-out-'));
  const result: SizeResult = {
    pages: size + 3,
    mine: { cold: [], unchanged: [], changed: [], cacheBytes: 0, outBytes: 0 },
    base: withBaseline ? { cold: [], changed: [] } : undefined,
    reference: [],
    load: '',
  };
  // When the reference is the baseline, the 1,003-page size's own baseline builds are the reference builds.
  const baselineIsReference = size === 1000 && REFERENCE === BASELINE;
  try {
    for (let i = 0; i < RUNS; i += 1) {
      // The machine's speed now, measured first.
      if (REFERENCE && !baselineIsReference)
        result.reference.push(await referenceBuild(join(outputs, `reference-${i}`)));
      // Back to back: the baseline's cold build, then this one's, so both see the same machine.
      if (result.base) {
        const baseOut = join(outputs, `baseline-${i}`);
        result.base.cold.push(await cold(project.root, baseOut, BASELINE));
        if (baselineIsReference) result.reference.push(result.base.cold.at(-1)!);
        await project.edit('content/releases.ts', changeOne(size, 1000 + i));
        result.base.changed.push(await again(project.root, baseOut, BASELINE));
      }
      const out = join(outputs, `dist-${i}`);
      result.mine.cold.push(await cold(project.root, out));
      console.log(`${size} pages: cold ${s(result.mine.cold.at(-1)!.wallMs)}, ${result.mine.cold.at(-1)!.peakMB} MB`);
      result.mine.cacheBytes = await sizeOf(join(cacheDir, 'pages'));
      result.mine.outBytes = await sizeOf(out);
      result.mine.unchanged.push(await again(project.root, out));
      if (!full) continue;
      await project.edit('content/releases.ts', changeOne(size, i));
      result.mine.changed.push(await again(project.root, out));
    }
    result.load = await load();
  } finally {
    await project.remove();
    // Deleted after the last timing, with the others (see `cold`).
    leftOutputs.push(outputs);
  }
  return result;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `site-gen watch` of the checkout `tool` on the biggest site: first page served after start, then footer and CSS
 * edits seen in Chromium.
 */
async function timeWatch(
  root: string,
  edit: (file: string, change: (text: string) => string) => Promise<void>,
  tool = TOOL_ROOT,
) {
  const url = `http://127.0.0.1:${flags.port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [join(tool, 'bin/site-gen.js'), 'watch', '--port', flags.port], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  let firstMs = Number.NaN;
  for (let tries = 0; tries < 1200 && Number.isNaN(firstMs); tries += 1) {
    // The server listens before the first build and answers once it is done.
    const reply = await fetch(`${url}/releases/release-0001`).catch(() => undefined);
    if (reply?.status === 200) firstMs = performance.now() - started;
    else await sleep(50);
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const content: number[] = [];
  const css: number[] = [];
  try {
    const page = await browser.newPage();
    await page.goto(`${url}/releases/release-${String(Math.ceil(WATCH_PAGES / 2)).padStart(4, '0')}`);
    await connected(page, WAIT_MS);
    for (let i = 0; i < EDITS; i += 1) {
      const text = `Scale bench footer ${i}`;
      const saved = Date.now();
      await edit('content/copy.ts', (t) => t.replace(/tagline: '[^']*'/, `tagline: '${text}'`));
      await reloadedWith(page, text, WAIT_MS);
      content.push(
        (await page.evaluate(
          () =>
            performance.timeOrigin +
            (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
        )) - saved,
      );
      await connected(page, WAIT_MS);
    }
    for (let i = 0; i < EDITS; i += 1) {
      const px = 10 + i;
      const saved = Date.now();
      await edit('src/site/styles/pages.css', (t) =>
        t.replace(/^\.page-hero \{\n(  outline-offset: \d+px;\n)?/m, `.page-hero {\n  outline-offset: ${px}px;\n`),
      );
      const shown = await page.waitForFunction(
        (expected) =>
          getComputedStyle(document.querySelector('.page-hero')!).outlineOffset === expected ? Date.now() : 0,
        `${px}px`,
        { polling: 'raf', timeout: WAIT_MS },
      );
      css.push((await shown.jsonValue()) - saved);
    }
  } catch (error) {
    console.error(`site-gen watch printed:\n${output.split('\n').slice(-40).join('\n')}`);
    throw error;
  } finally {
    await browser.close();
    child.kill('SIGINT');
  }
  // A second session: the script bundle kept by the first one is read back instead of made by esbuild.
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once('exit', resolve));
  const restarted = performance.now();
  const again = spawn(process.execPath, [join(tool, 'bin/site-gen.js'), 'watch', '--port', flags.port], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let secondMs = Number.NaN;
  try {
    for (let tries = 0; tries < 1200 && Number.isNaN(secondMs); tries += 1) {
      const reply = await fetch(`${url}/releases/release-0001`).catch(() => undefined);
      if (reply?.status === 200) secondMs = performance.now() - restarted;
      else await sleep(50);
    }
  } finally {
    again.kill('SIGINT');
  }
  // Stopped before the project is removed: a session left stopping in a folder deleted under it kept this script, and
  // its pipes, running after its report was written.
  if (again.exitCode === null && again.signalCode === null) await new Promise((resolve) => again.once('exit', resolve));
  const rebuilds = [...output.matchAll(/content\/copy\.ts: (.*) in (\d+) ms/g)].map((m) => `${m[1]} in ${m[2]} ms`);
  return { firstMs, secondMs, content, css, lastRebuild: rebuilds.at(-1) ?? 'none printed', output };
}

const spread = (values: number[]) =>
  `median ${Math.round(median(values))} ms (min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))})`;

if (flags['watch-only']) {
  const project = await scaleSite(WATCH_PAGES);
  const edited = ['content/copy.ts', 'src/site/styles/pages.css'];
  const before = await Promise.all(edited.map((file) => project.read(file)));
  try {
    for (let i = 0; i < RUNS; i += 1)
      for (const [name, tool] of [
        ...(BASELINE ? [['baseline', BASELINE] as const] : []),
        ['this checkout', TOOL_ROOT] as const,
      ]) {
        // Each session starts from the same files and with no page cache (the script bundle is kept, as a user has it).
        for (const [k, file] of edited.entries()) await project.write(file, before[k]!);
        await rm(join(cacheDir, 'pages'), { recursive: true, force: true });
        const watch = await timeWatch(project.root, (file, change) => project.edit(file, change), tool);
        console.log(
          `${name}, watch on ${WATCH_PAGES + 3} pages (${await load()}): first page ${s(watch.firstMs)} (second session ${s(watch.secondMs)}); footer edit -> reloaded ${spread(watch.content)}, "${watch.lastRebuild}"; CSS edit -> swapped ${spread(watch.css)}`,
        );
      }
  } finally {
    await project.remove();
  }
  process.exit(0);
}

const machine = describeMachine(CHROMIUM);
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  console.log(line);
};

log(
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGB} GB RAM; Node ${machine.node}. Run ${machine.date}; ${RUNS} run(s) per build (median; peak memory is the highest). Baseline: ${BASELINE ? `the checkout at ${BASELINE}` : 'none'}.`,
);
log('');

// This 3-page site, cold, back to back with the baseline.
const own: Measured[] = [];
const ownBase: Measured[] = [];
const ownOuts = await mkdtemp(join(tmpdir(), 'site-gen-scale-own-'));
leftOutputs.push(ownOuts);
for (let i = 0; i < Math.max(3, RUNS); i += 1) {
  if (BASELINE) ownBase.push(await cold(TOOL_ROOT, join(ownOuts, `baseline-${i}`), BASELINE));
  own.push(await cold(TOOL_ROOT, join(ownOuts, `dist-${i}`)));
}

const sizes: SizeResult[] = [];
for (const size of SIZES) sizes.push(await measureSize(size, Boolean(BASELINE)));
const big = BIG > 0 ? await measureSize(BIG, false) : undefined;

/**
 * Cold builds of `count` more contact pages (see contactPagesSite): the site's own data a route a page, so what grows
 * with the pages is the tool's memory. The largest size of the table and BIG.
 */
async function toolMemory(count: number): Promise<{ pages: number; cold: Measured[] }> {
  const project = await contactPagesSite(count);
  const outputs = await mkdtemp(join(tmpdir(), 'site-gen-scale-contact-'));
  leftOutputs.push(outputs);
  try {
    const runs: Measured[] = [];
    for (let i = 0; i < RUNS; i += 1) runs.push(await cold(project.root, join(outputs, `dist-${i}`)));
    console.log(`${count + 3} contact pages: cold ${s(pickMs(runs, 'wallMs'))}, ${peakOf(runs)} MB`);
    return { pages: count + 3, cold: runs };
  } finally {
    await project.remove();
  }
}
const toolOnly: Array<{ pages: number; cold: Measured[] }> = [];
for (const count of [...new Set([WATCH_PAGES, ...(BIG > 0 ? [BIG] : [])])]) toolOnly.push(await toolMemory(count));
await referenceSite?.remove();
await rm(join(cacheDir, 'pages'), { recursive: true, force: true });
await rm(join(cacheDir, 'builds'), { recursive: true, force: true });

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');
log(
  '| pages | cold, wall clock | cold CPU | cold peak RSS | baseline cold, wall clock | baseline peak RSS | ratio (wall) | unchanged | one page changed | one changed, peak RSS | files written (one changed) | baseline, one changed | cache on disk | output on disk |',
);
log('|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|');
for (const r of [...sizes, ...(big ? [big] : [])]) {
  const mineCold = pickMs(r.mine.cold, 'wallMs');
  const baseCold = r.base ? pickMs(r.base.cold, 'wallMs') : 0;
  log(
    `| ${r.pages.toLocaleString('en-US')} | ${s(mineCold)} | ${s(pickMs(r.mine.cold, 'cpuMs'))} | ${peakOf(r.mine.cold)} MB | ${r.base ? s(baseCold) : 'not run'} | ${r.base ? `${peakOf(r.base.cold)} MB` : ''} | ${r.base ? ratio(mineCold, baseCold) : ''} | ${s(pickMs(r.mine.unchanged, 'wallMs'))} | ${r.mine.changed.length ? s(pickMs(r.mine.changed, 'wallMs')) : 'not run'} | ${r.mine.changed.length ? `${peakOf(r.mine.changed)} MB` : ''} | ${r.mine.changed.at(-1)?.written ?? ''} | ${r.base ? s(pickMs(r.base.changed, 'wallMs')) : ''} | ${mb(r.mine.cacheBytes)} | ${mb(r.mine.outBytes)} |`,
  );
}
log('');
log(
  "**Memory by the tool alone**: the same cold builds of a copy of this site with N more routes rendering the contact page, each with its own path and title (the shape of site of the issue's first table, where Astro 5.18 peaked at 732 MB for 10,003 pages and 811 MB for 100,003): the site's own data is a route object a page, so what grows with the pages is what site-gen keeps of them.",
);
log('');
log('| pages | cold, wall clock | cold peak RSS |');
log('|--:|--:|--:|');
for (const r of toolOnly)
  log(`| ${r.pages.toLocaleString('en-US')} | ${s(pickMs(r.cold, 'wallMs'))} | ${peakOf(r.cold)} MB |`);
if (toolOnly.length > 1) {
  const [first, last] = [toolOnly[0]!, toolOnly.at(-1)!];
  const grown = peakOf(last.cold) - peakOf(first.cold);
  log('');
  log(
    `From ${first.pages.toLocaleString('en-US')} to ${last.pages.toLocaleString('en-US')} pages the peak grows ${grown} MB, ${Math.round((grown * 1024 * 1024) / (last.pages - first.pages))} bytes a page.`,
  );
}
log('');
log(
  `This 3-page site, cold: ${s(median(own.map((r) => r.wallMs)))} wall clock, ${s(median(own.map((r) => r.buildMs)))} build itself, peak ${peakOf(own)} MB${ownBase.length ? `; baseline ${s(median(ownBase.map((r) => r.wallMs)))}, ${peakOf(ownBase)} MB (ratio ${ratio(median(own.map((r) => r.wallMs)), median(ownBase.map((r) => r.wallMs)))})` : ''}.`,
);
log(`Machine at the end of the builds: ${await load()}.`);

const project = await scaleSite(WATCH_PAGES);
let watch: Awaited<ReturnType<typeof timeWatch>> | undefined;
try {
  await rm(join(cacheDir, 'pages'), { recursive: true, force: true });
  watch = await timeWatch(project.root, (file, change) => project.edit(file, change));
  log('');
  log(`**site-gen watch on ${WATCH_PAGES + 3} pages** (${await load()}):`);
  log(
    `- first page served ${s(watch.firstMs)} after the process started (no cache); ${s(watch.secondMs)} in a second session (script bundle kept by the first);`,
  );
  log(
    `- footer tagline edited in content/copy.ts (every page shows it) -> open page reloaded: ${spread(watch.content)}, ${EDITS} edits; the terminal's last line: "${watch.lastRebuild}";`,
  );
  log(`- CSS edit -> stylesheet swapped: ${spread(watch.css)}, ${EDITS} edits.`);
} finally {
  await project.remove();
}

// The issue's bounds, each size's scaled by the reference's 1,003-page cold builds beside that size's.
log('');
const measuredBeside = [...sizes, ...(big ? [big] : [])].filter((r) => r.reference.length > 0);
log(
  measuredBeside.length > 0
    ? `Bounds scaled by the cold 1,003-page build of the reference (${REFERENCE}) beside each size's builds, against 3.1 s where the bounds were set: ${measuredBeside.map((r) => `${r.pages.toLocaleString('en-US')} pages ×${scaleOf(r).toFixed(2)} (${r.reference.map((m) => s(m.wallMs)).join(', ')})`).join('; ')}.`
    : 'Bounds not scaled: no baseline to measure the machine with in this run.',
);
const goal = (what: string, value: number | undefined, bar: number, unit: 's' | 'MB' | 'ms') => {
  if (value === undefined) return `| ${what} | not run | | |`;
  const shown = unit === 's' ? s(value) : `${Math.round(value)} ${unit}`;
  const barShown = unit === 's' ? s(bar) : `${Math.round(bar)} ${unit}`;
  return `| ${what} | ${shown} | ${barShown} | ${value <= bar ? 'met' : '**not met**'} |`;
};
const tenK = sizes.find((r) => r.pages === 10_003);
const thousand = sizes.find((r) => r.pages === 1003);
const tenKScale = tenK ? scaleOf(tenK) : 1;
const bigScale = big ? scaleOf(big) : 1;
log('');
log('| goal | measured | bound | |');
log('|:--|--:|--:|:--|');
log(goal('10,000 pages cold (wall clock)', tenK && pickMs(tenK.mine.cold, 'wallMs'), 15_000 * tenKScale, 's'));
log(goal('10,000 pages cold, peak RSS', tenK && peakOf(tenK.mine.cold), 700, 'MB'));
log(goal('100,000 pages cold (wall clock)', big && pickMs(big.mine.cold, 'wallMs'), 150_000 * bigScale, 's'));
log(goal('100,000 pages cold, peak RSS', big && peakOf(big.mine.cold), 700, 'MB'));
log(goal('10,000 pages, nothing changed', tenK && pickMs(tenK.mine.unchanged, 'wallMs'), 3000 * tenKScale, 's'));
log(goal('10,000 pages, one page changed', tenK && pickMs(tenK.mine.changed, 'wallMs'), 3000 * tenKScale, 's'));
log(
  goal(
    '1,000 pages cold, not worse than the baseline',
    thousand && pickMs(thousand.mine.cold, 'wallMs'),
    thousand?.base ? pickMs(thousand.base.cold, 'wallMs') : Number.POSITIVE_INFINITY,
    's',
  ),
);
log(
  goal(
    '3 pages cold, not worse than the baseline',
    median(own.map((r) => r.wallMs)),
    ownBase.length ? median(ownBase.map((r) => r.wallMs)) : Number.POSITIVE_INFINITY,
    's',
  ),
);
log(goal('watch: first page served (no cache)', watch?.firstMs, 2000, 's'));
log(goal('watch: footer edit -> reloaded page (median)', watch && median(watch.content), 300, 'ms'));

await writeSection(
  join(TOOL_ROOT, 'bench/RESULTS.md'),
  'scale',
  `## Scale (\`npm run bench:scale\`)\n\n${lines.join('\n')}\n`,
);
console.log('\nWrote the scale section of bench/RESULTS.md.');
// Every build is timed: the output folders can go now (see `cold`).
for (const dir of leftOutputs) await rm(dir, { recursive: true, force: true });
