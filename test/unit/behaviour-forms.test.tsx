// Part B of issue 4 without a browser: FAQ keys and disabled items, the forms' markup, the Button's loading state, hotkeys, islands.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderPage } from '../../src/pipeline/render.tsx';
import type { Route } from '../../src/core/routes.ts';
import { Button } from '../../src/site/components/Button.tsx';
import { ContactForm } from '../../src/site/components/ContactForm.tsx';
import { Faq } from '../../src/site/components/Faq.tsx';
import { NewsletterForm } from '../../src/site/components/NewsletterForm.tsx';
import { matchesHotkey } from '../../src/site/lib/hotkeys.ts';
import { nextIndex } from '../../src/site/lib/roving.ts';
import { routes } from '../../src/site/routes.tsx';
import { loadContent, loadSite, render, textOf } from '../helpers/dom.ts';

const content = await loadContent();
const site = loadSite();
const { copy } = content;

// ---------------------------------------------------------------------------------------------------------------

const keys = suite('nextIndex (FAQ keyboard)');

keys('ArrowDown and ArrowUp step through the list and wrap around at both ends', () => {
  assert.is(nextIndex('ArrowDown', 0, 7), 1);
  assert.is(nextIndex('ArrowDown', 6, 7), 0, 'down from the last goes to the first');
  assert.is(nextIndex('ArrowUp', 3, 7), 2);
  assert.is(nextIndex('ArrowUp', 0, 7), 6, 'up from the first goes to the last');
});

keys('Home and End jump to the first and the last', () => {
  assert.is(nextIndex('Home', 4, 7), 0);
  assert.is(nextIndex('End', 1, 7), 6);
});

keys('other keys do not navigate, and an empty list has nowhere to go', () => {
  for (const key of ['Enter', ' ', 'Tab', 'ArrowLeft', 'ArrowRight', 'a']) assert.is(nextIndex(key, 2, 7), null, key);
  assert.is(nextIndex('ArrowDown', 0, 0), null);
});

keys.run();

// ---------------------------------------------------------------------------------------------------------------

const hotkeys = suite('matchesHotkey');

const key = (init: Partial<KeyboardEvent>) => ({
  key: '',
  code: '',
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...init,
});

hotkeys(
  'Alt+T matches by the physical key, so it also works where Alt+T types another character (a Mac types †)',
  () => {
    assert.ok(matchesHotkey(key({ key: 't', code: 'KeyT', altKey: true }), 'Alt+T'));
    assert.ok(matchesHotkey(key({ key: '†', code: 'KeyT', altKey: true }), 'Alt+T'));
  },
);

hotkeys('Alt+T needs Alt and no other modifier', () => {
  assert.not.ok(matchesHotkey(key({ key: 't', code: 'KeyT' }), 'Alt+T'), 'T alone is typing, not the hotkey');
  assert.not.ok(matchesHotkey(key({ key: 't', code: 'KeyT', altKey: true, ctrlKey: true }), 'Alt+T'));
  assert.not.ok(matchesHotkey(key({ key: 'r', code: 'KeyR', altKey: true }), 'Alt+T'));
});

hotkeys('F8 matches the key F8 alone', () => {
  assert.ok(matchesHotkey(key({ key: 'F8', code: 'F8' }), 'F8'));
  assert.not.ok(matchesHotkey(key({ key: 'F8', code: 'F8', shiftKey: true }), 'F8'));
  assert.not.ok(matchesHotkey(key({ key: 'F7', code: 'F7' }), 'F8'));
});

hotkeys.run();

// ---------------------------------------------------------------------------------------------------------------

const faq = suite('Faq');

faq('each answer is a region named by its question', () => {
  const r = render(<Faq items={content.faq} />);
  for (const item of content.faq) {
    const panel = r.$(`#${item.id}-panel`);
    assert.is(panel.getAttribute('role'), 'region');
    assert.is(textOf(r.document.getElementById(panel.getAttribute('aria-labelledby')!)), item.question);
  }
});

faq(
  'a disabled entry (content schema field `disabled`) is a disabled button on a marked item; the others stay <details>',
  () => {
    const items = content.faq.map((q, i) => (i === 0 || i === 6 ? { ...q, disabled: true } : q));
    const r = render(<Faq items={items} />);
    assert.equal(
      r
        .$$('.accordion-item')
        .map((item) => [item.hasAttribute('data-disabled'), !!item.querySelector('button[disabled]'), item.tagName]),
      items.map((item) => [!!item.disabled, !!item.disabled, item.disabled ? 'DIV' : 'DETAILS']),
    );
  },
);

faq('the schema takes `disabled` as a boolean and rejects anything else', async () => {
  const { faqSchema } = await import('../../content/schema.ts');
  const faqModule = await import('../../content/faq.ts');
  const entries = faqModule.default.map((q, i) => (i === 2 ? { ...q, disabled: true } : q));
  assert.is(faqSchema.parse(entries)[2]!.disabled, true);
  const wrong = faqSchema.safeParse(faqModule.default.map((q, i) => (i === 2 ? { ...q, disabled: 'yes' } : q)));
  assert.not.ok(wrong.success, 'disabled: "yes" is not accepted');
  assert.match(wrong.error!.issues[0]!.path.join('.'), /^2\.disabled$/);
});

faq.run();

// ---------------------------------------------------------------------------------------------------------------

