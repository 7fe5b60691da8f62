// `npm run bench:lantern -- <url> [<url>...]`: what Lighthouse's simulated FCP and LCP are made of, for a page already
// served (e.g. `site-gen serve --port 4741`). Runs Lighthouse once (mobile preset) per URL, keeps its trace, and prints
// each node of Lantern's FCP and LCP graphs (requests, and CPU tasks with the events in them) with its simulated start
// and end in ms. Used for bench/ANALYSIS.md; not part of `npm run bench`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternLargestContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-largest-contentful-paint.js';
import { LanternTotalBlockingTime } from 'lighthouse/core/computed/metrics/lantern-total-blocking-time.js';
import { LanternInteractive } from 'lighthouse/core/computed/metrics/lantern-interactive.js';
import { loadArtifacts } from 'lighthouse/core/lib/asset-saver.js';

const CHROME = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface GraphNode {
  type: string;
  duration: number;
  request?: { url: string; priority: string; transferSize: number };
  childEvents?: { name: string; dur?: number }[];
  getDependencies?(): GraphNode[];
}
interface Estimate {
  timeInMs: number;
  nodeTimings: Map<GraphNode, { startTime: number; endTime: number }>;
}

function describe(node: GraphNode): string {
  if (node.request) {
    const { url, priority, transferSize } = node.request;
    return `request ${url.replace(/^https?:\/\/[^/]+/, '')} [${priority}] ${(transferSize / 1024).toFixed(1)} KB`;
  }
  const totals = new Map<string, number>();
  for (const e of node.childEvents ?? [])
    if ((e.dur ?? 0) > 500) totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur! / 1000);
  const events = [...totals].map(([name, ms]) => `${name} ${ms.toFixed(1)}`);
  const after = (node.getDependencies?.() ?? [])
    .filter((d) => d.request)
    .map((d) => d.request!.url.replace(/^https?:\/\/[^/]+/, ''));
  return `CPU task, ${(node.duration / 1000).toFixed(1)} ms observed: ${events.join(', ')}${after.length ? ` (after ${after.join(' ')})` : ''}`;
}

function print(name: string, estimate: Estimate): void {
  console.log(`  ${name}: ${estimate.timeInMs.toFixed(0)} ms`);
  const rows = [...estimate.nodeTimings].sort((a, b) => a[1].startTime - b[1].startTime);
  for (const [node, t] of rows)
    console.log(`    ${t.startTime.toFixed(0).padStart(5)}-${t.endTime.toFixed(0).padStart(5)}  ${describe(node)}`);
}

const urls = process.argv.slice(2);
if (urls.length === 0) {
  console.error('Give the URL of a served page, e.g. npm run bench:lantern -- http://127.0.0.1:4741/contact');
  process.exit(2);
}
for (const url of urls) {
  const dir = await mkdtemp(join(tmpdir(), 'site-gen-lantern-'));
  const chrome = await launch({
    chromePath: CHROME,
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'],
    logLevel: 'silent',
  });
  try {
    const flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      gatherMode: dir,
      auditMode: dir,
    };
    const lhr = (await lighthouse(url, flags as Parameters<typeof lighthouse>[1]))?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned no report for ${url}.`);
    const audit = (id: string) => lhr.audits[id]?.numericValue?.toFixed(0);
    console.log(
      `${url}: FCP ${audit('first-contentful-paint')} ms, LCP ${audit('largest-contentful-paint')} ms, CPU index ${lhr.environment.benchmarkIndex.toFixed(0)}`,
    );
    const observed =
      (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
    const lcpElement = JSON.stringify(lhr.audits['largest-contentful-paint-element']?.details ?? {}).match(
      /"selector":"([^"]+)"/,
    )?.[1];
    console.log(
      `  observed: FCP ${observed.observedFirstContentfulPaint} ms, LCP ${observed.observedLargestContentfulPaint} ms (${lcpElement}), load ${observed.observedLoad} ms`,
    );
    const artifacts = await loadArtifacts(dir);
    const settings = lhr.configSettings;
    const data = {
      trace: artifacts.Trace,
      devtoolsLog: artifacts.DevtoolsLog,
      gatherContext: artifacts.GatherContext,
      settings,
      URL: artifacts.URL,
      SourceMaps: [],
      simulator: null,
    };
    const context = { computedCache: new Map(), settings };
    const fcp = (await LanternFirstContentfulPaint.request(data as never, context as never)) as unknown as {
      optimisticEstimate: Estimate;
      pessimisticEstimate: Estimate;
    };
    const lcp = (await LanternLargestContentfulPaint.request(data as never, context as never)) as unknown as {
      optimisticEstimate: Estimate;
      pessimisticEstimate: Estimate;
    };
    print('FCP optimistic', fcp.optimisticEstimate);
    print('FCP pessimistic', fcp.pessimisticEstimate);
    print('LCP optimistic', lcp.optimisticEstimate);
    print('LCP pessimistic', lcp.pessimisticEstimate);
    const tti = (await LanternInteractive.request(data as never, context as never)) as unknown as {
      optimisticEstimate: Estimate;
      pessimisticEstimate: Estimate;
    };
    const tbt = (await LanternTotalBlockingTime.request(data as never, context as never)) as unknown as {
      timing: number;
      optimisticEstimate: Estimate;
      pessimisticEstimate: Estimate;
    };
    // TBT is the mean of two sums: simulated CPU tasks of 50 ms or more, clipped to [FCP, TTI], less 50 ms each.
    // The optimistic sum takes the pessimistic FCP and the optimistic TTI; the pessimistic one the other way round.
    const windows = {
      optimistic: [fcp.pessimisticEstimate.timeInMs, tti.optimisticEstimate.timeInMs],
      pessimistic: [fcp.optimisticEstimate.timeInMs, tti.pessimisticEstimate.timeInMs],
    } as const;
    console.log(`  TBT: ${tbt.timing.toFixed(1)} ms`);
    for (const kind of ['optimistic', 'pessimistic'] as const) {
      const [from, to] = windows[kind];
      console.log(
        `    ${kind}: ${tbt[`${kind}Estimate`].timeInMs.toFixed(1)} ms, window ${from.toFixed(0)}-${to.toFixed(0)} ms; CPU tasks of 30 ms or more simulated:`,
      );
      const rows = [...tbt[`${kind}Estimate`].nodeTimings].filter(
        ([node, t]) => node.type === 'cpu' && t.endTime - t.startTime >= Number(process.env.TASK_MS ?? 30),
      );
      for (const [node, t] of rows.sort((a, b) => a[1].startTime - b[1].startTime)) {
        console.log(`    ${t.startTime.toFixed(0).padStart(5)}-${t.endTime.toFixed(0).padStart(5)}  ${describe(node)}`);
      }
    }
  } finally {
    await chrome.kill();
    if (process.env.KEEP_ARTIFACTS) console.log(`  artifacts kept in ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}
