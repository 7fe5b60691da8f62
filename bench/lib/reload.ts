// What the watch benches wait for in the browser: the reload client connected, and a page reloaded with a text.
import type { Page } from 'playwright';

/** Waits until the page's reload client is connected, so the next edit's event cannot be missed. */
export async function connected(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.siteGenReload === 'connected', undefined, {
    timeout: timeoutMs,
  });
}

/** Waits for the page to finish loading with `text` on it: load events, not polling, which would compete for the CPU. */
export async function reloadedWith(page: Page, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Listening before looking, so a load between the two is not missed.
    const next = page.waitForEvent('load', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    if (
      await page
        .evaluate((t) => document.readyState === 'complete' && document.body.textContent!.includes(t), text)
        .catch(() => false)
    )
      return;
    if (Date.now() > deadline) throw new Error(`The page did not reload with "${text}" within ${timeoutMs / 1000} s.`);
    await next;
  }
}
