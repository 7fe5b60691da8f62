// The shape of bench/results.json, and how the results are judged against the targets of issues 7 and 11.
import type { BrowserLoad } from './browser-load.ts';
import type { BuildTimes } from './build-times.ts';
import type { LighthouseResult } from './lighthouse.ts';
import type { Machine } from './machine.ts';
import type { Bytes, JsSplit, StaticRequest } from './page-weight.ts';

export type VariantName = 'site-gen' | 'client-only';

export interface PageResult {
  path: string;
  file: string;
  /** The document as sent, inline critical CSS and inline scripts included. */
  html: Bytes;
  inlineCss: Bytes;
  /** Stylesheets that hold back first paint (brotli bytes summed). */
  renderBlockingCss: Bytes;
  /**
   * Brotli bytes the browser needs before it can paint the page's content: the HTML, render-blocking CSS and, for a
   * client-rendered page, the JS that produces the content.
   */
  firstRenderBrotli: number;
  js: JsSplit;
  requests: {
    /** HTML plus what it references (stylesheets, scripts, module preloads, eager images) and their static imports. */
    static: number;
    staticList: StaticRequest[];
    staticRenderBlocking: string[];
    browser: BrowserLoad;
  };
}

export interface VariantResult {
  name: VariantName;
  description: string;
  out: string;
  pages: PageResult[];
  /** By path; only the pages Lighthouse measured. */
  lighthouse: Record<string, LighthouseResult>;
}

export interface TargetCheck {
  target: string;
  path: string;
  value: string;
  met: boolean;
  /** The client-only app's value, for contrast. */
  clientOnly?: string;
}

export interface BenchResults {
  machine: Machine;
  settings: { buildRuns: number; lighthouseRuns: number; loadRuns: number; lighthousePaths: string[]; durationS?: number };
  build: BuildTimes;
  variants: Record<VariantName, VariantResult>;
  targets: TargetCheck[];
}

export const TARGETS = {
  /** Issue 11: at least as fast as Astro's build of the same page (0.77 s). */
  fcpMs: 800,
  lcpMs: 800,
  /** Issue 11: JavaScript fetched before any interaction, brotli; the not-found page has nothing worth more. */
  initialJsBrotli: 20 * 1024,
  initialJsBrotli404: 2 * 1024,
  tbtMs: 0,
  cls: 0,
  firstRenderBrotli: 14 * 1024,
};

const fmtScores = (l: LighthouseResult) => `${l.scores.performance}/${l.scores.accessibility}/${l.scores['best-practices']}/${l.scores.seo}`;

export function checkTargets(ours: VariantResult, theirs: VariantResult | undefined): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const other = (path: string) => theirs?.pages.find((p) => p.path === path);
  for (const [path, lh] of Object.entries(ours.lighthouse)) {
    const them = theirs?.lighthouse[path];
    checks.push({ target: 'Lighthouse 100 in all four categories (perf/a11y/best practices/SEO)', path, value: fmtScores(lh), met: Object.values(lh.scores).every((s) => s === 100), clientOnly: them && fmtScores(them) });
    checks.push({ target: `FCP <= ${TARGETS.fcpMs / 1000} s (mobile)`, path, value: `${(lh.fcpMs / 1000).toFixed(2)} s`, met: lh.fcpMs <= TARGETS.fcpMs, clientOnly: them && `${(them.fcpMs / 1000).toFixed(2)} s` });
    checks.push({ target: `LCP <= ${TARGETS.lcpMs / 1000} s (mobile)`, path, value: `${(lh.lcpMs / 1000).toFixed(2)} s`, met: lh.lcpMs <= TARGETS.lcpMs, clientOnly: them && `${(them.lcpMs / 1000).toFixed(2)} s` });
    checks.push({ target: 'TBT 0 ms (mobile)', path, value: `${Math.round(lh.tbtMs)} ms`, met: lh.tbtMs <= TARGETS.tbtMs, clientOnly: them && `${Math.round(them.tbtMs)} ms` });
    checks.push({ target: 'CLS 0', path, value: lh.cls.toFixed(3), met: lh.cls <= TARGETS.cls, clientOnly: them?.cls.toFixed(3) });
  }
  for (const page of ours.pages) {
    const them = other(page.path);
    checks.push({
      target: 'HTML + critical CSS < 14 KB brotli (bytes before first paint)',
      path: page.path,
      value: `${(page.firstRenderBrotli / 1024).toFixed(1)} KB`,
      met: page.firstRenderBrotli < TARGETS.firstRenderBrotli,
      clientOnly: them && `${(them.firstRenderBrotli / 1024).toFixed(1)} KB`,
    });
    const jsLimit = page.path === '/404' ? TARGETS.initialJsBrotli404 : TARGETS.initialJsBrotli;
    checks.push({
      target: `Initial JS <= ${jsLimit / 1024} KB brotli (before any interaction)`,
      path: page.path,
      value: `${(page.js.atLoad.brotli / 1024).toFixed(1)} KB`,
      met: page.js.atLoad.brotli <= jsLimit,
      clientOnly: them && `${(them.js.atLoad.brotli / 1024).toFixed(1)} KB`,
    });
    const blocking = [...new Set([...page.requests.staticRenderBlocking, ...page.requests.browser.renderBlocking])];
    const theirBlocking = them && [...new Set([...them.requests.staticRenderBlocking, ...them.requests.browser.renderBlocking])];
    checks.push({
      target: 'No render-blocking request',
      path: page.path,
      value: blocking.length ? blocking.join(', ') : 'none',
      met: blocking.length === 0,
      clientOnly: theirBlocking && (theirBlocking.length ? theirBlocking.join(', ') : 'none'),
    });
  }
  return checks;
}
