import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertNoBrokenLinks, assertWithinBudget, findBrokenLinks, linkTargets } from '../../src/pipeline/check.ts';
import { BrokenLinkError, BudgetExceededError } from '../../src/core/errors.ts';

const pages = [
  {
    path: '/',
    links: ['#faq', '/contact', '/#about', 'https://x.example', 'mailto:a@b.c', '#', '/favicon.svg'],
    ids: ['faq', 'about'],
  },
  { path: '/contact', links: ['/', '/#faq', 'tel:+1'], ids: ['form'] },
];
const files = new Set(['favicon.svg']);

const links = suite('findBrokenLinks');

links('accepts pages, anchors on other pages, files and external links', () => {
  assert.equal(findBrokenLinks(pages, files), []);
});

links('reports an anchor missing on the same page', () => {
  const broken = findBrokenLinks([{ path: '/', links: ['#nope'], ids: [] }], files);
  assert.equal(broken, [{ page: '/', href: '#nope', reason: '/ has no element with id "nope"' }]);
});

links('reports an anchor missing on another page, and a page that does not exist', () => {
  const broken = findBrokenLinks([...pages, { path: '/x', links: ['/contact#faq', '/about'], ids: [] }], files);
  assert.equal(
    broken.map((b) => b.reason),
    ['/contact has no element with id "faq"', 'no page or file is served at /about'],
  );
});

links('checks one page against others it is given as targets, reading their ids only for a #hash', () => {
  let read = 0;
  const contact = {
    path: '/contact',
    get ids() {
      read += 1;
      return ['form'];
    },
  };
  const targets = linkTargets([{ path: '/', ids: [] }, contact]);
  const page = { path: '/', links: ['/contact/', '/contact#form', '/contact#faq', '/about'], ids: [] };
  assert.equal(
    findBrokenLinks([page], files, '/', targets).map((b) => b.reason),
    ['/contact has no element with id "faq"', 'no page or file is served at /about'],
  );
  assert.is(read, 2, 'the ids of /contact, for its two #hash links');
});

links('resolves relative links and /contact/ like a static host', () => {
  assert.equal(
    findBrokenLinks(
      [
        { path: '/contact', links: ['./', '/contact/', '../favicon.svg'], ids: [] },
        { path: '/', links: [], ids: [] },
      ],
      files,
    ),
    [],
  );
});

links('under a base path, links must stay inside it', () => {
  const found = findBrokenLinks(
    [
      { path: '/', links: ['/sub/contact', '/contact'], ids: [] },
      { path: '/contact', links: [], ids: [] },
    ],
    files,
    '/sub/',
  );
  assert.equal(
    found.map((b) => b.href),
    ['/contact'],
  );
});

links(
  'a link from the root broken on every page is reported for every page; relative links are read from each page',
  () => {
    const many = [
      { path: '/a/one', links: ['/gone', '/a/two#top', 'two', '#here'], ids: ['here'] },
      { path: '/a/two', links: ['/gone', '/a/two#top', 'one', '#here'], ids: ['top'] },
      { path: '/b/two', links: ['/gone', '/a/two#top', 'one'], ids: [] },
    ];
    const broken = findBrokenLinks(many, files);
    assert.equal(
      broken.map((b) => `${b.page} ${b.href}`),
      ['/a/one /gone', '/a/two /gone', '/a/two #here', '/b/two /gone', '/b/two one'],
      'each page reports the root link it has; "one" resolves to /a/one from /a/two but to /b/one from /b/two',
    );
  },
);

links('the error lists each broken link with its page', () => {
  try {
    assertNoBrokenLinks(findBrokenLinks([{ path: '/', links: ['#a', '#b'], ids: [] }], files));
    assert.unreachable();
  } catch (error) {
    assert.instance(error, BrokenLinkError);
    assert.match((error as Error).message, /2 broken links.*\n {2}\/: link "#a": .*\n {2}\/: link "#b"/s);
  }
});

links.run();

const budgets = suite('budgets');

budgets('passes pages within budget and names each page over it', () => {
  assertWithinBudget([{ path: '/', htmlBrotli: 14 * 1024, jsBrotli: 90 * 1024 }], { html: 14 * 1024, js: 90 * 1024 });
  try {
    assertWithinBudget([{ path: '/contact', htmlBrotli: 15 * 1024, jsBrotli: 100 }], {
      html: 14 * 1024,
      js: 90 * 1024,
    });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, BudgetExceededError);
    assert.match(
      (error as Error).message,
      /\/contact: HTML \+ inline CSS is 15\.0 KB brotli, over the 14\.0 KB budget \(build\.budgets\.html\)/,
    );
  }
});

budgets.run();
