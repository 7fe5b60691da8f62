// The three pages and their routes: order of sections, landmarks, compact mode, the contact form, the not-found page.
import { createElement } from 'react';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renderPage } from '../../src/pipeline/render.tsx';
import { Layout } from '../../src/site/components/Layout.tsx';
import { routes } from '../../src/site/routes.tsx';
import type { Route } from '../../src/core/routes.ts';
import { linksOf, loadContent, loadSite, render, textOf } from '../helpers/dom.ts';

const content = await loadContent();
const site = loadSite();

function route(path: string): Route<typeof content> {
  const found = routes.find((r) => r.path === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
}

function renderRoute(path: string) {
  return render(createElement(route(path).page, { site, content, path }));
}

/** Things a strict CSP forbids in the markup. */
function assertCspSafe(html: string) {
  assert.not.match(html, /\sstyle="/, 'no style attributes');
  assert.not.match(html, /\son[a-z]+="/, 'no inline event handlers');
  assert.not.match(html, /<script/, 'no scripts in the page body');
}

/** The frame every page shares. */
function assertFrame(r: ReturnType<typeof render>) {
  const skip = r.$('body > a:first-child');
  assert.is(textOf(skip), 'Skip to content', 'the skip link comes first');
  assert.is(skip.getAttribute('href'), '#main');
  assert.ok(r.$('main#main'), 'the skip link target is <main>');
  assert.is(r.$$('header').length, 1);
  assert.is(r.$$('main').length, 1);
  assert.is(r.$$('footer').length, 1);
  assert.is(r.$$('h1').length, 1, 'one h1 per page');
}

const home = suite('Home page');

home('has the sections in the spec order, with their anchors', () => {
  const r = renderRoute('/');
  const ids = r.$$('main > section').map((s) => s.id || s.className);
  assert.equal(ids, ['home', 'about', 'services', 'partners', 'faq', 'banner', 'cta']);
  const anchors = r
    .$$('[id]')
    .map((el) => el.id)
    .filter((id) => ['home', 'about', 'services', 'partners', 'faq', 'cta', 'contact'].includes(id));
  assert.equal(anchors, ['home', 'about', 'services', 'partners', 'faq', 'cta', 'contact']);
});

home('has the frame: skip link, one header, main, footer, one h1, and the scroll-to-top button', () => {
  const r = renderRoute('/');
  assertFrame(r);
  assert.is(r.text('h1'), 'MUSIC IS THE ART, YOUR SUCCESS IS OUR BUSINESS');
  const toTop = r.$('.to-top');
  assert.is(toTop.getAttribute('aria-label'), 'Scroll to top');
  assert.is(toTop.getAttribute('href'), '#', '"#" is the top of the document, without JavaScript too');
});

home('shows the full call to action (not compact)', () => {
  const r = renderRoute('/');
  assert.ok(r.$('#cta .cta-text'));
  assert.equal(
    linksOf(r.$('#cta')).map(([t]) => t),
    ['Contact Us', 'Book Appointment'],
  );
});

home('every in-page link points at an element of the page', () => {
  const r = renderRoute('/');
  const ids = new Set(r.$$('[id]').map((el) => el.id));
  for (const [text, href] of linksOf(r.document)) {
    if (href?.startsWith('#') && href.length > 1)
      assert.ok(ids.has(href.slice(1)), `"${text}" -> ${href} has a target`);
  }
});

home('no ids repeat', () => {
  const r = renderRoute('/');
  const ids = r.$$('[id]').map((el) => el.id);
  assert.equal(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
  );
});

home('is safe under a strict CSP', () => {
  assertCspSafe(renderRoute('/').html);
});

home.run();

const contact = suite('Contact page');

contact('shows CONTACT US, the introduction, the form, the footer and the scroll-to-top button', () => {
  const r = renderRoute('/contact');
  assertFrame(r);
  assert.is(r.text('h1'), 'CONTACT US');
  assert.ok(
    r
      .text()
      .includes(
        'Have questions or want to work with us? Fill out the form below and our team will get back to you as soon as possible.',
      ),
  );
  assert.ok(r.$('form.contact-form'));
  assert.ok(r.$('.to-top'));
  assert.is(r.$$('#cta').length, 0, 'no call-to-action block on the contact page');
});

contact('has the seven fields, each with a visible associated label, type and autocomplete', () => {
  const r = renderRoute('/contact');
  const form = r.$('form.contact-form');
  const expected: Array<[string, string, string | null, string]> = [
    ['firstName', 'text', 'given-name', 'First Name'],
    ['lastName', 'text', 'family-name', 'Last Name'],
    ['email', 'email', 'email', 'Email'],
    ['phoneNumber', 'tel', 'tel', 'Phone Number'],
    ['message', 'textarea', null, 'Message'],
    ['fileUpload', 'file', null, 'Attach a File'],
    ['termsAccepted', 'checkbox', null, content.copy.contact.terms],
  ];
  const controls = [...form.querySelectorAll('input, textarea')];
  assert.equal(
    controls.map((c) => c.getAttribute('name')),
    expected.map(([name]) => name),
  );
  for (const [name, type, autocomplete, label] of expected) {
    const control = form.querySelector(`[name="${name}"]`)!;
    const actualType =
      control.tagName.toLowerCase() === 'textarea' ? 'textarea' : (control.getAttribute('type') ?? 'text');
    assert.is(actualType, type, `${name} is a ${type}`);
    // React writes the attribute as "autoComplete"; HTML attribute names are case-insensitive, linkedom's lookup is not.
    if (autocomplete)
      assert.is(
        control.getAttribute('autoComplete') ?? control.getAttribute('autocomplete'),
        autocomplete,
        `${name} autocomplete`,
      );
    assert.is(textOf(form.querySelector(`label[for="${control.id}"]`)), label, `${name} has its label`);
  }
});

contact('requires the five text fields, not the file or the terms (the terms get a toast)', () => {
  const r = renderRoute('/contact');
  const required = r.$$('form.contact-form [required]').map((c) => c.getAttribute('name'));
  assert.equal(required, ['firstName', 'lastName', 'email', 'phoneNumber', 'message']);
});

contact('the message has 4 rows; the file input takes one file', () => {
  const r = renderRoute('/contact');
  assert.is(r.$('textarea[name="message"]').getAttribute('rows'), '4');
  assert.not.ok(r.$('input[name="fileUpload"]').hasAttribute('multiple'));
});

contact('the consent wording names the Terms & Conditions and e-mail and SMS communications', () => {
  const r = renderRoute('/contact');
  assert.match(r.text('label[for="termsAccepted"]'), /Terms & Conditions.*email and SMS communications/);
});

contact('the menu links go to the home page sections', () => {
  const r = renderRoute('/contact');
  assert.equal(
    linksOf(r.$('.menu-list')).map(([, href]) => href),
    ['/#home', '/#about', '/#services', '/#partners', '/#faq'],
  );
});

contact('is safe under a strict CSP', () => {
  assertCspSafe(renderRoute('/contact').html);
});

contact.run();

const notFound = suite('Not-found page');

notFound('says Oops! Page not found, with Return to Home to /', () => {
  const r = renderRoute('/404');
  assertFrame(r);
  assert.is(r.text('h1'), 'Oops! Page not found');
  assert.equal(linksOf(r.$('.not-found')), [['Return to Home', '/']]);
});

notFound('is compact: a compact call to action and no scroll-to-top button', () => {
  const r = renderRoute('/404');
  assert.is(r.$$('.to-top').length, 0);
  assert.ok(r.$('#cta.is-compact'));
  assert.equal(
    linksOf(r.$('#cta')).map(([t]) => t),
    ['Book Appointment'],
  );
});

notFound('carries the logger behaviour (no React), which runs when idle after load with the message to log', () => {
  const page = renderPage(route('/404') as Route, { site, content, path: '/404' });
  const logger = page.islands.find((i) => i.name === 'not-found-logger');
  assert.equal(logger, { name: 'not-found-logger', hydrate: 'idle', behaviour: true });
  assert.match(page.html, /data-island="not-found-logger" data-hydrate="idle" data-behaviour/);
  assert.match(page.html, /404 Error: User attempted to access non-existent route:/);
});

notFound('is safe under a strict CSP', () => {
  assertCspSafe(renderRoute('/404').html);
});

notFound.run();

const layout = suite('Layout compact mode');

layout('renders the scroll-to-top button unless compact', () => {
  const full = render(
    <Layout site={site} content={content} path="/">
      {null}
    </Layout>,
  );
  const compact = render(
    <Layout site={site} content={content} path="/" compact>
      {null}
    </Layout>,
  );
  assert.is(full.$$('.to-top').length, 1);
  assert.is(compact.$$('.to-top').length, 0);
});

layout.run();

const routeTable = suite('Routes');

routeTable('are /, /contact and /404 written as 404.html and kept out of search engines', () => {
  assert.equal(
    routes.map((r) => r.path),
    ['/', '/contact', '/404'],
  );
  assert.is(route('/404').file, '404.html');
  assert.is(route('/404').head({ site, content, path: '/404' }).noindex, true);
  assert.not.ok(route('/').head({ site, content, path: '/' }).noindex);
});

routeTable('take titles and descriptions from the content', () => {
  assert.equal(route('/contact').head({ site, content, path: '/contact' }), {
    title: content.copy.meta.contact.title,
    description: content.copy.meta.contact.description,
  });
});

routeTable("render through the build renderer with the footer's copyright behaviour", () => {
  for (const r of routes) {
    const page = renderPage(r as Route, { site, content, path: r.path });
    assert.ok(
      page.islands.some((i) => i.name === 'copyright-year' && i.behaviour),
      `${r.path} has the copyright behaviour`,
    );
  }
});

routeTable('prefix site paths with the URL base the site is built for', () => {
  const page = renderPage(route('/contact') as Route, { site, content, path: '/contact' }, { base: '/sub/' });
  assert.ok(page.links.includes('/sub/'), 'home link');
  assert.ok(page.links.includes('/sub/#about'), 'menu link to a home section');
  assert.match(
    renderPage(route('/') as Route, { site, content, path: '/' }, { base: '/sub/' }).html,
    /src="\/sub\/partners\/streamwave\.svg"/,
  );
  renderPage(route('/') as Route, { site, content, path: '/' }); // back to the default base for other tests
});

routeTable.run();
