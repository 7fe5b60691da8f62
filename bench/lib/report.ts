// Turns bench results into the tables printed by `npm run bench` and the markdown of bench/RESULTS.md.
import type { BenchResults, PageResult, VariantResult } from './results.ts';
import { keepSections } from './results-section.ts';
import { kb, ratio, seconds } from './stats.ts';
import { toMarkdown, toText, type Table } from './table.ts';

const trio = (b: { raw: number; gzip: number; brotli: number }) => `${kb(b.raw)} / ${kb(b.gzip)} / ${kb(b.brotli)}`;

function buildTable(r: BenchResults): Table {
  const { cold, warm, runs } = r.build;
  return {
    title: `Build (median of ${runs}, fresh \`site-gen build\` process each)`,
    head: ['build', 'wall clock', 'build itself', 'CPU time', 'samples (wall, s)'],
    rows: [
      ['cold (no node_modules/.cache/site-gen: the tool compiled again)', seconds(cold.wallMs), seconds(cold.buildMs), seconds(cold.cpuMs), cold.samples.map((s) => (s.wallMs / 1000).toFixed(2)).join(' ')],
      ['warm (caches kept)', seconds(warm.wallMs), seconds(warm.buildMs), seconds(warm.cpuMs), warm.samples.map((s) => (s.wallMs / 1000).toFixed(2)).join(' ')],
    ],
    notes: [
      '"wall clock" includes Node start-up; "build itself" is the ms `site-gen build --json` reports;',
      '"CPU time" is the process\'s user + system time (esbuild\'s own process not included): steadier than wall clock when the machine is busy.',
    ],
  };
}

function bytesRow(variant: string, p: PageResult): string[] {
  return [
    `${p.path} ${variant}`,
    trio(p.html),
    kb(p.inlineCss.raw),
    kb(p.renderBlockingCss.brotli),
    kb(p.firstRenderBrotli),
    kb(p.js.atLoad.brotli),
    `${kb(p.js.total.raw)} / ${kb(p.js.total.brotli)}`,
    `${kb(p.js.pageOnly.raw)} / ${kb(p.js.pageOnly.brotli)}`,
    `${kb(p.js.shared.raw)} / ${kb(p.js.shared.brotli)}`,
  ];
}

function requestsRow(variant: string, p: PageResult): string[] {
  const b = p.requests.browser;
  const blocking = [...new Set([...p.requests.staticRenderBlocking, ...b.renderBlocking])];
  return [`${p.path} ${variant}`, String(p.requests.static), String(b.requests), String(b.beforeFirstPaint), kb(b.transferBytes), blocking.length ? blocking.join(' ') : 'none'];
}

/** Each page of site-gen, followed by the same page of the client-only app. */
function pairedRows(r: BenchResults, row: (variant: string, p: PageResult) => string[]): string[][] {
  const rows: string[][] = [];
  for (const page of r.variants['site-gen'].pages) {
    rows.push(row('site-gen', page));
    const other = r.variants['client-only'].pages.find((p) => p.path === page.path);
    if (other) rows.push(row('client-only', other));
  }
  return rows;
}

function bytesTable(r: BenchResults): Table {
  return {
    title: 'Per page: bytes (KB; brotli 11, gzip 9)',
    head: ['page', 'HTML+inline CSS raw/gz/br', 'inline CSS raw', 'blocking CSS br', 'first render br', 'initial JS br', 'JS raw/br', 'JS page-only raw/br', 'JS shared raw/br'],
    rows: pairedRows(r, bytesRow),
    notes: [
      'first render br: HTML + render-blocking CSS, plus for the client-only app the JS that renders the content.',
      'initial JS br: what the page fetches before any interaction: module scripts, modulepreloads and their static imports; for site-gen the runtime entry its inline script imports after the load event and first paint, and the entry\'s static imports (not React, not the islands).',
      'JS: all the page can load without interaction (initial, and island chunks and React loaded later); "shared" = also loaded by another page.',
    ],
  };
}

function requestsTable(r: BenchResults): Table {
  return {
    title: `Per page: requests (Chromium, mobile viewport, empty cache, median of ${r.settings.loadRuns} loads)`,
    head: ['page', 'static', 'to load event', 'before FCP', 'KB to load', 'render-blocking'],
    rows: pairedRows(r, requestsRow),
    notes: [
      'static: the HTML and what it references (stylesheets, scripts, module preloads, eager images) plus static JS imports.',
      'to load event: Playwright request events up to the load event (document included); KB = bytes on the wire.',
      'before FCP: requests that started before first contentful paint (Resource Timing), document included.',
      'render-blocking: by Chromium (Resource Timing renderBlockingStatus) and by reading the HTML.',
    ],
  };
}