const button = suite('Button');

button('loading: disabled, busy, with a spinner hidden from screen readers, and the label kept', () => {
  const r = render(<Button loading>Send</Button>);
  const el = r.$('button');
  assert.ok(el.hasAttribute('disabled'));
  assert.is(el.getAttribute('aria-busy'), 'true');
  assert.is(r.$('.spinner').getAttribute('aria-hidden'), 'true');
  assert.is(textOf(el), 'Send');
});

button('not loading: enabled, no spinner, no aria-busy', () => {
  const r = render(<Button>Send</Button>);
  assert.not.ok(r.$('button').hasAttribute('disabled'));
  assert.not.ok(r.$('button').hasAttribute('aria-busy'));
  assert.is(r.$$('.spinner').length, 0);
});

button.run();

// ---------------------------------------------------------------------------------------------------------------

const forms = suite('Forms');

forms('the contact form: submit does nothing without its script (method dialog, no action), terms not required', () => {
  const r = render(<ContactForm copy={copy.contact} />);
  const form = r.$('form');
  assert.is(form.getAttribute('method'), 'dialog', 'a GET would put every field into a URL sent to the server');
  assert.not.ok(form.hasAttribute('action'));
  assert.not.ok(form.hasAttribute('novalidate'), 'the browser checks the fields');
  assert.not.ok(r.$('#termsAccepted').hasAttribute('required'), 'the terms get a toast, not the browser message');
});

forms('the contact form while sending: the shared Button in its loading state, saying Sending...', () => {
  const r = render(<ContactForm copy={copy.contact} sending />);
  const submit = r.$('button[type="submit"]');
  assert.ok(submit.hasAttribute('disabled'));
  assert.ok(submit.querySelector('.spinner'));
  assert.is(textOf(submit), copy.contact.sending);
});

forms('the newsletter form: method dialog, one required e-mail field', () => {
  const r = render(<NewsletterForm copy={copy.footer.newsletter} labelledBy="t" />);
  assert.is(r.$('form').getAttribute('method'), 'dialog');
  assert.is(r.$('input').getAttribute('type'), 'email');
  assert.ok(r.$('input').hasAttribute('required'));
});

forms("the toast texts are the spec's", () => {
  assert.equal(copy.contact.toasts.termsMissing, {
    title: 'Terms not accepted',
    description: 'Please accept the terms and conditions to proceed.',
  });
  assert.equal(copy.contact.toasts.sent, {
    title: 'Message sent!',
    description: "We'll get back to you as soon as possible.",
  });
  assert.equal(copy.footer.newsletter.toast, {
    title: 'Thank you for subscribing!',
    description: "You've been added to our newsletter.",
  });
});

forms.run();

// ---------------------------------------------------------------------------------------------------------------

const islands = suite('Islands of part B');

function page(path: string) {
  const route = routes.find((r) => r.path === path)!;
  return renderPage(route as unknown as Route, { site, content, path });
}

islands(
  'the home page: the newsletter hydrates when visible, the toast regions when a form that toasts is reached; the FAQ is no island',
  () => {
    const { islands: uses, html } = page('/');
    const strategy = (name: string) => uses.filter((u) => u.name === name).map((u) => u.hydrate);
    assert.equal(strategy('faq'), [], 'the FAQ is <details>: nothing to hydrate');
    assert.not.match(html, /data-island="faq"/);
    assert.equal(strategy('newsletter'), ['visible']);
    assert.equal(strategy('toasts'), ['interaction']);
    assert.equal(strategy('contact-form'), []);
    assert.match(
      html,
      /<site-island data-island="toasts" data-hydrate="interaction" data-id="[^"]+" data-targets="form\.contact-form, form\.newsletter"/,
      'the forms that toast are its targets',
    );
  },
);

islands(
  'the contact page: the form hydrates at the first interaction; every page has the newsletter and the toast regions',
  () => {
    assert.equal(
      page('/contact')
        .islands.filter((u) => u.name === 'contact-form')
        .map((u) => u.hydrate),
      ['interaction'],
    );
    for (const path of ['/', '/contact', '/404']) {
      const names = page(path).islands.map((u) => u.name);
      assert.ok(names.includes('newsletter') && names.includes('toasts'), `${path} has the newsletter and the toasts`);
    }
  },
);

islands(
  'the toast regions add nothing to the HTML before a toast is needed; the FAQ is in the HTML once, as markup only',
  () => {
    const { html } = page('/');
    const toasts = /<site-island data-island="toasts"[^>]*>([\s\S]*?)<\/site-island>/.exec(html);
    assert.ok(toasts, 'the toasts island is on the page');
    assert.is(toasts![1], '', 'no markup until the first toast');
    assert.is(html.match(/<details class="accordion-item">/g)?.length, 7);
    const question = content.faq[0]!.question.replace(/'/g, '&#x27;');
    assert.is(html.split(question).length - 1, 1, 'each question once: no island props repeat it');
  },
);

islands('the hydrated markup stays CSP-safe: no style attributes or inline handlers', () => {
  for (const path of ['/', '/contact']) {
    const { html } = page(path);
    assert.not.match(html, /\sstyle="/, `${path}: no style attributes`);
    assert.not.match(html, /\son[a-z]+="/, `${path}: no inline event handlers`);
  }
});

islands.run();
