// Issue 11: what a visitor does before the page's scripts have arrived is not lost. Every test holds the scripts back
// (a route that answers /assets/*.js only when released), acts at once on the server HTML, then lets them through.
import type { Page } from '@playwright/test';
import { SIMULATED_SEND_DELAY_MS, TOOLTIP } from '../../src/site/constants.ts';
import { expect, islandLive, settled, test } from './fixtures.ts';

const DESKTOP = { width: 1280, height: 800 };

/** Holds every script of the page back until `release()`; the HTML, its inline scripts, CSS and fonts come at once. */
async function holdScripts(page: Page): Promise<{ release: () => void; held: () => number }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  return { release, held: () => held };
}

/**
 * Opens the page without waiting for its scripts (the load event waits for module scripts, which are held), once its
 * full stylesheet is applied: what these tests tap below the first screen (the FAQ, the footer) is laid out by it, and
 * a tap made as it arrived could land where the element was a moment before (a tap on the first question missed it on
 * a loaded CI machine).
 */
async function open(page: Page, path: string): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await page.goto(path, { waitUntil: 'commit' });
  await expect(page.locator('footer')).toBeAttached();
  await settled(page);
}

const questions = (page: Page) => page.locator('#faq details > summary');
const answers = (page: Page) => page.locator('#faq .accordion-panel');

test('a tap on a FAQ question before any script has arrived opens its answer at once, and the scripts arriving do not replay it', async ({
  page,
}) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  await questions(page).first().click();
  // The platform answers (<details>): no script is needed, none has arrived.
  await expect(answers(page).first()).toBeVisible();
  expect(scripts.held(), 'the scripts were held back while the visitor tapped').toBeGreaterThan(0);
  scripts.release();
  await islandLive(page.locator('site-island[data-island="enhance"]'));
  await expect(answers(page).first(), 'not toggled again by a replay').toBeVisible();
  await questions(page).first().click();
  await expect(answers(page).first()).toBeHidden();
});

test('Enter on a FAQ question before any script has arrived opens it at once, once', async ({ page }) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  await questions(page).first().focus();
  await page.keyboard.press('Enter');
  await expect(answers(page).first()).toBeVisible();
  scripts.release();
  await islandLive(page.locator('site-island[data-island="enhance"]'));
  await expect(answers(page).first()).toBeVisible();
  await expect(questions(page).first()).toBeFocused();
});

test('an address typed in the newsletter box and sent with Enter before the scripts arrive is subscribed once they have', async ({
  page,
}) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  const field = page.getByLabel('Email address');
  await field.fill('fan@example.com');
  await field.press('Enter');
  await expect(field, 'nothing sent it anywhere meanwhile').toHaveValue('fan@example.com');
  expect(page.url(), 'the page stays where it is').not.toContain('?');
  scripts.release();
  const notifications = page.getByRole('region', { name: 'Notifications', exact: true });
  await expect(notifications.getByText('Thank you for subscribing!')).toBeVisible();
  await expect(notifications.getByText('Thank you for subscribing!'), 'one toast, not two').toHaveCount(1);
  await expect(field, 'the form is reset after subscribing').toHaveValue('');
});

test('keys typed in the newsletter box while its island goes live all stay in the field, and Subscribe then toasts once', async ({
  page,
}) => {
  // A slow phone: the task in which the island goes live is long, and the keys the visitor presses meanwhile wait for
  // it. They must reach the field after the keys held before it (the replay), never before: the replay would then put
  // the field back to its older text and take them out.
  await page.addInitScript(() => {
    new MutationObserver((records) => {
      for (const { target } of records) {
        const island = target as HTMLElement;
        if (island.dataset.island !== 'newsletter' || island.getAttribute('data-hydrated') !== '') continue;
        console.log('test: the newsletter island is live');
        const end = performance.now() + 500;
        while (performance.now() < end);
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-hydrated'] });
  });
  const scripts = await holdScripts(page);
  await open(page, '/');
  const field = page.getByLabel('Email address');
  await field.click();
  await field.pressSequentially('ada');
  let typed = 'ada';
  let isLive = false;
  void page
    .waitForEvent('console', (message) => message.text() === 'test: the newsletter island is live')
    .then(() => (isLive = true));
  scripts.release();
  // The visitor types on, before, while and after the island goes live: one key at a time, each sent once the page
  // has taken the one before, so that one waits for the long task.
  while (!isLive && typed.length < 400) {
    await page.keyboard.press('a');
    typed += 'a';
  }
  await page.keyboard.type('@example.com');
  await expect(field, 'every key typed is in the field, once, in order').toHaveValue(`${typed}@example.com`);
  await islandLive(field);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const notifications = page.getByRole('region', { name: 'Notifications', exact: true });
  await expect(notifications.getByText('Thank you for subscribing!')).toBeVisible();
  await expect(notifications.getByText('Thank you for subscribing!'), 'one toast, not two').toHaveCount(1);
  await expect(field, 'the form is reset after subscribing, and nothing puts the address back').toHaveValue('');
});

test('the pointer resting on a social icon while the scripts arrive gets its tooltip', async ({ page }) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  const link = page.getByRole('link', { name: 'Instagram', exact: true });
  await link.scrollIntoViewIfNeeded();
  await link.hover();
  scripts.release();
  await islandLive(page.locator('site-island[data-island="tooltips"]'));
  // The tooltip's own open delay (700 ms) runs from the moment its code is live.
  await expect(page.getByRole('tooltip', { name: 'Follow us on Instagram' })).toBeVisible({
    timeout: TOOLTIP.openDelayMs + 5_000,
  });
});

test('keyboard focus sitting on the theme switch while the scripts arrive shows its tooltip', async ({ page }) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  // From the header's logo link, Tab on to the theme switch (the menu link comes after it).
  await page.locator('.site-header a').first().focus();
  await page.keyboard.press('Tab');
  const theme = page.locator('select.theme-select');
  await expect(theme).toBeFocused();
  scripts.release();
  await expect(
    page.getByRole('tooltip', { name: 'Choose a light or dark theme, or follow your device' }),
  ).toBeVisible();
});

test('the menu button pressed before the scripts arrive opens the menu at once, and once', async ({ page }) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  await page.locator('#menu-button').click();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  scripts.release();
  await islandLive(page.locator('site-island[data-island="enhance"]'));
  await expect(
    page.getByRole('dialog', { name: 'Menu' }),
    'the scripts arriving do not replay the press',
  ).toBeVisible();
  expect(new URL(page.url()).hash, 'the press did not also follow the no-JavaScript link').toBe('');
  await expect(page.locator('#menu-button')).toHaveAttribute('aria-expanded', 'true');
});

