// How site-gen scales with pages, on copies of this project grown from data (bench/lib/scale-site.ts): cold and
// unchanged builds of 100, 300 and 1,000 extra pages, this 3-page site cold, and `site-gen watch` on 1,000 pages
// (first page served, footer edit -> reloaded page, CSS edit -> swapped stylesheet, in Chromium).
// Writes its section of bench/RESULTS.md. Run: npm run bench:scale [-- --runs 3 --edits 20 --sizes 100,300,1000]
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright';
import { runBuild, type BuildRun, type BuildSummary } from '../bench/lib/build-times.ts';
import { currentLoad, describeMachine } from '../bench/lib/machine.ts';
import { scaleSite } from '../bench/lib/scale-site.ts';
import { median } from '../bench/lib/stats.ts';
import { replaceSection } from '../bench/lib/results-section.ts';
import { TOOL_ROOT } from '../test/helpers/watch-project.ts';

const { values: flags } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    edits: { type: 'string', default: '20' },
    sizes: { type: 'string', default: '100,300,1000' },
    port: { type: 'string', default: '4435' },
  },
});
const RUNS = Number(flags.runs);
const EDITS = Number(flags.edits);
const SIZES = flags.sizes.split(',').map(Number);
const WATCH_PAGES = Math.max(...SIZES);
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const cacheDir = join(TOOL_ROOT, 'node_modules/.cache/site-gen');

/** Linux's CPU pressure: the share of the last 10 s some task waited for a CPU (other sessions on the machine). */
async function pressure(): Promise<string> {
  const text = await readFile('/proc/pressure/cpu', 'utf8').catch(() => '');
  return /some avg10=([\d.]+)/.exec(text)?.[1] ? `${/some avg10=([\d.]+)/.exec(text)![1]}%` : 'unknown';
}

const load = async () => `load ${currentLoad()}, CPU pressure ${await pressure()}`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const pick = (runs: BuildRun[]) => ({
  wallMs: median(runs.map((r) => r.wallMs)),
  buildMs: median(runs.map((r) => r.buildMs)),
  cpuMs: median(runs.map((r) => r.cpuMs)),
  peakMB: Math.max(...runs.map((r) => r.peakMB)),
});

interface SizeResult {
  pages: number;
  cold: ReturnType<typeof pick>;
  warm: ReturnType<typeof pick>;
  times: Record<string, number>;
  load: string;
}

/** Cold (no site-gen cache, so no compiled tool either) then unchanged (caches kept) builds of `root`, `RUNS` times each. */
async function timeSite(root: string): Promise<{ cold: BuildRun[]; warm: BuildRun[]; summary: BuildSummary }> {
  const cold: BuildRun[] = [];
  const warm: BuildRun[] = [];
  let summary!: BuildSummary;
  const out = await mkdtemp(join(tmpdir(), 'site-gen-scale-out-'));
  for (let i = 0; i < RUNS; i += 1) {
    await rm(cacheDir, { recursive: true, force: true });
    const first = await runBuild(root, out);
    cold.push(first.run);
    summary = first.summary;
    warm.push((await runBuild(root, out)).run);
  }
  await rm(out, { recursive: true, force: true });
  return { cold, warm, summary };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function connected(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.siteGenReload === 'connected', undefined, {
    timeout: 60_000,
  });
}

/** Waits for the page to have loaded with `text` on it, by load events. */
async function reloadedWith(page: Page, text: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const next = page.waitForEvent('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    if (
      await page
        .evaluate((t) => document.readyState === 'complete' && document.body.textContent!.includes(t), text)
        .catch(() => false)
    )
      return;
    if (Date.now() > deadline) throw new Error(`The page did not reload with "${text}" within 60 s.`);
    await next;
  }
}

