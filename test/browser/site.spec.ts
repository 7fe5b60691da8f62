// The built site in a browser: texts, anchors, link targets, the responsive layout, reading without JavaScript, and axe.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, gotoWithTheme, settled, test } from './fixtures.ts';

const PAGES = [
  { name: 'home', path: '/' },
  { name: 'contact', path: '/contact' },
  { name: 'not-found', path: '/no-such-page' },
] as const;
const THEMES = ['dark', 'light'] as const;
const NOT_FOUND_LOG =
  /404 Error: User attempted to access non-existent route:|Failed to load resource: the server responded with a status of 404/;

/** Distinct left edges of the service cards: the number of grid columns. */
async function serviceColumns(page: Page): Promise<number> {
  const lefts = await page
    .locator('#services .service-card')
    .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().left)));
  return new Set(lefts).size;
}

/** WCAG contrast ratio of two opaque "rgb(r, g, b)" colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+/g) ?? [])
      .slice(0, 3)
      .map((v) => Number(v) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/** Opens the header menu: a link to the panel without JavaScript, a button once the menu is interactive. */
async function openMenu(page: Page): Promise<void> {
  await page
    .getByRole('link', { name: /menu/i })
    .or(page.getByRole('button', { name: /menu/i }))
    .first()
    .click();
}

async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

test.describe('home page', () => {
  test('shows every text the spec quotes', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('MUSIC IS THE ART, YOUR SUCCESS IS OUR BUSINESS');
    for (const heading of [
      'WHO WE ARE',
      'WHAT WE DO',
      'INDUSTRY NETWORKS YOU CAN TRUST',
      'Frequently Asked Questions',
      'READY TO GET STARTED',
      'ELEVATE YOUR SOUND AMPLIFY YOUR REACH',
    ]) {
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
    const main = page.getByRole('main');
    for (const text of [
      'Our Network',
      'Questions & Answers',
      'Take Action',
      'Get answers to some of the most common questions artists have about navigating the music industry.',
    ]) {
      await expect(main.getByText(text, { exact: true })).toBeVisible();
    }
    const footer = page.getByRole('contentinfo');
    for (const text of ['Guiding your music through smart business', 'Quick Links', 'Stay Connected']) {
      await expect(footer.getByText(text, { exact: true })).toBeVisible();
    }
  });

  test('shows the six services with five bullets each and seven questions', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const titles = [
      'RECORD LABEL SERVICES',
      'MUSIC PRODUCTION',
      'ARTIST DEVELOPMENT',
      'MUSIC PUBLISHING',
      'BUSINESS CONSULTING',
      'VIDEO PRODUCTION',
    ];
    // innerText: the record label card also carries its mobile title, hidden from 768 px.
    await expect(page.locator('#services h3')).toHaveText(titles, { useInnerText: true });
    for (const title of titles)
      await expect(page.getByRole('article', { name: title }).getByRole('listitem')).toHaveCount(5);
    await expect(page.locator('#faq details > summary')).toHaveCount(7);
  });

  test('has the anchors in the spec order, top to bottom', async ({ page }) => {
    await page.goto('/');
    const order = ['home', 'about', 'services', 'partners', 'faq', 'cta', 'contact'];
    const tops = await page.evaluate(
      (ids) => ids.map((id) => document.getElementById(id)!.getBoundingClientRect().top + window.scrollY),
      order,
    );
    expect(
      tops.every((top, i) => i === 0 || top > tops[i - 1]!),
      `anchors ${order.join(', ')} appear in that order`,
    ).toBe(true);
  });

  test('links point where the spec says', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/');
    const hero = page.locator('#home');
    await expect(hero.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/contact');
    await expect(hero.getByRole('link', { name: 'Book an Appointment' })).toHaveAttribute('href', '/contact');
    const about = page.locator('#about');
    await expect(about.getByRole('link', { name: 'Learn More' })).toHaveAttribute('href', '#services');
    await expect(about.getByRole('link', { name: 'Book an Appointment' })).toHaveAttribute('href', '#contact');
    const services = page.locator('#services');
    await expect(services.getByRole('link', { name: 'Learn more' })).toHaveCount(6);
    for (const link of await services.getByRole('link', { name: 'Learn more' }).all())
      await expect(link).toHaveAttribute('href', '#contact');
    await expect(services.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '#contact');
    const cta = page.locator('#cta');
    await expect(cta.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    await expect(cta.getByRole('link', { name: 'Book Appointment' })).toHaveAttribute('href', '/contact');
    const quick = page.getByRole('navigation', { name: 'Quick Links' }).getByRole('link');
    await expect(quick).toHaveText(['Home', 'About Us', 'Services', 'FAQ']);
    expect(await quick.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/',
      '/#about',
      '/#services',
      '/#faq',
    ]);
    const socials = page.getByRole('list', { name: 'Social media' }).getByRole('link');
    await expect(socials).toHaveCount(4);
    for (const name of ['Instagram', 'Facebook', 'YouTube', 'X'])
      await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Privacy Policy' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Terms of Service' })).toBeVisible();
  });

  test('Get Started opens the contact page', async ({ page }) => {
    await page.goto('/');
    await page.locator('#home').getByRole('link', { name: 'Get Started' }).click();
    await expect(page).toHaveURL(/\/contact\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'CONTACT US' })).toBeVisible();
  });

  test('the menu lists the sections and Book Appointment, and a menu link scrolls to its section', async ({ page }) => {
    await page.goto('/');
    await openMenu(page);
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu.getByRole('listitem')).toHaveText(['Home', 'About', 'Services', 'Resources', 'FAQ']);
    await expect(menu.getByRole('link', { name: 'Resources' })).toHaveAttribute('href', '#partners');
    await expect(menu.getByRole('link', { name: 'Book Appointment' })).toHaveAttribute('href', '#cta');
    await menu.getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/#faq$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Frequently Asked Questions' })).toBeInViewport();
  });

  test("the copyright shows the visitor's current year, even for a site built in an earlier year", async ({ page }) => {
    await page.clock.setFixedTime(new Date('2031-06-15T12:00:00Z'));
    await page.goto('/');
    await expect(page.getByRole('contentinfo').getByText(/^© 2031 .+ All rights reserved\.$/)).toBeVisible();
  });

  test('loads the self-hosted display and body fonts', async ({ page }) => {
    await page.goto('/');
    // The faces come with the full stylesheet, added after the first paint: until then `document.fonts.ready` may
    // already have resolved with the fallbacks alone, so ask again until the web fonts are there.
    await expect
      .poll(() =>
        page.evaluate(async () => {
          await document.fonts.ready;
          return [...document.fonts]
            .filter((face) => face.status === 'loaded')
            .map((face) => face.family.replace(/"/g, ''));
        }),
      )
      .toEqual(expect.arrayContaining(['Anton', 'Inter']));
  });
});

