// Runs Lighthouse (mobile preset: its default config) against a URL in Debian's Chromium; median of several runs.
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { median } from './stats.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LighthouseRun {
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  siMs: number;
  /** Lighthouse's measure of the CPU it had (higher is faster): a busy machine lowers it and raises TBT. */
  benchmarkIndex: number;
  /** Scored audits that did not get full marks: "performance/largest-contentful-paint 0.99 (1.7 s)". */
  shortfalls: string[];
}

export interface LighthouseResult extends Omit<LighthouseRun, 'shortfalls'> {
  runs: LighthouseRun[];
  /** Each audit that fell short in any run, with how many runs it did. */
  shortfalls: string[];
}

const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu'];

export async function lighthouseOnce(url: string, chromePath: string): Promise<LighthouseRun> {
  // A fresh browser per run, as the CLI does: no cache, no warmed-up state carried between runs.
  const chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned no report for ${url}.`);
    if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const value = (id: string) => {
      const v = lhr.audits[id]?.numericValue;
      if (typeof v !== 'number') throw new Error(`Lighthouse gave no ${id} for ${url}.`);
      return v;
    };
    const shortfalls: string[] = [];
    for (const category of Object.values(lhr.categories)) {
      for (const ref of category.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          shortfalls.push(`${category.id}/${ref.id} ${audit.score}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
        }
      }
    }
    return {
      scores: Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? Number.NaN) * 100)])) as Record<Category, number>,
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      siMs: value('speed-index'),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      shortfalls,
    };
  } finally {
    await chrome.kill();
  }
}

/** Each score and metric is the median of its own values across the runs. */
export function summarise(all: LighthouseRun[]): LighthouseResult {
  const runs = all.length;
  const m = (pick: (r: LighthouseRun) => number) => median(all.map(pick));
  const counts = new Map<string, number>();
  for (const run of all) for (const s of run.shortfalls) counts.set(s.replace(/ .*/, ''), (counts.get(s.replace(/ .*/, '')) ?? 0) + 1);
  return {
    scores: Object.fromEntries(CATEGORIES.map((c) => [c, m((r) => r.scores[c])])) as Record<Category, number>,
    fcpMs: m((r) => r.fcpMs),
    lcpMs: m((r) => r.lcpMs),
    tbtMs: m((r) => r.tbtMs),
    cls: m((r) => r.cls),
    siMs: m((r) => r.siMs),
    benchmarkIndex: m((r) => r.benchmarkIndex),
    runs: all,
    shortfalls: [...counts].map(([audit, n]) => `${audit} (${n}/${runs} runs)`),
  };
}
