// Navigation and motion, the parts that need no browser: theme choice and its agreement with the head script, the
// tooltip clock, the server markup the behaviours hook into, and the CSS constants against src/site/constants.ts.
import { readFileSync } from 'node:fs';
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
import { themeScript } from '../../src/site/inline/theme.ts';
import { createTooltipTiming } from '../../src/site/lib/tooltip-timing.ts';
import { loadContent, loadSite, render, textOf } from '../helpers/dom.ts';
import { renderHeader, themePropsOf } from '../helpers/header.tsx';

const content = await loadContent();
const site = loadSite();
const { copy, navigation, theme: siteTheme, company } = content;
const themeProps = themePropsOf(siteTheme, copy);
const css = (file: string) => readFileSync(new URL(`../../src/site/styles/${file}`, import.meta.url), 'utf8');

const theme = suite('Theme (the inline head script)');

interface ThemePage {
  classes: () => string;
  color: () => string | null;
  stored: () => string | null;
  /** The visitor picks a choice in the switch. */
  choose: (choice: string) => void;
  /** The operating system switches between light and dark. */
  setSystemDark: (dark: boolean) => void;
  select: () => string;
  icon: () => string | null;
}

/**
 * Runs the inline head script on a page with the switch, a stored value and an OS scheme, as a browser would: the
 * storage, the media query and its change events stubbed; `storageThrows` as where storage is disabled.
 */
function runThemeScript(stored: string | null, systemDark: boolean, storageThrows = false): ThemePage {
  const r = render(<ThemeSwitch {...themeProps} />);
  const { document } = r;
  document.documentElement.className = 'dark';
  const meta = document.createElement('meta');
  meta.setAttribute('name', 'theme-color');
  meta.setAttribute('content', '#0a0a0a');
  document.head.append(meta);
  let value = stored;
  const storage = {
    getItem: (key: string) => {
      if (storageThrows) throw new Error('denied');
      return key === siteTheme.storageKey ? value : null;
    },
    setItem: (key: string, next: string) => {
      if (storageThrows) throw new Error('denied');
      if (key === siteTheme.storageKey) value = next;
    },
  };
  const listeners: Array<() => void> = [];
  const query = {
    matches: systemDark,
    addEventListener: (_: string, listener: () => void) => listeners.push(listener),
  };
  const select = r.$('select') as unknown as { value: string; dispatchEvent: (event: Event) => void };
  // linkedom's select has a read-only value: give it the browser's setter, which selects the matching option.
  const options = r.$$('option');
  Object.defineProperty(select, 'value', {
    get: () => (options.find((o) => o.hasAttribute('selected')) ?? options[0]!).getAttribute('value'),
    set: (next: string) => {
      for (const option of options) option.toggleAttribute('selected', option.getAttribute('value') === next);
    },
  });
  new Function('document', 'localStorage', 'matchMedia', themeScript(siteTheme))(document, storage, () => query);
  return {
    classes: () => document.documentElement.className,
    color: () => meta.getAttribute('content'),
    stored: () => value,
    choose: (choice) => {
      select.value = choice;
      const event = document.createEvent('Event');
      event.initEvent('change', true, false);
      select.dispatchEvent(event);
    },
    setSystemDark: (dark) => {
      query.matches = dark;
      for (const listener of listeners) listener();
    },
    select: () => select.value,
    icon: () => r.$('.theme-icons').getAttribute('data-choice'),
  };
}

const expected = (resolved: 'light' | 'dark') => ({ classes: resolved, color: siteTheme.colors[resolved] });
const shown = (page: ThemePage) => ({ classes: page.classes(), color: page.color() });

theme('a stored light or dark applies as stored, system as the OS is; anything else (or nothing) is dark', () => {
  for (const systemDark of [true, false]) {
    const os = systemDark ? 'dark' : 'light';
    assert.equal(shown(runThemeScript('light', systemDark)), expected('light'), `light, OS ${os}`);
    assert.equal(shown(runThemeScript('dark', systemDark)), expected('dark'), `dark, OS ${os}`);
    assert.equal(shown(runThemeScript('system', systemDark)), expected(os), `system, OS ${os}`);
    assert.equal(shown(runThemeScript('sepia', systemDark)), expected('dark'), `unknown, OS ${os}`);
    assert.equal(shown(runThemeScript(null, systemDark)), expected('dark'), `nothing stored, OS ${os}`);
    assert.equal(shown(runThemeScript(null, systemDark, true)), expected('dark'), `storage disabled, OS ${os}`);
  }
});

theme('the switch shows the stored choice, its icon too', () => {
  const page = runThemeScript('system', false);
  assert.is(page.select(), 'system');
  assert.is(page.icon(), 'system');
});

theme('a choice in the switch is stored under the key, applied and shown', () => {
  const page = runThemeScript(null, true);
  page.choose('light');
  assert.is(page.stored(), 'light');
  assert.equal(shown(page), expected('light'));
  assert.is(page.icon(), null, "a light or dark choice: the icon follows <html>'s class");
  page.choose('system');
  assert.is(page.stored(), 'system');
  assert.equal(shown(page), expected('dark'), 'system on a dark OS');
});

theme('"system" follows the OS as it switches, with no tap; light and dark stay as chosen', () => {
  const system = runThemeScript('system', false);
  system.setSystemDark(true);
  assert.equal(shown(system), expected('dark'));
  system.setSystemDark(false);
  assert.equal(shown(system), expected('light'));
  const light = runThemeScript('light', false);
  light.setSystemDark(true);
  assert.equal(shown(light), expected('light'));
});

theme('with storage disabled a choice lasts for the page: "system" still follows the OS', () => {
  const page = runThemeScript(null, false, true);
  page.choose('system');
  assert.equal(shown(page), expected('light'));
  page.setSystemDark(true);
  assert.equal(shown(page), expected('dark'));
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

markup(
  'the header starts unscrolled; its menu is a button for a <dialog> of six links, a link to it without JavaScript',
  () => {
    const r = renderHeaderAt('/');
    assert.is(r.$('header').getAttribute('data-scrolled'), 'false');
    const button = r.$('button.menu-button');
    assert.is(button.getAttribute('aria-haspopup'), 'dialog');
    assert.is(button.getAttribute('aria-expanded'), 'false');
    assert.is(button.getAttribute('aria-controls'), 'site-menu');
    const dialog = r.$('#site-menu');
    assert.is(dialog.tagName.toLowerCase(), 'dialog', 'the platform gives the modal semantics');
    assert.not.ok(dialog.hasAttribute('open'), 'closed in the HTML');
    assert.is(textOf(r.$(`#${dialog.getAttribute('aria-labelledby')}`)), copy.ui.menuOpen, 'named by its title');
    assert.is(
      r.$$('#site-menu nav a:not(.menu-close)').length,
      navigation.menu.length + 1,
      'the sections, Book Appointment',
    );
    assert.is(r.$('#site-menu button.menu-close').getAttribute('aria-label'), copy.ui.menuClose);
    const fallbacks = r.$$('noscript').map((n) => n.innerHTML);
    assert.ok(
      fallbacks.some((html) => html.includes('href="#site-menu"')),
      'without JavaScript a link opens the dialog as the :target',
    );
    assert.ok(
      fallbacks.some((html) => html.includes('href="#menu-link"')),
      'and a close link goes back to that link',
    );
  },
);

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
    "the icon follows the head script's class until the inline script reads the stored choice",
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