test.describe('responsive layout', () => {
  for (const [width, columns] of [
    [360, 1],
    [800, 2],
    [1280, 3],
  ] as const) {
    test(`the services grid has ${columns} column${columns > 1 ? 's' : ''} at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      // The services section is below the first screen: its layout comes with the full stylesheet, after the first paint.
      await expect.poll(() => serviceColumns(page)).toBe(columns);
    });
  }

  test('under 768 px: the mobile service title, no About outline button; from 768 px the opposite', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 767, height: 900 });
    await page.goto('/');
    const card = page.locator('#service-record-label-title');
    await expect(card).toHaveText('LABEL SERVICES', { useInnerText: true });
    await expect(page.locator('#about').getByRole('link', { name: 'Book an Appointment' })).toBeHidden();
    await page.setViewportSize({ width: 768, height: 900 });
    await expect(card).toHaveText('RECORD LABEL SERVICES', { useInnerText: true });
    await expect(page.locator('#about').getByRole('link', { name: 'Book an Appointment' })).toBeVisible();
  });

  test('Quick Links are hidden under 640 px', async ({ page }) => {
    await page.setViewportSize({ width: 639, height: 900 });
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Quick Links' })).toBeHidden();
    await page.setViewportSize({ width: 640, height: 900 });
    await expect(page.getByRole('navigation', { name: 'Quick Links' })).toBeVisible();
  });

  for (const width of [375, 1440]) {
    for (const theme of THEMES) {
      test(`scrolled to the bottom at ${width} px (${theme}), the scroll-to-top button covers neither the copyright line nor the legal links`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 800 });
        for (const path of ['/', '/contact']) {
          await gotoWithTheme(page, path, theme);
          const button = page.getByRole('link', { name: 'Scroll to top' });
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          // The scroll applies the full stylesheet, which styles the footer: scroll to the end it then has.
          await settled(page);
          await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
          await expect(button).toBeVisible();
          // Measure where the button comes to rest, not where its reveal transition has carried it so far.
          await button.evaluate((element) =>
            Promise.all(element.getAnimations().map((animation) => animation.finished)),
          );
          const box = (await button.boundingBox())!;
          const footerBottom = page.locator('.footer-bottom');
          const lines = [
            footerBottom.getByText(/^© \d{4} Soundmark Music Group/),
            footerBottom.getByRole('link', { name: 'Privacy Policy' }),
            footerBottom.getByRole('link', { name: 'Terms of Service' }),
          ];
          for (const line of lines) {
            const other = (await line.boundingBox())!;
            const overlaps =
              box.x < other.x + other.width &&
              other.x < box.x + box.width &&
              box.y < other.y + other.height &&
              other.y < box.y + box.height;
            expect(
              overlaps,
              `${path}: the button ${JSON.stringify(box)} must not cover ${await line.textContent()} ${JSON.stringify(other)}`,
            ).toBe(false);
          }
        }
      });
    }
  }

  for (const { name, path } of PAGES) {
    test(`no horizontal scrolling at 360 px on the ${name} page`, async ({ page, problems }) => {
      problems.allow(NOT_FOUND_LOG);
      await page.setViewportSize({ width: 360, height: 740 });
      await page.goto(path);
      expect(await hasHorizontalScroll(page)).toBe(false);
    });
  }
});

test.describe('contact page', () => {
  test('shows the heading, the introduction and the labelled form', async ({ page }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('CONTACT US');
    await expect(
      page.getByText(
        'Have questions or want to work with us? Fill out the form below and our team will get back to you as soon as possible.',
      ),
    ).toBeVisible();
    for (const label of ['First Name', 'Last Name', 'Email', 'Phone Number', 'Message', 'Attach a File']) {
      await expect(page.getByLabel(label, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel(/I agree to the Terms & Conditions/)).toBeVisible();
    await expect(page.getByLabel('Message', { exact: true })).toHaveAttribute('rows', '4');
    await expect(page.getByRole('button', { name: 'Send Message' })).toBeVisible();
    // At the top of the page the button is hidden (it appears past 400 px), so it is looked up hidden or not.
    await expect(page.getByRole('link', { name: 'Scroll to top', includeHidden: true })).toHaveCount(1);
  });

  test('the menu sends section links to the home page', async ({ page }) => {
    await page.goto('/contact');
    await openMenu(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/#about$/);
    await expect(page.getByRole('heading', { name: 'WHO WE ARE' })).toBeInViewport();
  });
});

test.describe('not-found page', () => {
  test('answers 404 with Oops! Page not found and a way home, compact', async ({ page, problems }) => {
    problems.allow(NOT_FOUND_LOG);
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Scroll to top', includeHidden: true })).toHaveCount(0);
    await expect(page.locator('#cta').getByRole('link')).toHaveText(['Book Appointment']);
  });

  test('logs the path the visitor asked for to the console', async ({ page, problems }) => {
    problems.allow(NOT_FOUND_LOG);
    const logged = page.waitForEvent(
      'console',
      (message) => message.type() === 'error' && message.text().startsWith('404 Error'),
    );
    await page.goto('/some/missing/page');
    expect((await logged).text()).toBe('404 Error: User attempted to access non-existent route: /some/missing/page');
  });

  test('Return to Home goes home', async ({ page, problems }) => {
    problems.allow(NOT_FOUND_LOG);
    await page.goto('/no-such-page');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('MUSIC IS THE ART, YOUR SUCCESS IS OUR BUSINESS');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every section of the home page is readable; each FAQ answer opens and closes on its question', async ({
    page,
  }) => {
    await page.goto('/');
    for (const heading of [
      'WHO WE ARE',
      'WHAT WE DO',
      'INDUSTRY NETWORKS YOU CAN TRUST',
      'Frequently Asked Questions',
      'READY TO GET STARTED',
    ]) {
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
    await expect(page.locator('.hero-text')).toBeVisible();
    await expect(page.locator('.service-card')).toHaveCount(6);
    for (const card of await page.locator('.service-card').all()) await expect(card).toBeVisible();
    for (const item of await page.locator('#faq details').all()) {
      const answer = item.locator('.accordion-panel');
      await expect(answer).toBeHidden();
      await item.locator('summary').click();
      await expect(answer).toBeVisible();
    }
    await page.locator('#faq summary').first().click();
    await expect(page.locator('#faq .accordion-panel').first(), 'closed again; the others stay open').toBeHidden();
    await expect(page.locator('#faq .accordion-panel').nth(1)).toBeVisible();
    await expect(page.getByText(/^© \d{4} .+ All rights reserved\.$/)).toBeVisible();
  });

  test('the menu opens as a panel and its links work', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    const menu = page.getByRole('navigation', { name: 'Main' });
    await expect(menu).toBeHidden();
    await openMenu(page);
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Services' }).click();
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { name: 'WHAT WE DO' })).toBeInViewport();
    await openMenu(page);
    await menu.getByRole('link', { name: 'Close menu' }).click();
    await expect(menu).toBeHidden();
  });

  test('the contact form and the not-found page are readable', async ({ page, problems }) => {
    problems.allow(NOT_FOUND_LOG);
    await page.goto('/contact');
    await expect(page.getByLabel('First Name')).toBeVisible();
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
  });
});

test.describe('accessibility (axe)', () => {
  for (const theme of THEMES) {
    for (const { name, path } of PAGES) {
      test(`the ${name} page has no violations in the ${theme} theme`, async ({ page, problems }) => {
        problems.allow(NOT_FOUND_LOG);
        await gotoWithTheme(page, path, theme);
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`));
        await page.evaluate(() => document.fonts.ready);
        const results = await new AxeBuilder({ page }).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
          [],
        );
      });
    }

    test(`the open menu has no violations in the ${theme} theme`, async ({ page }) => {
      await gotoWithTheme(page, '/', theme);
      await openMenu(page);
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }

  // axe cannot judge text over the decorative gradients (it reports those as "incomplete"), so the palette is checked here.
  for (const theme of THEMES) {
    test(`the ${theme} palette meets WCAG AA contrast`, async ({ page }) => {
      await gotoWithTheme(page, '/', theme);
      const names = [
        'bg',
        'bg-alt',
        'surface',
        'surface-2',
        'text',
        'muted',
        'accent',
        'accent-hover',
        'on-accent',
        'accent-text',
        'focus',
        'input-border',
      ];
      // Each token resolved by the browser to rgb(), by using it as a colour.
      const tokens = await page.evaluate((list) => {
        const probe = document.body.appendChild(document.createElement('span'));
        const resolved = Object.fromEntries(
          list.map((name) => {
            probe.style.color = `var(--${name})`;
            return [name, getComputedStyle(probe).color];
          }),
        );
        probe.remove();
        return resolved;
      }, names);
      const text: Array<[string, string]> = [
        ['text', 'bg'],
        ['text', 'surface'],
        ['text', 'surface-2'],
        ['muted', 'bg'],
        ['muted', 'bg-alt'],
        ['muted', 'surface'],
        ['muted', 'surface-2'],
        ['accent-text', 'bg'],
        ['accent-text', 'bg-alt'],
        ['accent-text', 'surface'],
        ['on-accent', 'accent'],
        ['on-accent', 'accent-hover'],
      ];
      const ui: Array<[string, string]> = [
        ['focus', 'bg'],
        ['focus', 'surface'],
        ['input-border', 'bg'],
        ['input-border', 'surface'],
      ];
      const low = [
        ...text
          .filter(([f, b]) => contrast(tokens[f]!, tokens[b]!) < 4.5)
          .map(([f, b]) => `text ${f} on ${b}: ${contrast(tokens[f]!, tokens[b]!).toFixed(2)}`),
        ...ui
          .filter(([f, b]) => contrast(tokens[f]!, tokens[b]!) < 3)
          .map(([f, b]) => `control ${f} on ${b}: ${contrast(tokens[f]!, tokens[b]!).toFixed(2)}`),
      ];
      expect(
        Object.values(tokens).every((v) => /^rgb\(\d+, \d+, \d+\)$/.test(v)),
        `every token is an opaque colour: ${JSON.stringify(tokens)}`,
      ).toBe(true);
      expect(low).toEqual([]);
    });
  }

  test('the light and dark themes look different', async ({ page }) => {
    const colors: string[] = [];
    for (const theme of THEMES) {
      await gotoWithTheme(page, '/', theme);
      colors.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
    }
    expect(colors).toEqual(['rgb(10, 10, 10)', 'rgb(255, 255, 255)']);
  });
});
