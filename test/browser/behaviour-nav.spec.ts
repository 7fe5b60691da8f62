// Navigation and motion, driven as a visitor: the menu, the header's scroll state, anchors, scroll-to-top, entrance
// animations, the service cards' glow, the logo strip, the theme switch and tooltips. Constants come from the spec's module.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import {
  FAQ_INTRO_DELAY_MS,
  HEADER_SCROLL_THRESHOLD_PX,
  HERO_BUTTONS_DELAY_MS,
  HERO_PARAGRAPH_DELAY_MS,
  LOGO_STRIP,
  MOBILE_BREAKPOINT_PX,
  PARTNER_COUNT,
  SCROLL_TOP_THRESHOLD_PX,
  SERVICE_CARD_DELAY_BASE_MS,
  SERVICE_CARD_DELAY_STEP_MS,
  TOOLTIP,
} from '../../src/site/constants.ts';
import { expect, gotoWithTheme, nextFrames, scrolledTo, settled, test } from './fixtures.ts';

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: MOBILE_BREAKPOINT_PX - 1, height: 800 };

/** Scrolls the window to `y` at once (the page's CSS asks for smooth scrolling, which would make positions drift). */
async function scrollToY(page: Page, y: number): Promise<void> {
  await page.evaluate((top) => window.scrollTo({ top, behavior: 'instant' }), y);
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(y);
}

/** Waits until the idle `enhance` island has run: it sets data-state on the scroll-to-top link. */
async function enhanced(page: Page): Promise<void> {
  await expect(page.locator('a.to-top')).toHaveAttribute('data-state', /^(shown|hidden)$/);
}

/**
 * Starts recording window.scrollY every frame, until it has not changed for 20 frames after moving (or 4 s).
 * `positions()` waits for that and returns the distinct positions in order.
 */
async function recordScroll(page: Page): Promise<{ positions: () => Promise<number[]> }> {
  await page.evaluate(() => {
    const w = window as unknown as { scrollLog: { values: number[]; done: boolean } };
    w.scrollLog = { values: [Math.round(window.scrollY)], done: false };
    const started = performance.now();
    let still = 0;
    const tick = () => {
      const y = Math.round(window.scrollY);
      const log = w.scrollLog;
      if (y !== log.values.at(-1)) {
        log.values.push(y);
        still = 0;
      } else if (log.values.length > 1) still++;
      if (still >= 20 || performance.now() - started > 4000) log.done = true;
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return {
    positions: async () => {
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { scrollLog: { done: boolean } }).scrollLog.done))
        .toBe(true);
      return page.evaluate(() => (window as unknown as { scrollLog: { values: number[] } }).scrollLog.values);
    },
  };
}

function intermediate(positions: number[]): number[] {
  const [start, end] = [positions[0]!, positions.at(-1)!];
  return positions.filter((y) => y > Math.min(start, end) && y < Math.max(start, end));
}

/** The menu button: server markup that the inline menu script answers, live from the first paint. */
async function menuButton(page: Page): Promise<Locator> {
  const button = page.getByRole('button', { name: 'Menu', exact: true });
  await expect(button).toBeVisible();
  return button;
}

async function focusIsInDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => Boolean(document.activeElement?.closest('dialog')));
}

