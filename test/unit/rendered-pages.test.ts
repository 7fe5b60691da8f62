// A build's rendered pages, kept as columns from their render to the end of the build, each record made as it is read.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DigestColumn } from '../../src/core/columns.ts';
import { digestHex } from '../../src/core/digest.ts';
import { findBrokenLinks } from '../../src/pipeline/check.ts';
import type { RenderedRoute } from '../../src/pipeline/pipeline.ts';
import { RenderedPages } from '../../src/pipeline/rendered-pages.ts';

const plans = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    route: { path: `/p/${i}`, page: () => null, head: () => ({ title: `${i}` }) },
    path: `/p/${i}`,
    file: `p/${i}/index.html`,
    entry: `p-${i}`,
  }));

/** Page `i` of `plan`s as #renderAll makes it: a few values shared by several pages, equal but not the same arrays. */
function rendered(plan: ReturnType<typeof plans>[number], i: number): RenderedRoute {
  const shape = i % 2 === 0 ? { of: new Set(['class']), hash: 'even' } : undefined;
  return {
    ...plan,
    key: digestHex(`key ${i}`),
    hash: digestHex(`hash ${i}`),
    islands: i === 1 ? [{ name: 'counter', hydrate: 'idle' }] : [],
    links: ['/', `/p/${(i + 1) % 3}#top`, `/p/${i}/very/long/link/to/something/on/the/page/that/is/long`],
    ids: ['top'],
    images: [],
    noindex: i === 2,
    ms: i + 0.25,
    shape: shape && { ...shape },
  };
}

test('each page comes back as it was kept, in the routes order, as often as it is read', () => {
  const routes = plans(3);
  const pages = new RenderedPages(routes);
  const kept = routes.map((plan, i) => rendered(plan, i));
  for (const page of kept) pages.push(page);
  assert.is(pages.length, 3);
  const strip = ({ shape, ...rest }: RenderedRoute) => ({ ...rest, shape: shape?.hash });
  assert.equal([...pages].map(strip), kept.map(strip));
  assert.equal([...pages].map(strip), [...pages].map(strip), 'read again, the same');
  assert.equal(
    pages.map((page, index) => `${index} ${page.path}`),
    ['0 /p/0', '1 /p/1', '2 /p/2'],
  );
  assert.equal(pages.indexedPaths(), ['/p/0', '/p/1'], 'a noindex page is not in the sitemap');
  assert.ok(
    [...pages.plans()].every((plan, i) => plan === routes[i]) && [...pages.plans()].length === 3,
    "each page's plan, the routes' own",
  );
  // One layout for every record: the properties in one order, whatever the page.
  assert.equal(Object.keys(pages.at(0)), Object.keys(pages.at(1)));
  assert.throws(() => pages.at(3), /no rendered page 3/);
});

test('pages share what is equal between them: the first such value, held once', () => {
  const routes = plans(3);
  const pages = new RenderedPages(routes);
  const made = routes.map((plan, i) => pages.push(rendered(plan, i)));
  assert.is(pages.at(0).ids, pages.at(2).ids, 'equal ids, one array');
  assert.is(pages.at(0).ids, made[0]!.ids, "the first page's");
  assert.is(pages.at(0).islands, pages.at(2).islands);
  assert.is.not(pages.at(0).links, pages.at(1).links, 'links that differ are each their own');
  assert.equal(pages.at(1).islands, [{ name: 'counter', hydrate: 'idle' }]);
  // A shape stands for itself (each is read once): two equal objects are two shapes.
  assert.is.not(pages.at(0).shape, pages.at(2).shape);
  assert.is(pages.at(1).shape, undefined);
});

test('a page kept out of the routes order is a bug, said at once', () => {
  const routes = plans(2);
  const pages = new RenderedPages(routes);
  assert.throws(() => pages.push(rendered(routes[1]!, 1)), /p\/1\/index.html is not route 0's page/);
  assert.throws(() => pages.push({ ...rendered(routes[0]!, 0), key: 'not a digest' }), /is not a digest/);
});

test("links are checked against the pages' ids, read from the columns", () => {
  const routes = plans(3);
  const pages = new RenderedPages(routes);
  for (const [i, plan] of routes.entries())
    pages.push({ ...rendered(plan, i), links: i === 0 ? ['/p/1#top', '/p/2#gone', '/p/9'] : [] });
  const broken = findBrokenLinks(pages, new Set(), '/', pages.linkTargets());
  assert.equal(
    broken.map(({ page, href }) => `${page} ${href}`),
    ['/p/0 /p/2#gone', '/p/0 /p/9'],
  );
  assert.is(pages.linkTargets().get('/p/nope'), undefined);
});

test('a digest column keeps 32 hex digits in 16 bytes, grows, and gives each back as a new string', () => {
  const column = new DigestColumn(2);
  const digests = Array.from({ length: 5 }, (_, i) => digestHex(`${i}`));
  column.set(4, digests[4]!);
  column.set(0, digests[0]!);
  assert.is(column.get(0), digests[0]);
  assert.is(column.get(4), digests[4]);
  assert.is(column.get(1), undefined, 'not set');
  assert.is(column.get(99), undefined, 'past the end');
  column.set(0, digests[1]!);
  assert.is(column.get(0), digests[1], 'set again');
  for (const wrong of ['', 'ABCDEF0123456789abcdef0123456789', `${digests[0]}0`, 'x'.repeat(32)])
    assert.throws(() => column.set(1, wrong), /is not a digest/, wrong);
});

test.run();
