// Navigation and motion, the parts that need no browser: theme choice and its agreement with the head script, the
// tooltip clock, the server markup the behaviours hook into, and the CSS constants against src/site/constants.ts.
import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FaqSection } from '../../src/site/components/FaqSection.tsx';
import { Hero } from '../../src/site/components/Hero.tsx';
import { Services } from '../../src/site/components/Services.tsx';
import { SocialLinks } from '../../src/site/components/SocialLinks.tsx';
import { ThemeSwitch } from '../../src/site/components/ThemeSwitch.tsx';
import {
  FAQ_INTRO_DELAY_MS,
  HERO_BUTTONS_DELAY_MS,
  HERO_PARAGRAPH_DELAY_MS,
  LOGO_STRIP,
  SERVICE_CARD_DELAY_BASE_MS,
  SERVICE_CARD_DELAY_STEP_MS,
  TOOLTIP,
} from '../../src/site/constants.ts';
import { themeScript } from '../../src/site/head.ts';
import { applyTheme, parseChoice, resolveTheme, THEME_CHOICES } from '../../src/site/lib/theme.ts';
import { createTooltipTiming } from '../../src/site/lib/tooltip-timing.ts';
import { loadContent, loadSite, render, textOf } from '../helpers/dom.ts';
import { renderHeader, themePropsOf } from '../helpers/header.tsx';

const content = await loadContent();
const site = loadSite();
const { copy, navigation, theme: siteTheme, company } = content;
const themeProps = themePropsOf(siteTheme, copy);
const css = (file: string) => readFileSync(new URL(`../../src/site/styles/${file}`, import.meta.url), 'utf8');

const theme = suite('Theme choice');

theme('a stored light, dark or system is kept; anything else (or nothing) is the default', () => {
  for (const choice of THEME_CHOICES) assert.is(parseChoice(choice, 'dark'), choice);
  assert.is(parseChoice(null, 'dark'), 'dark');
  assert.is(parseChoice('sepia', 'dark'), 'dark');
  assert.is(parseChoice('', 'system'), 'system');
});

theme("system resolves to the operating system's scheme; light and dark to themselves", () => {
  assert.is(resolveTheme('system', true), 'dark');
  assert.is(resolveTheme('system', false), 'light');
  assert.is(resolveTheme('light', true), 'light');
  assert.is(resolveTheme('dark', false), 'dark');
});

/** Runs the inline head script against a stored value and an OS scheme; returns the <html> classes and theme-color it leaves. */
function runHeadScript(stored: string | null, systemDark: boolean, storageThrows = false) {
  const { document } = parseHTML(
    '<!doctype html><html class="dark"><head><meta name="theme-color" content="#0a0a0a"></head><body></body></html>',
  );
  const storage = {
    getItem: (key: string) =>
      storageThrows
        ? (() => {
            throw new Error('denied');
          })()
        : key === siteTheme.storageKey
          ? stored
          : null,
  };
  new Function('document', 'localStorage', 'matchMedia', themeScript(siteTheme))(document, storage, () => ({
    matches: systemDark,
  }));
  return {
    classes: document.documentElement.className,
    color: document.querySelector('meta[name="theme-color"]')!.getAttribute('content'),
  };
}

/** Runs applyTheme on a fresh document, as the switch does once the visitor chooses. */
function runApplyTheme(choice: (typeof THEME_CHOICES)[number], systemDark: boolean) {
  const { document } = parseHTML(
    '<!doctype html><html class="dark"><head><meta name="theme-color" content="#0a0a0a"></head><body></body></html>',
  );
  const globals = globalThis as unknown as { document?: unknown; window?: unknown };
  const saved = { document: globals.document, window: globals.window };
  globals.document = document;
  globals.window = { matchMedia: () => ({ matches: systemDark }) };
  try {
    applyTheme(choice, siteTheme.colors);
  } finally {
    globals.document = saved.document;
    globals.window = saved.window;
  }
  return {
    classes: document.documentElement.className,
    color: document.querySelector('meta[name="theme-color"]')!.getAttribute('content'),
  };
}

