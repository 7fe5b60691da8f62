// Issue 23: code an island needs is requested on intent, its whole chunk graph at once (one round trip), rather
// than discovered import by import once the tap has come.
import { expect, test } from './fixtures.ts';

test("focus in the contact form requests its island's whole chunk graph at once, as modulepreloads", async ({
  page,
}) => {
  await page.goto('/contact');
  // The runtime has started (an idle behaviour is live), and with it the graph's fetch.
  await expect(page.locator('site-island[data-island="copyright-year"]')).toHaveAttribute('data-hydrated', '');
  const graph = await page.evaluate(async () => {
    const entry = document.querySelector<HTMLScriptElement>('script[data-entry]')!.dataset.entry!;
    return (await (await fetch(entry.replace(/\.js$/, '.preload.json'))).json()) as Record<string, string[]>;
  });
  const files = graph['contact-form'] ?? [];
  expect(
    files.some((file) => /\/contact-form-[\w-]+\.js$/.test(file)),
    'the island chunk',
  ).toBe(true);
  expect(
    files.some((file) => /\/hydrate-[\w-]+\.js$/.test(file)),
    "the runtime's hydrate code",
  ).toBe(true);
  expect(files.length, 'its static imports too (React among them)').toBeGreaterThan(3);

  await page.getByLabel('First Name', { exact: true }).focus();
  await expect(page.locator('site-island[data-island="contact-form"]')).toHaveAttribute('data-hydrated', '');
  const preloads = await page
    .locator('link[rel="modulepreload"]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(
    files.filter((file) => !preloads.includes(file)),
    'a modulepreload for every file of the graph',
  ).toEqual([]);
});