const CONTACT = {
  'First Name': 'Jordan',
  'Last Name': 'Rivers',
  Email: 'jordan@example.com',
  'Phone Number': '(407) 555-0123',
  Message: 'A demo for you.',
};

async function fillContact(page: Page): Promise<void> {
  for (const [label, value] of Object.entries(CONTACT)) await page.getByLabel(label, { exact: true }).fill(value);
}

test('the contact form filled and sent before the scripts arrive is sent once they have', async ({ page }) => {
  const scripts = await holdScripts(page);
  await open(page, '/contact');
  await fillContact(page);
  await page.getByLabel(/I agree to the Terms/).check();
  await page.getByRole('button', { name: 'Send Message' }).click();
  scripts.release();
  await expect(page.getByRole('button', { name: /Sending/ })).toBeDisabled();
  const alerts = page.getByRole('region', { name: 'Alerts', exact: true });
  await expect(alerts.getByText('Message sent!')).toBeVisible({ timeout: SIMULATED_SEND_DELAY_MS + 5_000 });
  await expect(alerts.getByText('Message sent!'), 'sent once').toHaveCount(1);
  await expect(page.getByLabel('First Name', { exact: true }), 'the form is reset after sending').toHaveValue('');
});

test('text typed and a box ticked before the scripts arrive survive hydration, each toggled once', async ({ page }) => {
  const scripts = await holdScripts(page);
  await open(page, '/contact');
  await fillContact(page);
  const terms = page.getByLabel(/I agree to the Terms/);
  await terms.click();
  await expect(terms, 'the box ticks at once, under the finger').toBeChecked();
  scripts.release();
  await islandLive(page.locator('form.contact-form'));
  for (const [label, value] of Object.entries(CONTACT))
    await expect(page.getByLabel(label, { exact: true })).toHaveValue(value);
  await expect(terms, 'replayed once: still ticked').toBeChecked();
  // And the form works as usual from here: typing goes on where it was.
  await page.getByLabel('Message', { exact: true }).press('End');
  await page.getByLabel('Message', { exact: true }).pressSequentially(' More.');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('A demo for you. More.');
});

test('no interaction is replayed twice: three taps on the FAQ before the scripts arrive each act once, at once', async ({
  page,
}) => {
  const scripts = await holdScripts(page);
  await open(page, '/');
  const items = page.locator('#faq details');
  await questions(page).nth(0).click();
  await questions(page).nth(1).click();
  await questions(page).nth(1).click();
  const state = () => items.evaluateAll((all) => all.slice(0, 3).map((item) => (item as HTMLDetailsElement).open));
  expect(await state(), 'tapped once: open; twice: open, then closed; not tapped: closed').toEqual([
    true,
    false,
    false,
  ]);
  scripts.release();
  await islandLive(page.locator('site-island[data-island="enhance"]'));
  expect(await state(), 'the same once the scripts have run').toEqual([true, false, false]);
});

test('before any interaction the home page loads only the small runtime: React and the islands wait', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.setViewportSize(DESKTOP);
  await page.goto('/', { waitUntil: 'load' });
  const atLoad = [...scripts];
  expect(
    atLoad.some((path) => /faq|newsletter|toasts|tooltips/.test(path)),
    `no island code by the load event: ${atLoad.join(', ')}`,
  ).toBe(false);
  // The behaviours marked idle start after the load event; the interaction islands still wait.
  await islandLive(page.locator('site-island[data-island="enhance"]'));
  await expect(page.locator('site-island[data-island="toasts"]')).not.toHaveAttribute('data-hydrated');
  await expect(page.locator('site-island[data-island="tooltips"]')).not.toHaveAttribute('data-hydrated');
  await page.locator('.tooltip-anchor').first().hover();
  await islandLive(page.locator('site-island[data-island="tooltips"]'));
});