theme('the switch leaves <html> as the head script does, for every stored value and OS scheme', () => {
  for (const systemDark of [true, false]) {
    for (const choice of THEME_CHOICES) {
      assert.equal(
        runApplyTheme(choice, systemDark),
        runHeadScript(choice, systemDark),
        `choice ${choice}, OS ${systemDark ? 'dark' : 'light'}`,
      );
    }
    const fallback = parseChoice('nonsense', siteTheme.default);
    assert.equal(
      runApplyTheme(fallback, systemDark),
      runHeadScript('nonsense', systemDark),
      'an unknown stored value is the default',
    );
    assert.equal(
      runApplyTheme(fallback, systemDark),
      runHeadScript(null, systemDark, true),
      'storage that throws is the default',
    );
  }
  assert.equal(runHeadScript(null, false), { classes: 'dark', color: siteTheme.colors.dark }, 'dark by default');
});

theme.run();

const timing = suite('Tooltip timing');

timing(`waits ${TOOLTIP.openDelayMs} ms before the first tooltip`, () => {
  const clock = createTooltipTiming();
  assert.is(clock.openDelay(10_000), TOOLTIP.openDelayMs);
});

timing(`opens at once within ${TOOLTIP.skipDelayMs} ms of another closing, and waits again after that`, () => {
  const clock = createTooltipTiming();
  clock.closed(1000);
  assert.is(clock.openDelay(1000), 0);
  assert.is(clock.openDelay(1000 + TOOLTIP.skipDelayMs - 1), 0);
  assert.is(clock.openDelay(1000 + TOOLTIP.skipDelayMs), TOOLTIP.openDelayMs);
  assert.is(clock.openDelay(1000 + TOOLTIP.skipDelayMs + 1), TOOLTIP.openDelayMs);
});

timing('each clock keeps its own time', () => {
  const a = createTooltipTiming();
  const b = createTooltipTiming();
  a.closed(500);
  assert.is(a.openDelay(600), 0);
  assert.is(b.openDelay(600), TOOLTIP.openDelayMs);
});

timing.run();

const markup = suite('Server markup of the header, theme switch and tooltips');

const renderHeaderAt = (path: string) => renderHeader(site, content, path);

markup('the header starts unscrolled, its menu a link to the no-JS panel of six links', () => {
  const r = renderHeaderAt('/');
  assert.is(r.$('header').getAttribute('data-scrolled'), 'false');
  const button = r.$('.menu-button');
  assert.is(button.tagName.toLowerCase(), 'a', 'a link until hydrated, so it works without JavaScript');
  assert.is(button.getAttribute('href'), '#site-menu');
  assert.is(r.$$('#site-menu a').length, 1 + navigation.menu.length + 1, 'close, the sections, Book Appointment');
});

markup('the theme switch is a select named Theme with light, dark and system, described by its tooltip', () => {
  const r = render(<ThemeSwitch {...themeProps} />);
  const select = r.$('select');
  const label = r.$(`label[for="${select.id}"]`);
  assert.is(textOf(label), 'Theme');
  assert.equal(
    r.$$('option').map((o) => [o.getAttribute('value'), textOf(o)]),
    [
      ['light', 'Light'],
      ['dark', 'Dark'],
      ['system', 'System'],
    ],
  );
  const tooltip = r.$(`#${CSS_escape(select.getAttribute('aria-describedby')!)}`);
  assert.is(tooltip.getAttribute('role'), 'tooltip');
  assert.is(textOf(tooltip), copy.ui.theme.hint);
  assert.not.ok(tooltip.hasAttribute('data-open'), 'closed in the HTML');
});

markup('on the server the switch shows the default, and leaves the stored choice to the browser', () => {
  const r = render(<ThemeSwitch {...themeProps} />);
  assert.is(r.$('option[selected]').getAttribute('value'), siteTheme.default);
  assert.not.ok(
    r.$('.theme-icons').hasAttribute('data-choice'),
    "the icon follows the head script's class until hydrated",
  );
  assert.is(r.$('.theme-icons').getAttribute('aria-hidden'), 'true');
});

