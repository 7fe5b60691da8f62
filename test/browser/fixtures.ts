// The `test` every browser spec uses: it fails a test on any console error or warning, page error or CSP violation.
import { test as base, expect, type Locator, type Page } from '@playwright/test';

export interface PageProblems {
  /** Console messages of type error or warning, page errors and CSP violations, as text. */
  list: string[];
  /** Messages a test expects (e.g. the 404 page's console.error); matched ones are not problems. */
  allow(pattern: RegExp): void;
}

export const test = base.extend<{ problems: PageProblems }>({
  problems: [
    async ({ page }, use) => {
      const list: string[] = [];
      const allowed: RegExp[] = [];
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`,
          );
        });
      });
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning')
          list.push(`console.${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => list.push(`page error: ${error.message}`));
      await use({ list, allow: (pattern) => allowed.push(pattern) });
      const unexpected = list.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, 'no console errors or warnings, page errors or CSP violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Where the full stylesheet is: not loaded yet, loaded (preloaded, or added print-only) but not applied, or applied
 * (link#site-css for all media, its sheet parsed).
 */
export function stylesheetState(page: Page): Promise<'not loaded' | 'loaded' | 'applied'> {
  return page.evaluate(() => {
    const link = document.getElementById('site-css') as HTMLLinkElement | null;
    if (link?.sheet && link.media !== 'print') return 'applied';
    const href = document.querySelector<HTMLScriptElement>('script[data-href]')!.dataset.href!;
    const fetched = performance
      .getEntriesByName(new URL(href, location.href).href)
      .some((entry) => (entry as PerformanceResourceTiming).responseEnd > 0);
    return fetched ? 'loaded' : 'not loaded';
  });
}

/** Waits for the page's next two rendered frames: what a change of style or layout paints is on screen after them. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * The full stylesheet applied and the web fonts in: nothing on the page is laid out again after this (the swap can
 * move a text by a pixel, and the browser's scroll anchoring the page with it). Below the first screen, the page is
 * styled only by the full stylesheet: measure or point at anything there after this.
 */
export async function settled(page: Page): Promise<void> {
  await expect.poll(() => stylesheetState(page)).toBe('applied');
  await page.evaluate(() => document.fonts.ready);
}

/**
 * Scrolls `target` to the middle of the window at once and waits until its box has stood still for five frames. A
 * jump lands in sections that were not rendered (content-visibility: auto): in the next frames they render at their
 * real height, and one partly in view that differs from its estimate moves what lies below it, the target included,
 * by that difference. Point at or measure the target after this.
 */
export async function scrolledTo(target: Locator): Promise<void> {
  await target.evaluate((element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
  await target.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        let last = '';
        let still = 0;
        const frame = () => {
          const box = element.getBoundingClientRect();
          const now = [box.x, box.y, box.width, box.height].join();
          still = now === last ? still + 1 : 0;
          last = now;
          if (still >= 5) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

/**
 * Waits until the island holding `locator` is live: the runtime marks it `data-hydrated` (`''`). Until then the poll
 * reads what the page shows of it, so a timeout says whether the runtime started, where the island's markup is
 * against the window, and which scripts had loaded.
 */
export async function islandLive(locator: Locator): Promise<void> {
  await expect
    .poll(
      () =>
        locator.evaluate((el) => {
          const state = el.closest('site-island')?.getAttribute('data-hydrated');
          if (state != null) return state;
          const box = el.getBoundingClientRect();
          const scripts = performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.endsWith('.js'))
            .map((entry) => entry.name.split('/').pop());
          return `not live: runtime ${window.siteGenCapture?.onHold ? 'started' : 'not started'}, box ${Math.round(box.top)}..${Math.round(box.bottom)} of ${innerHeight}, scripts loaded: ${scripts.join(' ') || 'none'}`;
        }),
      { message: 'the island goes live' },
    )
    .toBe('');
}

/**
 * Waits for running CSS transitions (a toast sliding in, an element fading in as it is scrolled to) to end; endless
 * animations are not waited for, nor transitions inside content the browser skips (content-visibility: auto off
 * screen), which stay paused until it is rendered again (e.g. a section below the first screen that began one when
 * the full stylesheet applied).
 */
export async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a instanceof CSSTransition)
        .filter((a) => {
          const target = (a.effect as KeyframeEffect | null)?.target;
          return !target || target.checkVisibility({ contentVisibilityAuto: true });
        })
        .map((a) => a.finished),
    ),
  );
}

/** Opens a page with the stored theme set, as a returning visitor who chose it would have. */
export async function gotoWithTheme(page: Page, path: string, theme: 'light' | 'dark' | 'system'): Promise<void> {
  await page.addInitScript((t) => localStorage.setItem('vite-ui-theme', t), theme);
  await page.goto(path);
}
