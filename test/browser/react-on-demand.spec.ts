// Issue 11: a page loaded and left alone (no scroll, no pointer, no key) never loads React. Its idle work runs as
// behaviours (plain DOM code); React and the islands that use it arrive only when the visitor reaches for them.
import type { Page } from '@playwright/test';
import { SCROLL_TOP_THRESHOLD_PX, SIMULATED_SEND_DELAY_MS } from '../../src/site/constants.ts';
import { expect, scrolledTo, test } from './fixtures.ts';

const DESKTOP = { width: 1280, height: 800 };
/** The viewport Lighthouse's mobile run uses. */
const PHONE = { width: 412, height: 823 };

/** Text only React's own code holds: the element type tag of react and react/jsx-runtime, and react-dom's error links. */
const REACT_CODE = /react\.transitional\.element|react\.dev\/errors/;

interface Scripts {
  /** Paths of the scripts fetched so far. */
  paths(): string[];
  /** Those that hold React's code, once every script fetched so far has been read. */
  withReact(): Promise<string[]>;
}

/** Records every script the page fetches, and which of them hold React. */
function recordScripts(page: Page): Scripts {
  const fetched: Array<Promise<{ path: string; react: boolean }>> = [];
  const paths: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    const path = new URL(response.url()).pathname;
    paths.push(path);
    fetched.push(response.text().then((text) => ({ path, react: REACT_CODE.test(text) })));
  });
  return {
    paths: () => [...paths],
    withReact: async () => (await Promise.all(fetched)).filter((script) => script.react).map((script) => script.path),
  };
}

/**
 * Opens the page and waits, touching nothing, until the runtime has run everything it runs by itself: every idle or
 * load island and behaviour is marked live, and the network is quiet.
 */
async function openAndLeaveAlone(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'load' });
  const unattended = page.locator('site-island[data-hydrate="idle"], site-island[data-hydrate="load"]');
  await expect.poll(() => unattended.count()).toBeGreaterThan(0);
  for (const island of await unattended.all()) await expect(island).toHaveAttribute('data-hydrated', '');
  await page.waitForLoadState('networkidle');
}

/** The names of the page's React islands, whose chunks must not have been fetched. */
async function reactIslands(page: Page): Promise<string[]> {
  return page
    .locator('site-island[data-island]:not([data-behaviour])')
    .evaluateAll((islands) => [...new Set(islands.map((island) => island.getAttribute('data-island')!))]);
}

async function expectNoReact(page: Page, scripts: Scripts, when: string): Promise<void> {
  expect(await scripts.withReact(), `no script holding React ${when} (fetched: ${scripts.paths().join(', ')})`).toEqual(
    [],
  );
  const islands = await reactIslands(page);
  const chunks = scripts.paths().filter((path) => islands.some((name) => path.includes(`/chunks/${name}-`)));
  expect(chunks, `no React island's chunk ${when}`).toEqual([]);
}

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test.describe(`left alone (${label}, ${viewport.width}×${viewport.height})`, () => {
    test.use({ viewport });

    for (const path of ['/', '/contact']) {
      test(`${path} fetches no React and no React island; its behaviours run`, async ({ page }) => {
        const scripts = recordScripts(page);
        await openAndLeaveAlone(page, path);
        await expectNoReact(page, scripts, 'on a page left alone');
        // The behaviours did run: the scroll-to-top link is managed, the copyright line is the visitor's.
        await expect(page.locator('a.to-top')).toHaveAttribute('data-state', 'hidden');
        await expect(page.locator('p.copyright')).toContainText(String(new Date().getFullYear()));
        expect(scripts.paths().length, 'the runtime and the behaviours did load').toBeGreaterThan(1);
      });
    }

    test('the not-found page fetches no React; its logger behaviour logs the path', async ({ page, problems }) => {
      problems.allow(/404 Error: User attempted to access non-existent route: \/no-such-page|status of 404/);
      const logged: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') logged.push(message.text());
      });
      const scripts = recordScripts(page);
      await openAndLeaveAlone(page, '/no-such-page');
      await expectNoReact(page, scripts, 'on the not-found page');
      expect(logged).toContain('404 Error: User attempted to access non-existent route: /no-such-page');
    });
  });
}

test.describe('used after being left alone', () => {
  test.use({ viewport: DESKTOP });

  test('the home page: reveal, scroll-to-top, tooltips, the menu and the FAQ work without React; a toast brings it', async ({
    page,
  }) => {
    const scripts = recordScripts(page);
    await openAndLeaveAlone(page, '/');
    await expectNoReact(page, scripts, 'before any interaction');

    // Behaviours: a card below the fold fades in when scrolled to; the scroll-to-top link shows past 400 px.
    const card = page.locator('.services-grid > li').last();
    await expect(card).toHaveAttribute('data-reveal-state', 'hidden');
    await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), SCROLL_TOP_THRESHOLD_PX + 1);
    await expect(page.locator('a.to-top')).toHaveAttribute('data-state', 'shown');
    await card.evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
    await expect(card).toHaveAttribute('data-reveal-state', 'shown');
    await page.locator('a.to-top').click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expectNoReact(page, scripts, 'after scrolling to the services and back to the top');

    // The menu is a <dialog> the page's inline script opens: no React, no download.
    await page.locator('#menu-button').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
    expect(await scripts.withReact(), 'the menu brings no React').toEqual([]);

    // The FAQ is <details>: a question opens at the first press, its arrow keys come from the idle behaviour.
    const question = page.locator('#faq details > summary').first();
    await question.scrollIntoViewIfNeeded();
    const before = scripts.paths().length;
    await question.click();
    await expect(page.locator('#faq details').first()).toHaveAttribute('open', '');
    await question.press('ArrowDown');
    await expect(page.locator('#faq details > summary').nth(1)).toBeFocused();
    await page.waitForLoadState('networkidle');
    expect(scripts.paths().slice(before), 'the FAQ fetched nothing').toEqual([]);
    await expectNoReact(page, scripts, 'after opening a FAQ question');

    // The footer's tooltips are a behaviour too; scrolling to the footer brings the newsletter (visible).
    const instagram = page.getByRole('link', { name: 'Instagram', exact: true });
    await scrolledTo(instagram);
    await instagram.hover();
    await expect(page.getByRole('tooltip', { name: 'Follow us on Instagram' })).toBeVisible();
    await expect(page.locator('site-island[data-island="tooltips"]')).toHaveAttribute('data-hydrated', '');

    // Islands: the newsletter's toast brings React.
    const field = page.getByLabel('Email address');
    await field.fill('visitor@example.com');
    await field.press('Enter');
    await expect(
      page.getByRole('region', { name: /^Notifications/ }).getByText('Thank you for subscribing!'),
    ).toBeVisible();
    expect((await scripts.withReact()).length, 'React arrives with the first island the visitor uses').toBeGreaterThan(
      0,
    );
  });

  test('the contact page: the form sent after the page was left alone shows its toast', async ({ page }) => {
    const scripts = recordScripts(page);
    await openAndLeaveAlone(page, '/contact');
    await expectNoReact(page, scripts, 'before any interaction');
    for (const [label, value] of [
      ['First Name', 'Jordan'],
      ['Last Name', 'Rivers'],
      ['Email', 'jordan@example.com'],
      ['Phone Number', '(407) 555-0123'],
      ['Message', 'Hello.'],
    ]) {
      await page.getByLabel(label!, { exact: true }).fill(value!);
    }
    await page.getByLabel(/I agree to the Terms/).check();
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByText('Message sent!')).toBeVisible({ timeout: SIMULATED_SEND_DELAY_MS + 10_000 });
  });
});
