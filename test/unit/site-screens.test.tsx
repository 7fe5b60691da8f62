// The error screen, the behaviours' definitions, markup and browser code, and the small text and link helpers.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import errors from '../../content/errors.ts';
import { ErrorScreen } from '../../src/site/components/ErrorScreen.tsx';
import CopyrightYear from '../../src/site/behaviours/copyright-year.ts';
import NotFoundLogger from '../../src/site/behaviours/not-found-logger.ts';
import { pageHref } from '../../src/site/lib/href.ts';
import { fill } from '../../src/site/lib/text.ts';
import { fillNodes } from '../../src/site/lib/text-nodes.ts';
import { render } from '../helpers/dom.ts';

function failure(): Error {
  const error = new Error('Cannot read properties of undefined (reading "title")');
  error.stack =
    'TypeError: Cannot read properties of undefined\n    at ServiceCard (ServiceCard.tsx:12:5)\n    at renderWithHooks (react-dom.js:1:1)';
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

const behaviours = suite('Behaviours');

behaviours('each behaviour is named after its file and says when it runs', () => {
  assert.equal(
    { name: CopyrightYear.behaviour.name, hydrate: CopyrightYear.behaviour.hydrate },
    { name: 'copyright-year', hydrate: 'idle' },
  );
  assert.equal(
    { name: NotFoundLogger.behaviour.name, hydrate: NotFoundLogger.behaviour.hydrate },
    { name: 'not-found-logger', hydrate: 'idle' },
  );
});

behaviours(
  'the copyright line shows the build year on the server, and its behaviour puts in the current year',
  async () => {
    const template = '© {year} {company}. All rights reserved.';
    const r = render(
      <CopyrightYear template={template} company="Acme">
        <p className="copyright">{fill(template, { year: 2024, company: 'Acme' })}</p>
      </CopyrightYear>,
    );
    assert.is(r.text('p.copyright'), '© 2024 Acme. All rights reserved.');
    await CopyrightYear.behaviour.mount(r.document.body as HTMLElement, { template, company: 'Acme' });
    assert.is(
      r.text('p.copyright'),
      `© ${new Date().getFullYear()} Acme. All rights reserved.`,
      "the visitor's year, once it has run",
    );
  },
);

behaviours(
  'the not-found logger renders nothing on the server; in the browser it logs its message and the path asked for',
  async () => {
    const original = console.error;
    const logged: unknown[][] = [];
    console.error = (...args: unknown[]) => void logged.push(args);
    const globals = globalThis as { window?: unknown };
    globals.window = { location: { pathname: '/no-such-page' } };
    try {
      const r = render(<NotFoundLogger message="404 Error:" />);
      assert.is(r.html, '');
      assert.equal(logged, [], 'nothing is logged on the server');
      await NotFoundLogger.behaviour.mount(r.document.body as HTMLElement, { message: '404 Error:' });
    } finally {
      console.error = original;
      delete globals.window;
    }
    assert.equal(logged, [['404 Error:', '/no-such-page']]);
  },
);

behaviours.run();

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