/** `site-gen watch` on the biggest site: first page served after start, then footer and CSS edits seen in Chromium. */
async function timeWatch(root: string, edit: (file: string, change: (text: string) => string) => Promise<void>) {
  const url = `http://127.0.0.1:${flags.port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [join(TOOL_ROOT, 'bin/site-gen.js'), 'watch', '--port', flags.port], {
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
    await connected(page);
    for (let i = 0; i < EDITS; i += 1) {
      const text = `Scale bench footer ${i}`;
      const saved = Date.now();
      await edit('content/copy.ts', (t) => t.replace(/tagline: '[^']*'/, `tagline: '${text}'`));
      await reloadedWith(page, text);
      content.push(
        (await page.evaluate(
          () =>
            performance.timeOrigin +
            (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
        )) - saved,
      );
      await connected(page);
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
        { polling: 'raf', timeout: 60_000 },
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
  const again = spawn(process.execPath, [join(TOOL_ROOT, 'bin/site-gen.js'), 'watch', '--port', flags.port], {
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
  const rebuilds = [...output.matchAll(/content\/copy\.ts: (.*) in (\d+) ms/g)].map((m) => `${m[1]} in ${m[2]} ms`);
  return { firstMs, secondMs, content, css, lastRebuild: rebuilds.at(-1) ?? 'none printed', output };
}

const machine = describeMachine(CHROMIUM);
const lines: string[] = [];
const log = (line: string) => {
  lines.push(line);
  console.log(line);
};

log(
  `Machine: ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGB} GB RAM; Node ${machine.node}. Run ${machine.date}; ${RUNS} runs per build (median; peak memory is the highest).`,
);
log('');
const own = await timeSite(TOOL_ROOT);
const ownCold = pick(own.cold);
log(
  `**This 3-page site**, cold: ${s(ownCold.wallMs)} wall clock (process start to exit), ${s(ownCold.buildMs)} build itself, ${s(ownCold.cpuMs)} CPU, peak ${ownCold.peakMB} MB (${await load()}).`,
);

const sizes: SizeResult[] = [];
for (const size of SIZES) {
  const project = await scaleSite(size);
  try {
    const { cold, warm, summary } = await timeSite(project.root);
    sizes.push({
      pages: summary.pages.length,
      cold: pick(cold),
      warm: pick(warm),
      times: summary.times ?? {},
      load: await load(),
    });
  } finally {
    await project.remove();
  }
}
await rm(cacheDir, { recursive: true, force: true });

log('');
log(
  '| pages | cold wall clock | cold build itself | cold CPU | peak memory | unchanged, wall clock | unchanged, build itself | unchanged CPU | machine |',
);
log('|--:|--:|--:|--:|--:|--:|--:|--:|:--|');
for (const r of sizes) {
  log(
    `| ${r.pages} | ${s(r.cold.wallMs)} | ${s(r.cold.buildMs)} | ${s(r.cold.cpuMs)} | ${r.cold.peakMB} MB | ${s(r.warm.wallMs)} | ${s(r.warm.buildMs)} | ${s(r.warm.cpuMs)} | ${r.load} |`,
  );
}
log('');
const perPage = sizes.slice(1).map((r, i) => {
  const previous = sizes[i]!;
  return `${previous.pages} -> ${r.pages}: ${((r.cold.buildMs - previous.cold.buildMs) / (r.pages - previous.pages)).toFixed(2)} ms`;
});
log(`Cost per added page (cold build itself): ${perPage.join('; ')}.`);
log('');
const biggest = sizes.at(-1)!;
log(
  `Steps of the cold ${biggest.pages}-page build (ms from each step's start to its end; steps overlap): ${Object.entries(
    biggest.times,
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.`,
);

log('');
log(
  `Per page of the cold ${biggest.pages}-page build (each step's ms divided by the pages; steps overlap: compression runs on a thread per core from the first script on, and the output folder is written while the last files are compressed): ${['render', 'critical', 'assemble', 'compress', 'write'].map((step) => `${step} ${((biggest.times[step] ?? 0) / biggest.pages).toFixed(2)} ms`).join(', ')}.`,
);

const project = await scaleSite(WATCH_PAGES);
try {
  await rm(cacheDir, { recursive: true, force: true });
  const watch = await timeWatch(project.root, (file, change) => project.edit(file, change));
  const stat = (values: number[]) =>
    `median ${Math.round(median(values))} ms (min ${Math.round(Math.min(...values))}, max ${Math.round(Math.max(...values))})`;
  log('');
  log(`**site-gen watch on ${WATCH_PAGES + 3} pages** (${await load()}):`);
  log(
    `- first page served ${s(watch.firstMs)} after the process started (no cache); ${s(watch.secondMs)} in a second session (script bundle kept by the first);`,
  );
  log(
    `- footer tagline edited in content/copy.ts (every page shows it) -> open page reloaded: ${stat(watch.content)}, ${EDITS} edits; the terminal's last line: "${watch.lastRebuild}";`,
  );
  log(`- CSS edit -> stylesheet swapped: ${stat(watch.css)}, ${EDITS} edits.`);
  const goal = (what: string, value: number, bar: number, unit = 's') =>
    `| ${what} | ${unit === 's' ? s(value) : `${Math.round(value)} ${unit}`} | ${unit === 's' ? s(bar) : `${bar} ${unit}`} | ${value <= bar ? 'met' : '**not met**'} |`;
  log('');
  log('| goal | measured | bar | |');
  log('|:--|--:|--:|:--|');
  log(goal(`cold build, ${biggest.pages} pages (wall clock)`, biggest.cold.wallMs, 5000));
  log(goal(`cold build, ${biggest.pages} pages (build itself)`, biggest.cold.buildMs, 5000));
  log(goal(`cold build, ${biggest.pages} pages (CPU, start-up included)`, biggest.cold.cpuMs, 5000));
  log(goal(`peak memory, ${biggest.pages} pages`, biggest.cold.peakMB, 1024, 'MB'));
  log(goal(`unchanged build, ${biggest.pages} pages (wall clock)`, biggest.warm.wallMs, 1500));
  log(goal(`unchanged build, ${biggest.pages} pages (build itself)`, biggest.warm.buildMs, 1500));
  log(goal(`unchanged build, ${biggest.pages} pages (CPU, start-up included)`, biggest.warm.cpuMs, 1500));
  log(goal('this 3-page site cold (wall clock)', ownCold.wallMs, 1500));
  log(goal('this 3-page site cold (build itself)', ownCold.buildMs, 1500));
  log(goal('watch: first page served (no cache)', watch.firstMs, 2000));
  log(goal('watch: first page served (second session)', watch.secondMs, 2000));
  log(goal('watch: footer edit -> reloaded page (median)', median(watch.content), 300, 'ms'));
  log(goal('watch: CSS edit -> swapped stylesheet (median)', median(watch.css), 150, 'ms'));
} finally {
  await project.remove();
}

const resultsFile = join(TOOL_ROOT, 'bench/RESULTS.md');
const previous = await readFile(resultsFile, 'utf8');
await writeFile(
  resultsFile,
  replaceSection(previous, 'scale', `## Scale (\`npm run bench:scale\`)\n\n${lines.join('\n')}\n`),
);
console.log('\nWrote the scale section of bench/RESULTS.md.');
