// The error screen, the islands' definitions and server renders, and the small text and link helpers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import errors from '../../content/errors.ts';
import { ErrorScreen } from '../../src/site/components/ErrorScreen.tsx';
import CopyrightYear from '../../src/site/islands/copyright-year.tsx';
import NotFoundLogger from '../../src/site/islands/not-found-logger.tsx';
import { pageHref } from '../../src/site/lib/href.ts';
import { fill, fillNodes } from '../../src/site/lib/text.ts';
import { render } from '../helpers/dom.ts';

function failure(): Error {
  const error = new Error('Cannot read properties of undefined (reading "title")');
  error.stack = 'TypeError: Cannot read properties of undefined\n    at ServiceCard (ServiceCard.tsx:12:5)\n    at renderWithHooks (react-dom.js:1:1)';
  return error;
}

const screen = suite('ErrorScreen');

screen('as a page: an h1 "Unexpected Application Error!" in <main>, the message, and the stack in a <pre>', () => {
  const r = render(<ErrorScreen error={failure()} />);
  assert.is(errors.title, 'Unexpected Application Error!');
  assert.is(r.text('main h1'), 'Unexpected Application Error!');
  assert.is(r.text('.error-message'), 'Cannot read properties of undefined (reading "title")');
  assert.match(r.$('pre').textContent!, /at ServiceCard \(ServiceCard\.tsx:12:5\)\n {4}at renderWithHooks/);
  assert.is(r.$$('h2').length, 0);
});

screen('inline (in place of an island): an h2, no <main>, announced as an alert', () => {
  const r = render(<ErrorScreen error={failure()} inline />);
  assert.is(r.text('h2'), 'Unexpected Application Error!');
  assert.is(r.$$('h1').length + r.$$('main').length, 0);
  assert.is(r.$('.error-screen').getAttribute('role'), 'alert');
});

screen('the scrollable stack can be reached by keyboard', () => {
  const r = render(<ErrorScreen error={failure()} />);
  assert.is(r.$('pre').getAttribute('tabindex'), '0');
});

screen('an error without a stack shows no empty stack box', () => {
  const error = new Error('boom');
  error.stack = '';
  const r = render(<ErrorScreen error={error} />);
  assert.is(r.$$('pre').length, 0);
  assert.is(r.text('.error-message'), 'boom');
});

screen.run();

const islands = suite('Islands');

islands('each island is named after its file and says how it hydrates', () => {
  assert.equal({ name: CopyrightYear.island.name, hydrate: CopyrightYear.island.hydrate }, { name: 'copyright-year', hydrate: 'idle' });
  assert.equal({ name: NotFoundLogger.island.name, hydrate: NotFoundLogger.island.hydrate }, { name: 'not-found-logger', hydrate: 'idle' });
});

islands('the copyright line renders the build year on the server (the browser updates it after hydration)', () => {
  const r = render(<CopyrightYear template="© {year} {company}. All rights reserved." company="Acme" buildYear={2024} />);
  assert.is(r.text('p.copyright'), '© 2024 Acme. All rights reserved.');
});

islands('the not-found logger renders nothing and logs nothing on the server', () => {
  const original = console.error;
  let logged = 0;
  console.error = () => void (logged += 1);
  try {
    assert.is(render(<NotFoundLogger message="404 Error:" />).html, '');
  } finally {
    console.error = original;
  }
  assert.is(logged, 0, 'effects do not run on the server');
});

islands.run();

const helpers = suite('Text and link helpers');

helpers('fill replaces known placeholders and leaves unknown ones', () => {
  assert.is(fill('© {year} {company}. {other}', { year: 2030, company: 'Acme' }), '© 2030 Acme. {other}');
});

helpers('fillNodes puts a node where its placeholder is', () => {
  const r = render(<p>{fillNodes('Write to {email}, any time.', { email: <a href="mailto:x@y.z">x@y.z</a> })}</p>);
  assert.is(r.html, '<p>Write to <a href="mailto:x@y.z">x@y.z</a>, any time.</p>');
});

helpers('pageHref keeps anchors on the home page and points them home elsewhere', () => {
  assert.is(pageHref('#faq', '/', '/'), '#faq');
  assert.is(pageHref('#faq', '/contact', '/'), '/#faq');
  assert.is(pageHref('#', '/contact', '/'), '#', 'the "#" placeholder stays');
  assert.is(pageHref('https://example.com/', '/contact', '/'), 'https://example.com/');
});

helpers('pageHref adds the URL base to site paths', () => {
  assert.is(pageHref('/contact', '/', '/sub/'), '/sub/contact');
  assert.is(pageHref('#faq', '/contact', '/sub/'), '/sub/#faq');
  assert.is(pageHref('#faq', '/', '/sub/'), '#faq');
});

helpers.run();
