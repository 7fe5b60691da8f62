// `npm run bench`: measures the built site against the same pages as a client-only React app; writes
// bench/results.json and bench/RESULTS.md and prints the tables. Options: --build-runs N (5), --lighthouse-runs N (3),
// --load-runs N (3), --skip-lighthouse.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, measureLoad } from '../bench/lib/browser-load.ts';
import { timeBuilds } from '../bench/lib/build-times.ts';
import { buildClientOnly } from '../bench/lib/client-only.ts';
import { lighthouseOnce, summarise, type LighthouseRun } from '../bench/lib/lighthouse.ts';
import { currentLoad, describeMachine } from '../bench/lib/machine.ts';
import { writeResults } from '../bench/lib/results-section.ts';
import { splitJs, weighPage } from '../bench/lib/page-weight.ts';
import { resultsMarkdown, textReport } from '../bench/lib/report.ts';
import {
  checkTargets,
  type BenchResults,
  type PageResult,
  type VariantName,
  type VariantResult,
} from '../bench/lib/results.ts';
import { serve, type Served } from '../bench/lib/serve.ts';

const root = resolve(import.meta.dirname, '..');
const benchDir = join(root, 'bench');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE_PATHS = ['/', '/contact'];

function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number of at least 1; got "${value}".`);
    process.exit(2);
  }
  return n;
}

const { values: flags } = parseArgs({
  options: {
    'build-runs': { type: 'string' },
    'lighthouse-runs': { type: 'string' },
    'load-runs': { type: 'string' },
    'skip-lighthouse': { type: 'boolean', default: false },
    'report-only': { type: 'boolean', default: false },
  },
});
const settings = {
  buildRuns: count('build-runs', flags['build-runs'], 5),
  lighthouseRuns: count('lighthouse-runs', flags['lighthouse-runs'], 3),
  loadRuns: count('load-runs', flags['load-runs'], 3),
};

const step = (text: string) => process.stderr.write(`bench: ${text}\n`);

/** Sizes and static requests of every page of one output folder. */
async function weighVariant(
  out: string,
  pages: Array<{ path: string; file: string }>,
  rendersInBrowser: boolean,
): Promise<PageResult[]> {
  const weights = await Promise.all(pages.map((p) => weighPage(out, p)));
  const js = await splitJs(out, weights);
  return weights.map((w) => {
    const blocking = w.stylesheets.filter((s) => s.renderBlocking);
    const renderBlockingCss = blocking.reduce(
      (a, s) => ({ raw: a.raw + s.bytes.raw, gzip: a.gzip + s.bytes.gzip, brotli: a.brotli + s.bytes.brotli }),
      { raw: 0, gzip: 0, brotli: 0 },
    );
    const split = js.get(w.path)!;
    return {
      path: w.path,
      file: w.file,
      html: w.html,
      inlineCss: w.inlineCss,
      renderBlockingCss,
      firstRenderBrotli: w.html.brotli + renderBlockingCss.brotli + (rendersInBrowser ? split.atLoad.brotli : 0),
      js: split,
      requests: {
        static: w.requests.length,
        staticList: w.requests,
        staticRenderBlocking: w.requests.filter((r) => r.renderBlocking).map((r) => r.url),
        browser: { requests: 0, beforeFirstPaint: 0, transferBytes: 0, renderBlocking: [], fcpMs: 0, log: [] },
      },
    };
  });
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = describeMachine(CHROME);
  const outs: Record<VariantName, string> = {
    'site-gen': join(benchDir, 'tmp/site-gen'),
    'client-only': join(benchDir, 'tmp/client-only'),
  };

  step(`timing ${settings.buildRuns} cold and ${settings.buildRuns} warm builds...`);
  const build = await timeBuilds({ root, out: outs['site-gen'], runs: settings.buildRuns });
  step('building the client-only app...');
  const clientOnly = await buildClientOnly({ config: join(root, 'site.config.ts'), out: outs['client-only'] });

  step('weighing pages...');
  const variants: Record<VariantName, VariantResult> = {
    'site-gen': {
      name: 'site-gen',
      description:
        'the site as built: static HTML with inline critical CSS; the full stylesheet and the web fonts after the first contentful paint; an inline script that holds input and imports the island runtime after the load event and first paint; React and island code when needed.',
      out: outs['site-gen'],
      pages: await weighVariant(outs['site-gen'], build.summary.pages, false),
      lighthouse: {},
    },
    'client-only': {
      name: 'client-only',
      description:
        'the same page components rendered in the browser with createRoot: an HTML shell with an empty `<div id="root">`, one esbuild bundle (React, components, content as data), the same stylesheet as a plain `<link rel="stylesheet">` (bench/client/entry.tsx).',
      out: outs['client-only'],
      pages: await weighVariant(outs['client-only'], clientOnly.pages, true),
      lighthouse: {},
    },
  };

  const servers: Partial<Record<VariantName, Served>> = {};
  const browser = await launchChromium(CHROME);
  try {
    for (const name of ['site-gen', 'client-only'] as const) servers[name] = await serve(root, variants[name].out);
    step(`loading each page ${settings.loadRuns} times in Chromium...`);
    for (const name of ['site-gen', 'client-only'] as const) {
      for (const page of variants[name].pages)
        page.requests.browser = await measureLoad(browser, servers[name]!.url + page.path, settings.loadRuns);
    }
    await browser.close();
    if (!flags['skip-lighthouse']) {
      const paths = LIGHTHOUSE_PATHS.filter((p) => variants['site-gen'].pages.some((page) => page.path === p));
      const runs = new Map<string, LighthouseRun[]>();
      // Round-robin, so a busy spell on the machine does not land on one variant's runs only.
      for (let i = 1; i <= settings.lighthouseRuns; i++) {
        for (const path of paths) {
          for (const name of ['site-gen', 'client-only'] as const) {
            step(`Lighthouse run ${i}/${settings.lighthouseRuns}: ${name} ${path}`);
            const key = `${name} ${path}`;
            runs.set(key, [...(runs.get(key) ?? []), await lighthouseOnce(servers[name]!.url + path, CHROME)]);
          }
        }
      }
      for (const path of paths)
        for (const name of ['site-gen', 'client-only'] as const)
          variants[name].lighthouse[path] = summarise(runs.get(`${name} ${path}`)!);
    }
  } finally {
    await browser.close().catch(() => undefined);
    for (const server of Object.values(servers)) await server?.stop();
  }

  machine.loadAverage.end = currentLoad();
  const results: BenchResults = {
    machine,
    settings: {
      ...settings,
      lighthousePaths: Object.keys(variants['site-gen'].lighthouse),
      durationS: Math.round((performance.now() - started) / 100) / 10,
    },
    build,
    variants,
    targets: checkTargets(variants['site-gen'], variants['client-only']),
  };
  await mkdir(benchDir, { recursive: true });
  await writeFile(join(benchDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  await writeReport(results);
  process.stdout.write(
    `\n${textReport(results)}\nWrote bench/results.json and bench/RESULTS.md in ${results.settings.durationS} s.\n`,
  );
}

/** bench/RESULTS.md from `results`, bench/ANALYSIS.md and the other benches' sections (see resultsMarkdown). */
async function writeReport(results: BenchResults): Promise<void> {
  const previous = await readFile(join(benchDir, 'RESULTS.md'), 'utf8').catch(() => '');
  const analysis = await readFile(join(benchDir, 'ANALYSIS.md'), 'utf8').catch(() => undefined);
  await writeResults(join(benchDir, 'RESULTS.md'), resultsMarkdown(results, analysis, previous));
}

/** `--report-only`: bench/RESULTS.md written again from the last run's bench/results.json, after an edit of ANALYSIS.md. */
async function reportOnly(): Promise<void> {
  const file = join(benchDir, 'results.json');
  const text = await readFile(file, 'utf8').catch(() => {
    throw new Error(`${file} is missing: run \`npm run bench\` once (without --report-only) to measure.`);
  });
  await writeReport(JSON.parse(text) as BenchResults);
  process.stdout.write('Wrote bench/RESULTS.md from bench/results.json and bench/ANALYSIS.md (nothing measured).\n');
}

(flags['report-only'] ? reportOnly() : main()).catch((error: unknown) => {
  console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