test.describe('header menu', () => {
  test('from 768 px it is a right-side modal drawer: focus stays inside, Escape closes it, focus returns to the menu button', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    const button = await menuButton(page);
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    // While the dialog is open the rest of the page is inert, out of reach of role queries: found by id.
    await expect(page.locator('#menu-button')).toHaveAttribute('aria-expanded', 'true');
    const menu = dialog.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('link')).toHaveText([
      'Home',
      'About',
      'Services',
      'Resources',
      'FAQ',
      'Book Appointment',
    ]);
    expect(await menu.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '#home',
      '#about',
      '#services',
      '#partners',
      '#faq',
      '#cta',
    ]);
    // A drawer on the right: flush with the right edge, narrower than the window.
    const panel = await page.locator('.menu-dialog .menu-panel').boundingBox();
    expect(Math.round(panel!.x + panel!.width)).toBe(DESKTOP.width);
    expect(panel!.x).toBeGreaterThan(DESKTOP.width / 2);
    // Eight Tabs over seven controls: focus goes round and never leaves the dialog; Shift+Tab goes round backwards.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect(await focusIsInDialog(page), `focus is in the dialog after Tab ${i + 1}`).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Close menu' }).focus();
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('link', { name: 'Book Appointment' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  test("the drawer's close button closes it and gives focus back to the menu button, opened from the keyboard too", async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    const button = await menuButton(page);
    await button.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close menu' }).click();
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
    // Opened a second time (its code is loaded by now), it closes the same way.
    await button.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(button).toBeFocused();
  });

  test('opens at the first press with every script held back: the inline script and the platform answer it', async ({
    page,
  }) => {
    const held: string[] = [];
    // Every script request waits for good: nothing downloaded may be what opens the menu.
    await page.route(/\.js$/, (route) => void held.push(route.request().url()));
    await page.setViewportSize(DESKTOP);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const button = page.getByRole('button', { name: 'Menu', exact: true });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(await focusIsInDialog(page), 'focus moved into the dialog').toBe(true);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(new URL(page.url()).hash, 'the no-JavaScript link was not followed').toBe('');
  });

  test('no script is fetched for the menu: opening it downloads nothing', async ({ page }) => {
    await page.goto('/');
    await enhanced(page);
    await page.waitForLoadState('networkidle');
    const fetched: string[] = [];
    page.on('request', (request) => void fetched.push(new URL(request.url()).pathname));
    await (await menuButton(page)).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Close menu' }).click();
    expect(fetched).toEqual([]);
  });

  test('choosing a section in the drawer closes it, scrolls there, puts its hash in the address and moves focus to it', async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await (await menuButton(page)).click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await dialog.getByRole('link', { name: 'FAQ' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/#faq$/);
    await expect(page.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeInViewport();
    await expect(page.locator('#faq')).toBeFocused();
  });

  test('axe finds no violations in the open drawer at 768 px', async ({ page }) => {
    await page.setViewportSize({ width: MOBILE_BREAKPOINT_PX, height: 800 });
    await page.goto('/');
    await (await menuButton(page)).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});

test.describe('header menu under 768 px', () => {
  test.use({ viewport: MOBILE, hasTouch: true });

  test('opens full-screen and closes when a link is tapped, going to its section', async ({ page }) => {
    await page.goto('/');
    await (await menuButton(page)).tap();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    const panel = await page.locator('.menu-dialog .menu-panel').boundingBox();
    expect(panel).toEqual({ x: 0, y: 0, width: MOBILE.width, height: MOBILE.height });
    // The page behind stays where it was: a swipe over the open menu scrolls nothing.
    await page.mouse.wheel(0, 600);
    await nextFrames(page);
    expect(await page.evaluate(() => window.scrollY), 'the page behind did not scroll').toBe(0);
    await dialog.getByRole('link', { name: 'Services' }).tap();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/#services$/);
    await expect(page.getByRole('heading', { name: 'WHAT WE DO' })).toBeInViewport();
  });

  test('the close button closes the overlay', async ({ page }) => {
    await page.goto('/');
    await (await menuButton(page)).tap();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close menu' }).tap();
    await expect(dialog).toBeHidden();
  });

  test('axe finds no violations in the open overlay, in both themes', async ({ page }) => {
    for (const theme of ['dark', 'light'] as const) {
      await gotoWithTheme(page, '/', theme);
      await (await menuButton(page)).tap();
      await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${theme} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    }
  });
});

test.describe('header menu without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: DESKTOP });

  test('the theme switch, which could neither switch nor keep a theme, is not shown', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main', includeHidden: true })).toHaveCount(1);
    await expect(page.getByRole('combobox', { name: 'Theme' })).toBeHidden();
  });

  test('the Menu link still opens the drawer (its :target) and Close menu closes it', async ({ page }) => {
    await page.goto('/');
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toBeHidden();
    await page.getByRole('link', { name: /menu/i }).first().click();
    await expect(menu).toBeVisible();
    const box = await menu.boundingBox();
    expect(Math.round(box!.x + box!.width)).toBe(DESKTOP.width);
    await menu.getByRole('link', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
  });
});

test.describe('header scroll state', () => {
  test(`turns smaller and bordered past ${HEADER_SCROLL_THRESHOLD_PX} px, and back at the top`, async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await enhanced(page);
    const header = page.locator('.site-header');
    const height = () => page.locator('.header-inner').evaluate((el) => el.getBoundingClientRect().height);
    const border = () => header.evaluate((el) => getComputedStyle(el).borderBottomColor);
    const tall = await height();
    const transparent = await border();

    await scrollToY(page, HEADER_SCROLL_THRESHOLD_PX - 1);
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    await scrollToY(page, HEADER_SCROLL_THRESHOLD_PX + 1);
    await expect(header).toHaveAttribute('data-scrolled', 'true');
    await expect.poll(height).toBe(tall - 16);
    await expect.poll(border).not.toBe(transparent);

    await scrollToY(page, 0);
    await expect(header).toHaveAttribute('data-scrolled', 'false');
    await expect.poll(height).toBe(tall);
    await expect.poll(border).toBe(transparent);
  });
});

test.describe('anchor links', () => {
  test('scroll smoothly to their section and add its hash to the address and the history', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    // The idle behaviours started (the header's scrolled state, entrance animations) and the link in view first, so
    // that the only scrolling recorded is the link's own.
    await enhanced(page);
    const link = page.locator('#about').getByRole('link', { name: 'Learn More' });
    await link.scrollIntoViewIfNeeded();
    await settled(page);
    const before = await page.evaluate(() => history.length);
    const scroll = await recordScroll(page);
    await link.click();
    const positions = await scroll.positions();
    // Smooth is any frame between the start and the end: a jump (reduced motion, below) has none. How many frames the
    // browser draws on the way depends on the machine: a loaded CI run drew one (1036, 1465, 1501), where 3 was asked.
    expect(
      intermediate(positions).length,
      `smooth: positions on the way (${positions.join(', ')})`,
    ).toBeGreaterThanOrEqual(1);
    await expect(page).toHaveURL(/\/#services$/);
    await expect(page.getByRole('heading', { name: 'WHAT WE DO' })).toBeInViewport();
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
  });

  test('with reduced motion they jump straight to the section', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    const link = page.locator('#about').getByRole('link', { name: 'Learn More' });
    await link.scrollIntoViewIfNeeded();
    await settled(page);
    const scroll = await recordScroll(page);
    await link.click();
    const positions = await scroll.positions();
    expect(intermediate(positions), `one jump (${positions.join(', ')})`).toEqual([]);
    await expect(page).toHaveURL(/\/#services$/);
    await expect(page.getByRole('heading', { name: 'WHAT WE DO' })).toBeInViewport();
  });
});

test.describe('scroll-to-top button', () => {
  test(`is fixed at the bottom left and appears past ${SCROLL_TOP_THRESHOLD_PX} px`, async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await enhanced(page);
    const button = page.getByRole('link', { name: 'Scroll to top', includeHidden: true });
    await expect(button).toBeHidden();
    await scrollToY(page, SCROLL_TOP_THRESHOLD_PX - 1);
    await expect(button).toBeHidden();
    await expect(button).toHaveAttribute('data-state', 'hidden');
    await scrollToY(page, SCROLL_TOP_THRESHOLD_PX + 1);
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute('data-state', 'shown');
    await expect(page.getByRole('link', { name: 'Scroll to top' })).toHaveCount(1);
    await expect
      .poll(async () => {
        const box = (await button.boundingBox())!;
        return [Math.round(box.x), Math.round(DESKTOP.height - box.y - box.height)];
      })
      .toEqual([20, 20]);
    expect(await button.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
  });

  test('once shown, it is inside a landmark like all content: axe finds no violations', async ({ page }) => {
    await page.goto('/');
    await enhanced(page);
    await scrollToY(page, 2400);
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Scroll to top' })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  test('scrolls smoothly to the top and leaves no "#" in the address', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await enhanced(page);
    await scrollToY(page, 2400);
    const button = page.getByRole('link', { name: 'Scroll to top' });
    await expect(button).toBeVisible();
    const scroll = await recordScroll(page);
    await button.click();
    const positions = await scroll.positions();
    expect(positions.at(-1)).toBe(0);
    expect(
      intermediate(positions).length,
      `smooth: positions on the way (${positions.join(', ')})`,
    ).toBeGreaterThanOrEqual(3);
    await expect(page).toHaveURL(/\/$/);
    await expect(button).toBeHidden();
  });

  test('from the keyboard it goes to the top and focus carries on from there', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await enhanced(page);
    await scrollToY(page, 2400);
    await page.getByRole('link', { name: 'Scroll to top' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  });

  test('is not rendered on the compact not-found page', async ({ page, problems }) => {
    problems.allow(/404 Error: User attempted to access non-existent route:|status of 404/);
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
    await expect(page.getByRole('link', { name: 'Scroll to top', includeHidden: true })).toHaveCount(0);
  });
});

test.describe('entrance animations', () => {
  test(`the hero paragraph and buttons enter ${HERO_PARAGRAPH_DELAY_MS} ms and ${HERO_BUTTONS_DELAY_MS} ms after first paint`, async ({
    page,
  }) => {
    await page.goto('/');
    const animation = (selector: string) =>
      page.locator(selector).evaluate((el) => {
        const style = getComputedStyle(el);
        return { name: style.animationName, delay: style.animationDelay, fill: style.animationFillMode };
      });
    expect(await animation('.hero-text')).toEqual({
      name: 'hero-rise',
      delay: `${HERO_PARAGRAPH_DELAY_MS / 1000}s`,
      fill: 'both',
    });
    expect(await animation('.hero-actions')).toEqual({
      name: 'hero-rise',
      delay: `${HERO_BUTTONS_DELAY_MS / 1000}s`,
      fill: 'both',
    });
    await expect.poll(() => page.locator('.hero-actions').evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });

  test(`the FAQ intro fades in ${FAQ_INTRO_DELAY_MS} ms after 10 % of it is in view`, async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    const intro = page.getByText(
      'Get answers to some of the most common questions artists have about navigating the music industry.',
    );
    await expect(intro).toHaveAttribute('data-reveal-state', 'hidden');
    expect(await intro.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    // Scroll until a given share of its (shifted) box is inside the window, from below.
    const showShare = (share: number) =>
      intro.evaluate((el, s) => {
        const box = el.getBoundingClientRect();
        window.scrollBy({ top: box.top - (window.innerHeight - box.height * s), behavior: 'instant' });
      }, share);
    await showShare(0.05);
    // Two frames for the observer to report: still hidden at 5 %.
    await nextFrames(page);
    await expect(intro).toHaveAttribute('data-reveal-state', 'hidden');
    await showShare(0.2);
    await expect(intro).toHaveAttribute('data-reveal-state', 'shown');
    expect(await intro.evaluate((el) => getComputedStyle(el).transitionDelay)).toBe(`${FAQ_INTRO_DELAY_MS / 1000}s`);
    await expect.poll(() => intro.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });

  test('service cards fade in as they scroll into view, 100 ms + 100 ms x index', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    const items = page.locator('.services-grid > li');
    await expect(items).toHaveCount(6);
    for (const item of await items.all()) await expect(item).toHaveAttribute('data-reveal-state', 'hidden');
    await page.locator('.services-grid').evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
    for (const item of await items.all()) await expect(item).toHaveAttribute('data-reveal-state', 'shown');
    const delays = await items.evaluateAll((els) => els.map((el) => getComputedStyle(el).transitionDelay));
    expect(delays).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => `${(SERVICE_CARD_DELAY_BASE_MS + SERVICE_CARD_DELAY_STEP_MS * i) / 1000}s`),
    );
    for (const item of await items.all())
      await expect.poll(() => item.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  });

  test('nothing already on screen is hidden when the script runs (no flash), and everything starts visible in the HTML', async ({
    page,
  }) => {
    // Every element ever set to the hidden state, and whether it was on screen at that moment.
    await page.addInitScript(() => {
      const w = window as unknown as { hiddenOnScreen: string[]; hiddenAny: number };
      w.hiddenOnScreen = [];
      w.hiddenAny = 0;
      new MutationObserver((records) => {
        for (const record of records) {
          const el = record.target as Element;
          if (el.getAttribute('data-reveal-state') !== 'hidden') continue;
          w.hiddenAny++;
          const box = el.getBoundingClientRect();
          if (box.bottom > 0 && box.top < window.innerHeight) w.hiddenOnScreen.push(el.outerHTML.slice(0, 80));
        }
      }).observe(document, { attributes: true, attributeFilter: ['data-reveal-state'], subtree: true });
    });
    await page.setViewportSize(DESKTOP);
    const response = await page.goto('/#services');
    const html = await response!.text();
    expect(html, 'the server HTML hides nothing').not.toContain('data-reveal-state');
    await enhanced(page);
    const result = () =>
      page.evaluate(() => {
        const w = window as unknown as { hiddenOnScreen: string[]; hiddenAny: number };
        return { hiddenOnScreen: w.hiddenOnScreen, hiddenAny: w.hiddenAny };
      });
    // The reveal hides what is out of view when its IntersectionObserver first reports, a frame after it starts.
    await expect
      .poll(async () => (await result()).hiddenAny, 'the elements out of view (the FAQ intro) were hidden')
      .toBeGreaterThan(0);
    expect((await result()).hiddenOnScreen).toEqual([]);
    await expect(page.getByRole('article', { name: 'RECORD LABEL SERVICES' })).toBeInViewport();
  });

  test('with reduced motion nothing animates', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await enhanced(page);
    expect(await page.locator('.hero-text').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    expect(await page.locator('.hero-actions').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    // Where motion is allowed, the reveal would have hidden the cards below by the second frame (its observer's report).
    await nextFrames(page);
    await expect(page.locator('[data-reveal-state]')).toHaveCount(0);
    expect(
      await page
        .locator('.services-grid > li')
        .first()
        .evaluate((el) => getComputedStyle(el).opacity),
    ).toBe('1');
  });
});

test.describe('service card glow', () => {
  test('a red glow follows the pointer over a card', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await enhanced(page);
    await settled(page);
    const card = page.getByRole('article', { name: 'MUSIC PRODUCTION' });
    await scrolledTo(card);
    const box = (await card.boundingBox())!;
    const glow = () =>
      card.evaluate((el) => ({
        x: el.style.getPropertyValue('--glow-x'),
        y: el.style.getPropertyValue('--glow-y'),
        opacity: getComputedStyle(el, '::before').opacity,
      }));
    await page.mouse.move(box.x + 50, box.y + 60);
    await expect.poll(glow).toEqual({ x: '50px', y: '60px', opacity: '1' });
    await page.mouse.move(box.x + 200, box.y + 150, { steps: 4 });
    await expect.poll(glow).toMatchObject({ x: '200px', y: '150px' });
    const gradient = await card.evaluate((el) => getComputedStyle(el, '::before').backgroundImage);
    expect(gradient).toContain('200px 150px');
    expect(gradient).toMatch(/rgba\((229, 9, 20|200, 16, 46)/);
    await page.mouse.move(5, 5);
    await expect.poll(() => card.evaluate((el) => getComputedStyle(el, '::before').opacity)).toBe('0');
  });
});

test.describe('logo strip', () => {
  test(`loops in reverse every ${LOGO_STRIP.loopSeconds} s, ${LOGO_STRIP.gapPx} px apart, logos ${LOGO_STRIP.logoHeightPx} px high`, async ({
    page,
  }) => {
    await page.goto('/');
    // The strip's rules are not in the critical CSS (its section is rendered only near the viewport): they come with
    // the full stylesheet.
    await settled(page);
    const list = page.getByRole('list', { name: 'Our partners' });
    await expect(list.getByRole('img')).toHaveCount(PARTNER_COUNT);
    const style = await list.evaluate((el) => {
      const s = getComputedStyle(el);
      return {
        name: s.animationName,
        duration: s.animationDuration,
        direction: s.animationDirection,
        iterations: s.animationIterationCount,
        timing: s.animationTimingFunction,
        gap: s.columnGap,
        state: s.animationPlayState,
      };
    });
    expect(style).toEqual({
      name: 'marquee',
      duration: `${LOGO_STRIP.loopSeconds}s`,
      direction: LOGO_STRIP.direction,
      iterations: 'infinite',
      timing: 'linear',
      gap: `${LOGO_STRIP.gapPx}px`,
      state: 'running',
    });
    const heights = await list
      .getByRole('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect().height));
    expect(new Set(heights)).toEqual(new Set([LOGO_STRIP.logoHeightPx]));
  });

  test('pauses on hover, on keyboard focus, and with its pause control', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    // Until the full stylesheet applies, the strip is unstyled (its logos one under another) and in another place.
    await settled(page);
    const list = page.getByRole('list', { name: 'Our partners' });
    const state = () => list.evaluate((el) => getComputedStyle(el).animationPlayState);
    // The strip's window stands still while the logos move in it: point at its middle.
    const strip = page.locator('.marquee-viewport');
    await scrolledTo(strip);
    const box = (await strip.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(state).toBe('paused');
    await page.mouse.move(5, 5);
    await expect.poll(state).toBe('running');

    const control = page.getByRole('checkbox', { name: 'Pause the logo animation' });
    await control.focus();
    await expect.poll(state, 'paused while the control has keyboard focus').toBe('paused');
    await page.keyboard.press('Space');
    await expect(control).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(control).not.toBeFocused();
    await expect.poll(state, 'still paused by the control once focus has moved on').toBe('paused');
    await control.focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect.poll(state).toBe('running');
  });

  test('stands still under reduced motion, each logo shown once', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    const list = page.getByRole('list', { name: 'Our partners' });
    expect(await list.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await expect(list.getByRole('img')).toHaveCount(PARTNER_COUNT);
    await expect(page.locator('.marquee-track[aria-hidden="true"]')).toBeHidden();
    await expect(page.getByRole('checkbox', { name: 'Pause the logo animation' })).toBeHidden();
  });
});

test.describe('theme switch', () => {
  test('is dark by default; light, dark and system are stored under "vite-ui-theme" and set the class on <html>', async ({
    page,
  }) => {
    await page.goto('/');
    const html = page.locator('html');
    const theme = page.getByRole('combobox', { name: 'Theme' });
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(theme).toHaveValue('dark');
    await expect(theme.getByRole('option')).toHaveText(['Light', 'Dark', 'System']);

    await theme.selectOption('light');
    await expect(html).toHaveClass(/\blight\b/);
    await expect(html).not.toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('light');
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#ffffff');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');

    await theme.selectOption('dark');
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(html).not.toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('dark');
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0a0a0a');
  });

  test('the stored choice applies before first paint and the switch shows it after a reload (no flash)', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { classAtParse: string }).classAtParse = document.documentElement.className;
      });
    });
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
    await expect(page.locator('html')).toHaveClass(/\blight\b/);
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { classAtParse: string }).classAtParse)).toMatch(
      /\blight\b/,
    );
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('light');
  });

  test('"system" follows the operating system live', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    const html = page.locator('html');
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
    await expect(html).toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('system');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0a0a0a');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveClass(/\blight\b/);
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#ffffff');
  });

  test('a stored "system" follows the operating system from first paint, with no tap and no script downloaded', async ({
    page,
  }) => {
    await page.route(/\.js$/, () => undefined);
    await page.addInitScript(() => localStorage.setItem('vite-ui-theme', 'system'));
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const html = page.locator('html');
    await expect(html).toHaveClass(/\blight\b/);
    await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('system');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveClass(/\bdark\b/);
    await expect(html).not.toHaveClass(/\blight\b/);
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0a0a0a');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveClass(/\blight\b/);
  });

  test('a chosen light or dark stays as chosen when the operating system switches', async ({ page }) => {
    await page.route(/\.js$/, () => undefined);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
    const html = page.locator('html');
    await expect(html).toHaveClass(/\blight\b/);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await nextFrames(page);
    await expect(html).toHaveClass(/\blight\b/);
    expect(await page.evaluate(() => localStorage.getItem('vite-ui-theme'))).toBe('light');
  });
});