markup('each social link is described by its own tooltip, "Follow us on" its platform', () => {
  const r = render(<SocialLinks items={company.socials} label={copy.ui.socialNav} hint={copy.ui.socialHint} />);
  const links = r.$$('a');
  assert.is(links.length, company.socials.length);
  const ids = new Set<string>();
  for (const [index, link] of links.entries()) {
    const id = link.getAttribute('aria-describedby')!;
    ids.add(id);
    assert.is(textOf(r.$(`#${CSS_escape(id)}`)), `Follow us on ${company.socials[index]!.label}`);
  }
  assert.is(ids.size, links.length, 'one tooltip per link');
});

markup.run();

const motion = suite('Entrance animation markup and CSS constants');

motion('service cards are marked to fade in 100 ms + 100 ms x index', () => {
  const r = render(<Services items={content.services} copy={copy.services} />);
  const delays = r.$$('.services-grid > li').map((li) => Number(li.getAttribute('data-reveal')));
  assert.equal(
    delays,
    content.services.map((_, i) => SERVICE_CARD_DELAY_BASE_MS + SERVICE_CARD_DELAY_STEP_MS * i),
  );
  assert.is(r.$$('[data-reveal-state]').length, 0, 'nothing hidden in the HTML');
  assert.is(r.$$('article.service-card[data-glow]').length, content.services.length, 'every card glows');
});

motion(`the FAQ intro is marked to fade in after ${FAQ_INTRO_DELAY_MS} ms, and only it`, () => {
  const r = render(<FaqSection items={content.faq} copy={copy.faq} />);
  assert.equal(
    r.$$('[data-reveal]').map((el) => [textOf(el), el.getAttribute('data-reveal')]),
    [[copy.faq.intro, String(FAQ_INTRO_DELAY_MS)]],
  );
});

motion('the hero animates in CSS only: no marks a script would have to hide', () => {
  const r = render(<Hero copy={copy.hero} />);
  assert.is(r.$$('[data-reveal]').length, 0);
});

motion(
  `hero.css delays the paragraph ${HERO_PARAGRAPH_DELAY_MS} ms and the buttons ${HERO_BUTTONS_DELAY_MS} ms, only where scripts run and motion is welcome`,
  () => {
    const hero = css('hero.css');
    const block = hero.slice(hero.indexOf('@media (scripting: enabled) and (prefers-reduced-motion: no-preference)'));
    assert.ok(block.length < hero.length, 'the animations sit in the scripting + no-preference media block');
    assert.match(
      block,
      new RegExp(`\\.hero-text \\{\\s*animation: hero-rise [^;]* ${HERO_PARAGRAPH_DELAY_MS}ms both;`),
    );
    assert.match(
      block,
      new RegExp(`\\.hero-actions \\{\\s*animation: hero-rise [^;]* ${HERO_BUTTONS_DELAY_MS}ms both;`),
    );
  },
);

motion('reveal.css hides only while motion is welcome, and delays by --reveal-delay', () => {
  const reveal = css('reveal.css');
  assert.ok(
    reveal.indexOf('@media (prefers-reduced-motion: no-preference)') < reveal.indexOf('[data-reveal-state="hidden"]'),
  );
  assert.match(reveal, /transition-delay: var\(--reveal-delay/);
});

motion(
  `partners.css loops the strip every ${LOGO_STRIP.loopSeconds} s, ${LOGO_STRIP.direction}, ${LOGO_STRIP.gapPx} px apart, logos ${LOGO_STRIP.logoHeightPx} px high`,
  () => {
    const partners = css('partners.css');
    assert.match(partners, new RegExp(`--marquee-gap: ${LOGO_STRIP.gapPx}px;`));
    assert.match(partners, new RegExp(`--marquee-duration: ${LOGO_STRIP.loopSeconds}s;`));
    assert.match(
      partners,
      new RegExp(`animation: marquee var\\(--marquee-duration\\) linear infinite ${LOGO_STRIP.direction};`),
    );
    assert.match(partners, new RegExp(`\\.marquee-track img \\{[^}]*height: ${LOGO_STRIP.logoHeightPx}px;`));
  },
);

motion.run();

/** CSS.escape for ids from useId (they hold characters a selector must escape). */
function CSS_escape(id: string): string {
  return id.replace(/[^\w-]/g, (c) => `\\${c}`);
}
