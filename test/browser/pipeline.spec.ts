// The pipeline on its fixture site: islands hydrate by strategy, share state, survive hostile props, fail in place.
import { expect, test } from './fixtures.ts';

test('islands hydrate and share state through signals', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Add one' }).click();
  await page.getByRole('button', { name: 'Add one' }).click();
  await expect(page.getByText('Clicks: 2')).toBeVisible();
});

test('a prop containing </script> does not break out of the page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Add one' })).toHaveAttribute(
    'data-tricky',
    /^<\/script><script>window.__pwned=1<\/script><!-- "quoted"/,
  );
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('a media island hydrates only once its query matches', async ({ page }) => {
  await page.setViewportSize({ width: 500, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Add one' }).click();
  await expect(page.getByText('Clicks: 1')).toBeVisible();
  await expect(page.getByText('Wide note static')).toBeVisible();
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(page.getByText('Wide note hydrated')).toBeVisible();
});

test("an island that throws in the browser shows site-gen's neutral error screen in its place (the fixture has none of its own); the page keeps working", async ({
  page,
  problems,
}) => {
  problems.allow(/Island "broken" failed to render/);
  problems.allow(/behaviour "failing" failed/);
  await page.goto('/contact');
  await expect(
    page.getByRole('alert').getByRole('heading', { name: 'This part of the page could not be shown' }),
  ).toBeVisible();
  await expect(page.getByText('Unexpected Application Error!')).toHaveCount(0);
  await expect(page.getByText('The broken island failed on purpose').first()).toBeVisible();
  await page.getByLabel('Name').fill('still works');
  await expect(page.getByLabel('Name')).toHaveValue('still works');
});

test('a behaviour runs its plain DOM code on its server markup; a press made before it is live acts once, when it is', async ({
  page,
}) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/chunks\/details-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/');
  const behaviour = page.locator('site-island[data-island="details"]');
  await expect(behaviour).toHaveAttribute('data-behaviour', '');
  await page.getByRole('button', { name: 'Show details' }).click();
  await expect(page.getByText('Details shown')).toBeHidden();
  release();
  await expect(behaviour).toHaveAttribute('data-hydrated', '');
  await expect(page.getByText('Details shown (1)'), 'the held press, replayed once').toBeVisible();
  await page.getByRole('button', { name: 'Show details' }).click();
  await expect(page.getByText('Details shown (2)')).toBeVisible();
});

test('a behaviour that throws is marked failed and logged; its markup and the page stay', async ({
  page,
  problems,
}) => {
  problems.allow(/Island "broken" failed to render/);
  problems.allow(/site-gen: behaviour "failing" failed: Error: The failing behaviour failed on purpose/);
  const logged: string[] = [];
  page.on('console', (message) => logged.push(message.text()));
  await page.goto('/contact');
  await expect(page.locator('site-island[data-island="failing"]')).toHaveAttribute('data-hydrated', 'failed');
  expect(logged.some((text) => text.includes('site-gen: behaviour "failing" failed'))).toBe(true);
  await expect(page.getByText('Failing behaviour, server-rendered')).toBeVisible();
  await page.getByLabel('Name').fill('still works');
  await expect(page.getByLabel('Name')).toHaveValue('still works');
});

test('a page without islands requests no JavaScript', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await page.goto('/static');
  await expect(page.getByRole('heading', { name: 'No islands here' })).toBeVisible();
  expect(scripts).toEqual([]);
});

test('routes answer like a static host', async ({ page, problems }) => {
  problems.allow(/Island "broken" failed to render/);
  problems.allow(/behaviour "failing" failed/);
  problems.allow(/Failed to load resource: the server responded with a status of 404/);
  expect((await page.goto('/'))!.status()).toBe(200);
  expect((await page.goto('/contact'))!.status()).toBe(200);
  expect((await page.goto('/contact/'))!.status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'Contact' })).toBeVisible();
  const missing = await page.goto('/no/such/page');
  expect(missing!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'No islands here' })).toBeVisible();
});

test("the inline script of the site's head hook runs under the CSP, and the full stylesheet loads", async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-js', 'on');
  // Added by the inline loader once the page has painted from its critical CSS.
  await expect(page.locator('link#site-css')).toHaveAttribute('rel', 'stylesheet');
  await expect
    .poll(() => page.evaluate(() => (document.getElementById('site-css') as HTMLLinkElement).sheet !== null))
    .toBe(true);
});