test.describe('tooltips', () => {
  /**
   * The page, once its tooltips island is live, with its clock stopped: runFor moves it on. The island starts at the
   * first interaction with a control that has a tooltip; a touch starts it here without hovering or focusing any.
   */
  async function withClock(page: Page, scrollTo: 'top' | 'footer'): Promise<void> {
    await page.clock.install();
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await enhanced(page);
    await page.locator('.tooltip-anchor').first().dispatchEvent('pointerdown', { pointerType: 'touch' });
    await expect(page.locator('site-island[data-island="tooltips"]')).toHaveAttribute('data-hydrated', '');
    if (scrollTo === 'footer') {
      // The scroll applies the full stylesheet, which lays the footer out again: point at the links after that, and
      // once the footer's columns, rendered as they come near the viewport (content-visibility: auto), stand still.
      const socials = page.getByRole('list', { name: 'Social media' });
      await socials.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await settled(page);
      await scrolledTo(socials);
    }
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  }

  async function pointAt(page: Page, target: Locator): Promise<void> {
    const box = (await target.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  }

  test(`a social link's tooltip opens after ${TOOLTIP.openDelayMs} ms of hover and describes the link`, async ({
    page,
  }) => {
    await withClock(page, 'footer');
    const link = page.getByRole('link', { name: 'Instagram', exact: true });
    await expect(link).toHaveAccessibleDescription('Follow us on Instagram');
    const tooltip = page.getByRole('tooltip', { name: 'Follow us on Instagram' });
    await pointAt(page, link);
    await page.clock.runFor(TOOLTIP.openDelayMs - 1);
    await expect(tooltip).toBeHidden();
    await page.clock.runFor(2);
    await expect(tooltip).toBeVisible();
    await page.mouse.move(5, 5);
    await expect(tooltip).toBeHidden();
  });

  test(`another tooltip opens at once within ${TOOLTIP.skipDelayMs} ms of one closing, and waits again after`, async ({
    page,
  }) => {
    await withClock(page, 'footer');
    const [instagram, facebook, youtube] = ['Instagram', 'Facebook', 'YouTube'].map((name) =>
      page.getByRole('link', { name, exact: true }),
    );
    await pointAt(page, instagram!);
    await page.clock.runFor(TOOLTIP.openDelayMs + 1);
    await expect(page.getByRole('tooltip', { name: 'Follow us on Instagram' })).toBeVisible();

    // Straight on to the next icon: no wait.
    await pointAt(page, facebook!);
    await expect(page.getByRole('tooltip', { name: 'Follow us on Instagram' })).toBeHidden();
    await expect(page.getByRole('tooltip', { name: 'Follow us on Facebook' })).toBeVisible();

    // Away, then back within the skip delay: at once.
    await page.mouse.move(5, 5);
    await page.clock.runFor(TOOLTIP.skipDelayMs - 1);
    await pointAt(page, youtube!);
    await expect(page.getByRole('tooltip', { name: 'Follow us on YouTube' })).toBeVisible();

    // Away for longer than the skip delay: the full open delay again.
    await page.mouse.move(5, 5);
    await page.clock.runFor(TOOLTIP.skipDelayMs + 1);
    await pointAt(page, instagram!);
    const tooltip = page.getByRole('tooltip', { name: 'Follow us on Instagram' });
    await page.clock.runFor(TOOLTIP.openDelayMs - 1);
    await expect(tooltip).toBeHidden();
    await page.clock.runFor(2);
    await expect(tooltip).toBeVisible();
  });

  test('keyboard focus shows a tooltip at once and Escape closes it', async ({ page }) => {
    await withClock(page, 'footer');
    // From the footer's logo link, Tab on to the first social link.
    await page
      .getByRole('contentinfo')
      .getByRole('link', { name: /, home$/ })
      .focus();
    await page.keyboard.press('Tab');
    const instagram = page.getByRole('link', { name: 'Instagram', exact: true });
    await expect(instagram).toBeFocused();
    const tooltip = page.getByRole('tooltip', { name: 'Follow us on Instagram' });
    await expect(tooltip).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tooltip).toBeHidden();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('tooltip', { name: 'Follow us on Facebook' })).toBeVisible();
  });

  test('the theme switch has a tooltip too, with the same delay, inside the window', async ({ page }) => {
    await withClock(page, 'top');
    const theme = page.getByRole('combobox', { name: 'Theme' });
    const hint = 'Choose a light or dark theme, or follow your device';
    await expect(theme).toHaveAccessibleDescription(hint);
    const tooltip = page.getByRole('tooltip', { name: hint });
    await pointAt(page, theme);
    await page.clock.runFor(TOOLTIP.openDelayMs - 1);
    await expect(tooltip).toBeHidden();
    await page.clock.runFor(2);
    await expect(tooltip).toBeVisible();
    const box = (await tooltip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(DESKTOP.width);
    await page.keyboard.press('Escape');
    await expect(tooltip).toBeHidden();
  });
});