function lighthouseTable(r: BenchResults): Table {
  const rows: string[][] = [];
  const paths = r.settings.lighthousePaths;
  for (const path of paths) {
    for (const v of [r.variants['site-gen'], r.variants['client-only']]) {
      const l = v.lighthouse[path];
      if (!l) continue;
      rows.push([`${path} ${v.name}`, String(l.scores.performance), String(l.scores.accessibility), String(l.scores['best-practices']), String(l.scores.seo), seconds(l.fcpMs), seconds(l.lcpMs), `${Math.round(l.tbtMs)} ms`, l.cls.toFixed(3), seconds(l.siMs), String(Math.round(l.benchmarkIndex))]);
    }
  }
  return {
    title: `Lighthouse ${r.machine.lighthouse}, mobile preset (simulated throttling), median of ${r.settings.lighthouseRuns} runs`,
    head: ['page', 'perf', 'a11y', 'best pr.', 'SEO', 'FCP', 'LCP', 'TBT', 'CLS', 'Speed Index', 'CPU index'],
    rows,
    notes: ['CPU index: Lighthouse\'s benchmarkIndex during the runs (higher is faster); other work on the machine lowers it and raises TBT.'],
  };
}

function comparisonTable(r: BenchResults): Table {
  const ours = r.variants['site-gen'];
  const theirs = r.variants['client-only'];
  const rows: string[][] = [];
  for (const page of ours.pages) {
    const other = theirs.pages.find((p) => p.path === page.path);
    if (!other) continue;
    const l = ours.lighthouse[page.path];
    const lo = theirs.lighthouse[page.path];
    rows.push([
      page.path,
      ratio(other.firstRenderBrotli, page.firstRenderBrotli),
      ratio(other.js.total.brotli, page.js.total.brotli),
      ratio(other.requests.browser.beforeFirstPaint, page.requests.browser.beforeFirstPaint),
      l && lo ? ratio(lo.fcpMs, l.fcpMs) : '-',
      l && lo ? ratio(lo.lcpMs, l.lcpMs) : '-',
      l && lo ? ratio(lo.siMs, l.siMs) : '-',
      l && lo ? `${Math.round(l.tbtMs)} vs ${Math.round(lo.tbtMs)} ms` : '-',
    ]);
  }
  return {
    title: 'Client-only React app / site-gen (how many times more; >1x means site-gen is ahead)',
    head: ['page', 'first render br', 'JS br', 'req before FCP', 'FCP', 'LCP', 'Speed Index', 'TBT (ours vs theirs)'],
    rows,
  };
}

function targetsTable(r: BenchResults): Table {
  return {
    title: 'Targets (goals, not CI failures)',
    head: ['target', 'page', 'site-gen', 'met', 'client-only'],
    rows: r.targets.map((t) => [t.target, t.path, t.value, t.met ? 'yes' : 'NO', t.clientOnly ?? '-']),
  };
}

export function tables(r: BenchResults): Table[] {
  return [buildTable(r), bytesTable(r), requestsTable(r), ...(r.settings.lighthousePaths.length ? [lighthouseTable(r), comparisonTable(r)] : [comparisonTable(r)]), targetsTable(r)];
}

function machineLine(r: BenchResults): string {
  const m = r.machine;
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGB} GB RAM, ${m.os}; Node ${m.node}; ${m.chromium}; Lighthouse ${m.lighthouse}. Load average ${m.loadAverage.start} at start, ${m.loadAverage.end ?? '?'} at end (other work on the machine skews timings). Run ${m.date}${r.settings.durationS ? ` (took ${Math.round(r.settings.durationS)} s)` : ''}.`;
}

export function textReport(r: BenchResults): string {
  return [`Machine: ${machineLine(r)}`, '', ...tables(r).map(toText)].join('\n');
}

function shortfalls(v: VariantResult): string[] {
  return Object.entries(v.lighthouse).map(([path, l]) => `- \`${path}\` ${v.name}: ${l.shortfalls.length ? l.shortfalls.join(', ') : 'none'}`);
}

/**
 * bench/RESULTS.md as `npm run bench` writes it: its report of `results`, then `analysis` (bench/ANALYSIS.md), then
 * the other benches' sections as `previous` has them. Nothing else of `previous` is kept: text written into the file by
 * hand belongs in bench/ANALYSIS.md.
 */
export function resultsMarkdown(results: BenchResults, analysis: string | undefined, previous: string): string {
  return keepSections(previous, markdownReport(results, analysis));
}

/** The report as Markdown; `analysis` (bench/ANALYSIS.md, written by hand) is appended as it is. */
export function markdownReport(r: BenchResults, analysis?: string): string {
  return [
    '# site-gen bench results',
    '',
    'Generated by `npm run bench` (scripts/bench.ts); regenerated on every run, do not edit by hand. Raw figures: `bench/results.json`.',
    '',
    `Machine: ${machineLine(r)}`,
    '',
    '**site-gen**: ' + r.variants['site-gen'].description,
    '',
    '**client-only**: ' + r.variants['client-only'].description,
    '',
    ...tables(r).map(toMarkdown),
    '### Lighthouse audits that fell short',
    '',
    ...shortfalls(r.variants['site-gen']),
    ...shortfalls(r.variants['client-only']),
    '',
    '### Requests up to the load event (one typical load)',
    '',
    ...[r.variants['site-gen'], r.variants['client-only']].flatMap((v) => v.pages.map((p) => `- \`${p.path}\` ${v.name}: ${p.requests.browser.log.join(', ')}`)),
    '',
    ...(analysis ? [analysis.trim(), ''] : []),
  ].join('\n');
}
