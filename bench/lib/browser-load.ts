// Loads a page in Chromium (Playwright) the way a phone would and records what it fetched: every request up to the
// load event, those that started before first contentful paint, and those Chromium marks render-blocking.
import { chromium, type Browser } from 'playwright';
import { median } from './stats.ts';

export interface BrowserLoad {
  /** Requests sent before the load event, the document included. */
  requests: number;
  /** Requests that started before first contentful paint, the document included. */
  beforeFirstPaint: number;
  /** Bytes over the wire (headers + encoded bodies) up to the load event. */
  transferBytes: number;
  /** URLs Chromium's Resource Timing reports as render-blocking. */
  renderBlocking: string[];
  /** Unthrottled, on this machine: only a sanity check, Lighthouse gives the throttled figures. */
  fcpMs: number;
  /** The requests of the median run, in order: type and path. */
  log: string[];
}

// Lighthouse's mobile screen (Moto G Power): the same viewport for both measurements.
const MOBILE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
}

async function loadOnce(browser: Browser, url: string): Promise<BrowserLoad> {
  const context = await browser.newContext(MOBILE);
  try {
    const page = await context.newPage();
    const seen: Array<{ request: import('playwright').Request; path: string; type: string }> = [];
    let loaded = false;
    page.on('load', () => (loaded = true));
    page.on('request', (request) => {
      if (!loaded) seen.push({ request, path: new URL(request.url()).pathname, type: request.resourceType() });
    });
    await page.goto(url, { waitUntil: 'load' });
    // A client-rendered page may paint after the load event: wait for its first contentful paint.
    await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, undefined, { timeout: 15_000 });
    const timing = await page.evaluate(() => ({
      fcp: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
      resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => ({
        name: e.name,
        start: e.startTime,
        blocking: (e as PerformanceResourceTiming & { renderBlockingStatus?: string }).renderBlockingStatus === 'blocking',
      })),
    }));
    let transferBytes = 0;
    for (const { request } of seen) {
      const sizes = await request.sizes().catch(() => undefined);
      if (sizes) transferBytes += sizes.responseHeadersSize + sizes.responseBodySize;
    }
    return {
      requests: seen.length,
      beforeFirstPaint: 1 + timing.resources.filter((r) => r.start < timing.fcp).length,
      transferBytes,
      renderBlocking: timing.resources.filter((r) => r.blocking).map((r) => new URL(r.name).pathname),
      fcpMs: timing.fcp,
      log: seen.map((s) => `${s.type} ${s.path}`),
    };
  } finally {
    await context.close();
  }
}

/** Loads the page `runs` times, each in a fresh context (empty cache); counts and bytes are medians. */
export async function measureLoad(browser: Browser, url: string, runs: number): Promise<BrowserLoad> {
  const results: BrowserLoad[] = [];
  for (let i = 0; i < runs; i++) results.push(await loadOnce(browser, url));
  const requests = median(results.map((r) => r.requests));
  const typical = results.find((r) => r.requests === requests) ?? results[0]!;
  return {
    requests,
    beforeFirstPaint: median(results.map((r) => r.beforeFirstPaint)),
    transferBytes: median(results.map((r) => r.transferBytes)),
    renderBlocking: typical.renderBlocking,
    fcpMs: median(results.map((r) => r.fcpMs)),
    log: typical.log,
  };
}
