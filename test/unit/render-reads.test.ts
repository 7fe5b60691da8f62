// What a render reads of the content: each read recorded through the Proxies (fields, arrays, keys, JSON, `in`), and a
// kept render reused only while every read finds the same, in the tracker and in builds of a project copy.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';
import { PageCache } from '../../src/pipeline/page-cache.ts';
import { type LastReads, lastReadsOf, ReadRecords, type StoredReads } from '../../src/pipeline/read-records.ts';
import { ContentReads, type PageReads } from '../../src/pipeline/render-reads.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { scaleSite } from '../../bench/lib/scale-site.ts';
import type { ProjectCopy } from '../helpers/watch-project.ts';

const tracker = suite('content reads: the tracker');

/** The reads of one recording, as `kind path = found` lines, sorted. */
function readsOf(reads: ContentReads, page: PageReads): string[] {
  return page.ids.map((id) => reads.readAt(id)!.replace('\u0001', ' = ')).sort();
}

/** A tracker over `content` (the `content` prop) and what `render` read of it. */
function record<T>(content: T, render: (content: T) => unknown): { reads: string[]; page: PageReads; value: unknown } {
  const reads = new ContentReads();
  const tracked = reads.track('c', content);
  const { value, reads: page } = reads.record(() => render(tracked));
  reads.dispose();
  return { reads: readsOf(reads, page), page, value };
}

tracker('records nested fields with the value found, objects by their kind', () => {
  const { reads, value } = record({ company: { name: 'Acme', founded: 1999 } }, (c) => c.company.name);
  assert.is(value, 'Acme', 'the read gives the content as it is');
  assert.equal(reads, ['g["c","company","name"] = sAcme', 'g["c","company"] = o']);
});

tracker('records an array read by map, by for-of and by its length', () => {
  const content = { items: [{ title: 'A' }, { title: 'B' }] };
  const mapped = record(content, (c) => c.items.map((item) => item.title).join());
  assert.is(mapped.value, 'A,B');
  for (const read of [
    'g["c","items","length"] = #2',
    'g["c","items","0","title"] = sA',
    'g["c","items","1","title"] = sB',
  ])
    assert.ok(mapped.reads.includes(read), `map reads ${read}`);
  const iterated = record(content, (c) => {
    const titles: string[] = [];
    for (const item of c.items) titles.push(item.title);
    return titles.join();
  });
  assert.is(iterated.value, 'A,B');
  assert.ok(iterated.reads.includes('g["c","items","1","title"] = sB'), 'for-of reads each item');
  assert.ok(
    iterated.reads.includes('g["c","items",{"symbol":"iterator"}] = -'),
    'for-of reads Symbol.iterator, inherited',
  );
  const counted = record(content, (c) => c.items.length);
  assert.equal(counted.reads, ['g["c","items","length"] = #2', 'g["c","items"] = a']);
});

tracker('records Object.keys, JSON.stringify and `in`', () => {
  const content = { nav: { home: '/', about: '/about' } };
  const keys = record(content, (c) => Object.keys(c.nav).join());
  assert.is(keys.value, 'home,about');
  assert.ok(keys.reads.includes('k["c","nav"] = s["home","about"]'), 'Object.keys reads the own keys');
  const json = record(content, (c) => JSON.stringify(c.nav));
  assert.is(json.value, '{"home":"/","about":"/about"}');
  assert.ok(json.reads.includes('k["c","nav"] = s["home","about"]'), 'JSON.stringify reads the keys');
  assert.ok(json.reads.includes('g["c","nav","about"] = s/about'), 'and every value');
  const has = record(content, (c) => 'home' in c.nav && !('blog' in c.nav));
  assert.is(has.value, true);
  assert.ok(has.reads.includes('h["c","nav","home"] = T'), '`in` of an own property');
  assert.ok(has.reads.includes('h["c","nav","blog"] = F'), '`in` of a missing one');
});

tracker('gives the same Proxy for the same object, and reads outside a recording are nobody’s', () => {
  const reads = new ContentReads();
  const content = reads.track('c', { items: [{ id: 'a' }] });
  const items = content.items;
  assert.ok(items === content.items, 'one object, one Proxy: identity holds');
  assert.ok(content.items[0] === content.items.find((item) => item.id === 'a'), 'the same through any read');
  const { reads: page } = reads.record(() => content.items.length);
  assert.equal(
    readsOf(reads, page),
    ['g["c","items","length"] = #1', 'g["c","items"] = a'],
    'only the reads made in the recording: not the ids find() read before',
  );
  reads.dispose();
});

tracker('a function, an unknown symbol or a write makes a render unrecordable', () => {
  const symbol = Symbol('own');
  assert.ok(record({ format: () => 'x' }, (c) => c.format).page.opaque, 'a function read');
  assert.ok(record({ [symbol]: 1 }, (c) => c[symbol]).page.opaque, 'a symbol that is not well-known');
  assert.ok(record({ items: [3, 1, 2] }, (c) => c.items.sort()).page.opaque, 'sorting content in place writes to it');
  assert.not.ok(record({ items: [1] }, (c) => [...c.items]).page.opaque, 'spreading an array is a read');
});

tracker(
  'the site’s reads (as it loads) are one read, a hash of them, which a page that reads them again is given',
  async () => {
    const site = async (items: Array<{ id: string; title: string }>) => {
      const reads = new ContentReads();
      const content = reads.track('c', { items });
      const ids = await reads.recordSite(async () => content.items.map((item) => item.id));
      return { reads, content, ids };
    };
    const first = await site([{ id: 'a', title: 'A' }]);
    assert.equal(first.ids, ['a']);
    assert.is(first.reads.site.ids.length, 1, 'one read for all the site read');
    const siteRead = first.reads.readAt(first.reads.site.ids[0]!)!;
    assert.match(siteRead, /^S\u0001S[0-9a-f]{32}$/);
    assert.is(first.reads.siteFound, siteRead.slice(2));
    assert.not.ok(
      Array.from({ length: first.reads.made }, (_, id) => first.reads.readAt(id)).includes(
        'g["c","items","0","id"]\u0001sa',
      ),
      'the texts it stands for are let go',
    );
    // A page reading what the site read (its text made again), then something of its own.
    const { reads: page } = first.reads.record(() => first.content.items[0]!.id + first.content.items[0]!.title);
    assert.equal(
      page.ids.map((id) => first.reads.readAt(id)),
      [
        'g["c","items"]\u0001a',
        'g["c","items","0"]\u0001o',
        'g["c","items","0","id"]\u0001sa',
        'g["c","items","0","title"]\u0001sA',
      ],
    );
    // A memo made as the site loaded: a page given its reads is given the site read.
    const loaded = new ContentReads();
    const content = loaded.track('c', { items: [{ id: 'a', title: 'A' }] });
    const json = () => loaded.memo(content.items, () => JSON.stringify(content.items));
    await loaded.recordSite(async () => json());
    const { reads: given } = loaded.record(json);
    assert.equal(
      given.ids.map((id) => loaded.readAt(id)),
      [loaded.readAt(loaded.site.ids[0]!)],
      'the memo’s reads, made as the site loaded, are the site read',
    );
    loaded.dispose();
    const same = await site([{ id: 'a', title: 'other' }]);
    assert.is(same.reads.siteFound, first.reads.siteFound, 'the same reads as it loads: the same hash');
    const longer = await site([
      { id: 'a', title: 'A' },
      { id: 'b', title: 'B' },
    ]);
    assert.is.not(longer.reads.siteFound, first.reads.siteFound, 'one more item read: another hash');
    const renamed = await site([{ id: 'z', title: 'A' }]);
    assert.is.not(renamed.reads.siteFound, first.reads.siteFound, 'another value read: another hash');
    for (const { reads } of [first, same, longer, renamed]) reads.dispose();
  },
);

tracker('groups each read by its path’s root and first two properties, its object’s own reads with it', () => {
  const reads = new ContentReads();
  const content = reads.track('c', { a: { b: { c: { d: 1 } }, e: 2 }, f: [{ g: 3 }] });
  const { reads: page } = reads.record(() => [
    content.a.b.c.d,
    Object.keys(content.a.b.c),
    Object.getPrototypeOf(content.a.b),
    content.a.e,
    'x' in content.a,
    content.f[0]!.g,
  ]);
  const groupOf = (read: string) => {
    const id = page.ids.find((at) => reads.readAt(at)!.startsWith(read));
    assert.ok(id !== undefined, `${read} was read`);
    return reads.groupOf(id!);
  };
  const ab = groupOf('g["c","a","b"]');
  for (const read of ['g["c","a","b","c"]', 'g["c","a","b","c","d"]', 'k["c","a","b","c"]', 'p["c","a","b"]'])
    assert.is(groupOf(read), ab, `${read} is in the group of ["c","a","b"]`);
  const a = groupOf('g["c","a"]');
  assert.is(groupOf('h["c","a","x"]'), groupOf('h["c","a","x"]'));
  assert.is.not(groupOf('h["c","a","x"]'), a, 'a property of ["c","a"] is a group of its own');
  assert.is.not(groupOf('g["c","a","e"]'), a);
  assert.is.not(groupOf('g["c","a","e"]'), ab);
  assert.is(groupOf('g["c","f","0","g"]'), groupOf('g["c","f","0"]'), 'an array item’s reads are its group');
  assert.is.not(groupOf('g["c","f","0"]'), groupOf('g["c","f"]'));
  reads.dispose();
});

tracker('a page reading a field twice records one read; the next pages reading it record that read', () => {
  const reads = new ContentReads();
  const content = reads.track('c', { entry: { title: 'Night Drive' } });
  // The first two pages read the entry through the read's text, each again through its own memo; the third makes the
  // memo the next ones read through.
  const pages = [0, 1, 2, 3].map(() => reads.record(() => content.entry.title + content.entry.title).reads);
  for (const page of pages)
    assert.equal(readsOf(reads, page), ['g["c","entry","title"] = sNight Drive', 'g["c","entry"] = o']);
  assert.equal(pages[1]!.ids, pages[0]!.ids, 'the same reads, by the same ids');
  assert.equal(pages[2]!.ids, pages[0]!.ids);
  assert.equal(pages[3]!.ids, pages[0]!.ids);
  // Written, the memo is forgotten: the next page reads the field as it is now.
  (content.entry as { title: string }).title = 'Day Ride';
  const after = reads.record(() => content.entry.title).reads;
  assert.equal(readsOf(reads, after), ['g["c","entry","title"] = sDay Ride', 'g["c","entry"] = o']);
  reads.dispose();
});

tracker('a page reading entries again and again (a sort) records each read once, and reads what is there', () => {
  const entries = Array.from({ length: 50 }, (_, i) => ({ title: `T${i}`, date: (i * 37) % 50 }));
  const byDate = (a: { date: number }, b: { date: number }) => a.date - b.date;
  const once = record({ entries }, (c) => c.entries.map((entry) => entry.date).join());
  const sorted = record({ entries }, (c) =>
    [...c.entries]
      .sort(byDate)
      .map((entry) => entry.title)
      .join(),
  );
  assert.is(
    sorted.value,
    entries
      .slice()
      .sort(byDate)
      .map((entry) => entry.title)
      .join(),
  );
  const dates = once.reads.filter((read) => read.includes('"date"'));
  assert.is(dates.length, entries.length);
  for (const read of dates) assert.ok(sorted.reads.includes(read), `the sort made the read ${read}`);
  assert.is(new Set(sorted.page.ids).size, sorted.page.ids.length, 'each read once in the page');
  // Written by the render itself: the next read finds the new value, not the one the page read before.
  const written = record({ entry: { title: 'A' } }, (c) => {
    const first = c.entry.title;
    (c.entry as { title: string }).title = 'B';
    return first + c.entry.title;
  });
  assert.is(written.value, 'AB');
  assert.ok(written.page.opaque, 'a render that writes is not recorded');
});

tracker('a build done with its reads lets them go; recording after that is a bug, said so', async () => {
  const reads = new ContentReads();
  const content = reads.track('c', { title: 'Stay' });
  reads.record(() => content.title);
  assert.ok(reads.made > 0);
  reads.done();
  assert.is(reads.held, 0, 'the texts let go');
  assert.is(content.title, 'Stay', 'the content reads as before');
  assert.throws(() => reads.record(() => content.title), /after the build let them go; this is a bug/);
  try {
    await reads.recordSite(async () => content.title);
    assert.unreachable('a site load recorded');
  } catch (error) {
    assert.match(String(error), /this is a bug/);
  }
  reads.dispose();
});

tracker('a memo is made once, and gives each later recording the reads it made, until the content is written', () => {
  const reads = new ContentReads();
  const content = reads.track('c', { copy: { title: 'Stay', lines: ['a'] }, other: 1 });
  let made = 0;
  const json = () => {
    made += 1;
    return JSON.stringify(content.copy);
  };
  const first = reads.record(() => reads.memo(content.copy, json));
  const second = reads.record(() => reads.memo(content.copy, json));
  assert.is(first.value, '{"title":"Stay","lines":["a"]}');
  assert.is(second.value, first.value);
  assert.is(made, 1, 'made once');
  assert.equal(readsOf(reads, second.reads), readsOf(reads, first.reads), 'the second page read what the first did');
  assert.ok(readsOf(reads, second.reads).includes('g["c","copy","lines","0"] = sa'));
  // A write through the content (here outside any render) and the memo is made again, from the content as it is.
  (content.copy as { title: string }).title = 'Go';
  const third = reads.record(() => reads.memo(content.copy, json));
  assert.is(made, 2);
  assert.is(third.value, '{"title":"Go","lines":["a"]}');
  assert.is(
    reads.memo({ plain: true }, () => 'not tracked'),
    'not tracked',
    'other objects: computed each time',
  );
  reads.dispose();
});

const records = suite('content reads: kept renders');

/** Renders of `pages` (name to render) over `before`, stored; then which are unchanged over `after`. */
function unchangedAfter(
  before: unknown,
  after: unknown,
  pages: Record<string, (content: any) => unknown>,
  aliases?: (content: any) => unknown,
): string[] {
  const first = new ContentReads();
  const tracked = first.track('c', before);
  const firstRecords = new ReadRecords(first, undefined);
  for (const [name, render] of Object.entries(pages))
    firstRecords.set(name, { hash: name, html: '' }, first.record(() => render(tracked)).reads);
  const stored = firstRecords.stored();
  first.dispose();
  const second = new ContentReads();
  second.track('c', after);
  aliases?.(after);
  const secondRecords = new ReadRecords(second, lastReadsOf(structuredClone(stored)));
  second.dispose();
  return Object.keys(pages).filter((name) => secondRecords.unchanged(name)?.hash === name);
}

records('a render is reused while what it read is the same, whatever else changed', () => {
  const before = {
    items: [
      { title: 'A', body: 'a' },
      { title: 'B', body: 'b' },
    ],
    footer: 'f',
  };
  const after = {
    items: [
      { title: 'A', body: 'a' },
      { title: 'B', body: 'b, edited' },
    ],
    footer: 'f',
  };
  const pages = {
    a: (c: typeof before) => c.items[0]!.body + c.footer,
    b: (c: typeof before) => c.items[1]!.body + c.footer,
    index: (c: typeof before) => c.items.map((item) => item.title).join(),
    keys: (c: typeof before) => JSON.stringify(c.items[0]),
  };
  assert.equal(unchangedAfter(before, after, pages), ['a', 'index', 'keys'], 'only b read the edited body');
  assert.equal(
    unchangedAfter(before, { ...before, items: [...before.items, { title: 'C', body: 'c' }] }, pages),
    ['a', 'b', 'keys'],
    'an added item changes the length the index read',
  );
  assert.equal(
    unchangedAfter(before, { ...before, items: [{ title: 'A', body: 'a', extra: 1 }, before.items[1]] }, pages),
    ['a', 'b', 'index'],
    'a field added changes the keys JSON.stringify read',
  );
  assert.equal(unchangedAfter(before, { ...before, footer: 'g' }, pages), ['index', 'keys']);
});

records('paths with symbols and with quotes and commas in their names are found again', () => {
  const before = { 'a,"b': { '{"c': 'x' }, list: ['p', 'q'] };
  const pages = {
    odd: (c: typeof before) => c['a,"b']['{"c'],
    iterated: (c: typeof before) => [...c.list].join(),
  };
  assert.equal(unchangedAfter(before, structuredClone(before), pages), ['odd', 'iterated'], 'nothing changed');
  assert.equal(
    unchangedAfter(before, { ...before, 'a,"b': { '{"c': 'y' } }, pages),
    ['iterated'],
    'the oddly named field changed',
  );
  assert.equal(unchangedAfter(before, { ...before, list: ['p', 'r'] }, pages), ['odd'], 'an item for-of read changed');
});

records('an object the content shares between two places is the same read only while it still is', () => {
  const shared = { name: 'Nova' };
  const before = { artists: [shared], featured: shared };
  const page = { same: (c: typeof before) => c.artists[0] === c.featured };
  assert.equal(unchangedAfter(before, { artists: [shared], featured: shared }, page), ['same']);
  assert.equal(
    unchangedAfter(before, { artists: [{ name: 'Nova' }], featured: { name: 'Nova' } }, page),
    [],
    'two equal objects where there was one: identity may show on the page',
  );
  const apart = { artists: [{ name: 'Nova' }], featured: { name: 'Nova' } };
  assert.equal(
    unchangedAfter(apart, { artists: [shared], featured: shared }, page),
    [],
    'one object where there were two equal ones',
  );
  assert.equal(unchangedAfter(apart, structuredClone(apart), page), ['same']);
});

records('a site read that changed changes every page; the same site keeps them', async () => {
  const load = async (items: Array<{ id: string }>, stored?: StoredReads) => {
    const reads = new ContentReads();
    const content = reads.track('c', { items, text: 't' });
    await reads.recordSite(async () => content.items.map((item) => item.id));
    const records = new ReadRecords(reads, stored && lastReadsOf(structuredClone(stored)));
    return { reads, content, records };
  };
  const first = await load([{ id: 'a' }]);
  first.records.set('page', { hash: 'hash', html: '' }, first.reads.record(() => first.content.text).reads);
  const stored = first.records.stored();
  first.reads.dispose();
  const same = await load([{ id: 'a' }], stored);
  assert.is(same.records.unchanged('page')?.hash, 'hash', 'the site read the same: the page is kept');
  const longer = await load([{ id: 'a' }, { id: 'b' }], stored);
  assert.is(longer.records.unchanged('page'), undefined, 'the list the site read is longer');
  const renamed = await load([{ id: 'z' }], stored);
  assert.is(renamed.records.unchanged('page'), undefined, 'an id the site read changed');
  for (const { reads } of [same, longer, renamed]) reads.dispose();
});

records('reads handed on in parts as pages render are the same reads, and a later build keeps what it did', () => {
  const perPart = { reads: 7, groups: 5, pages: 3 };
  /** Renders an item page for each item, then an index of them all (which reads each title again), into parts. */
  const build = (titles: string[], last?: LastReads) => {
    const reads = new ContentReads();
    const content = reads.track('c', { nav: { home: 'Home' }, items: titles.map((title) => ({ title })) });
    const parts: Record<keyof StoredReads, unknown[][]> = { reads: [], groups: [], pages: [] };
    const sink = { part: (list: keyof StoredReads, items: readonly unknown[]) => parts[list].push([...items]) };
    const records = new ReadRecords(reads, last, sink, perPart);
    const pages: Record<string, (c: typeof content) => unknown> = {};
    titles.forEach((_, i) => {
      pages[`item ${i}`] = (c) => c.nav.home + c.items[i]!.title;
    });
    pages.index = (c) => c.items.map((item) => item.title).join();
    const unchanged = Object.keys(pages).filter((key) => records.unchanged(key)?.hash === key);
    let held = 0;
    for (const [key, render] of Object.entries(pages)) {
      if (unchanged.includes(key)) records.keep(key);
      else records.set(key, { hash: key, html: '' }, reads.record(() => render(content)).reads);
      held = Math.max(held, reads.held);
    }
    records.finish();
    reads.dispose();
    const joined = {
      reads: parts.reads.flat(),
      groups: parts.groups.flat(),
      pages: parts.pages.flat(),
    } as unknown as StoredReads;
    // As the next build reads them: the texts a part at a time.
    const next: LastReads = {
      texts: () => parts.reads as string[][],
      groups: joined.groups,
      pages: joined.pages,
    };
    return { unchanged, parts, held, stored: joined, last: next };
  };
  const titles = Array.from({ length: 12 }, (_, i) => `Title ${i}`);
  const first = build(titles);
  assert.ok(first.parts.reads.length > 2 && first.parts.groups.length > 2 && first.parts.pages.length > 2, 'in parts');
  assert.ok(first.held < perPart.reads + 4, `no more texts held than a part and a page's (${first.held})`);
  assert.is(first.stored.pages.length, 13);
  // Every group's reads are reads that were stored.
  for (const group of first.stored.groups) for (const id of group) assert.type(first.stored.reads[id], 'string');
  const changed = titles.map((title, i) => (i === 4 ? 'Changed' : title));
  const second = build(changed, first.last);
  assert.equal(
    second.unchanged,
    titles.map((_, i) => `item ${i}`).filter((key) => key !== 'item 4'),
    'every page but the changed item and the index is kept',
  );
  // The second build's stored reads, kept pages included, tell the third the same.
  const third = build(changed, second.last);
  assert.equal(third.unchanged, [...titles.map((_, i) => `item ${i}`), 'index']);
  const fourth = build(titles, third.last);
  assert.equal(fourth.unchanged, second.unchanged);
});

const builds = suite('content reads: builds');
let project: ProjectCopy;
let config: string;

builds.before(async () => {
  // Four releases, each with a page that reads its title, artist and summary; and an index that alone reads `label`.
  project = await scaleSite(4);
  config = join(project.root, 'site.config.ts');
  await project.edit('content/releases.ts', (text) => text.replace(/"summary": /g, '"label": "L",\n    "summary": '));
  await project.edit('content/schema.ts', (text) =>
    text.replace('summary: text(', 'label: z.string(), summary: text('),
  );
  await project.edit(
    'src/site/routes.tsx',
    (text) =>
      `${text}
routes.push({
  path: '/releases',
  page: () => <ul>{releases.map((release) => <li key={release.id}>{release.id}: {(release as { label?: string }).label}</li>)}</ul>,
  head: () => ({ title: 'Releases' }),
});
`,
  );
});

builds.after(async () => {
  rmSync(PageCache.dirFor(projectPaths(config).cache, config, '/'), { recursive: true, force: true });
  await project.remove();
});

const build = (withCache = true) => buildSite({ config, out: 'unused', write: false, cache: withCache });
const text = (files: BuildResult['files'], path: string) => Buffer.from(files.get(path) ?? '').toString('utf8');

/** Byte for byte what a build without the cache makes. */
async function assertAsFresh(cached: BuildResult, what: string): Promise<void> {
  const fresh = await build(false);
  assert.equal([...cached.files.keys()].sort(), [...fresh.files.keys()].sort(), `${what}: the same files`);
  for (const [path, data] of fresh.files)
    assert.ok(Buffer.from(cached.files.get(path)!).equals(Buffer.from(data)), `${what}: ${path} is the same bytes`);
}

builds(
  'an edited entry renders again only the pages that read it, the same bytes as a build without the cache',
  async () => {
    const cold = await build();
    const pages = cold.pages.length;
    assert.equal(cold.rendered, { kept: 0, made: pages }, 'the first build renders every page');
    await project.edit('content/releases.ts', (t) => t.replace(/("summary": ")(Release 2:)/, '$1Edited $2'));
    const edited = await build();
    assert.equal(edited.rendered, { kept: pages - 1, made: 1 }, 'only release-0002 read its summary');
    assert.ok(text(edited.files, 'releases/release-0002/index.html').includes('Edited Release 2:'), 'the edit shows');
    await assertAsFresh(edited, 'summary edited');
    // The kept pages' records are the last build's, carried over: a third build still tells them apart.
    await project.edit('content/releases.ts', (t) => t.replace(/("summary": ")(Release 3:)/, '$1Edited $2'));
    const third = await build();
    assert.equal(third.rendered, { kept: pages - 1, made: 1 }, 'only release-0003 read its summary');
    assert.ok(text(third.files, 'releases/release-0003/index.html').includes('Edited Release 3:'));
    await assertAsFresh(third, 'another summary edited');
  },
);

builds('a field only the index reads renders the index again, and nothing else', async () => {
  const before = await build();
  await project.edit('content/releases.ts', (t) => t.replace('"label": "L"', '"label": "Relabelled"'));
  const edited = await build();
  assert.equal(edited.rendered, { kept: before.pages.length - 1, made: 1 }, 'the index alone read the label');
  assert.ok(text(edited.files, 'releases/index.html').includes('Relabelled'), 'the index shows the new label');
  await assertAsFresh(edited, 'label edited');
});

builds('a field every page shows renders every page again', async () => {
  const before = await build();
  await project.edit('content/copy.ts', (t) => t.replace(/tagline: '[^']*'/, "tagline: 'Reads test tagline'"));
  const edited = await build();
  assert.equal(
    edited.rendered,
    { kept: 1, made: before.pages.length - 1 },
    'every page but the bare /releases index (no layout) shows the tagline',
  );
  await assertAsFresh(edited, 'tagline edited');
});

builds('a code edit renders every page again', async () => {
  const before = await build();
  await project.edit('src/site/pages/ReleasePage.tsx', (t) =>
    t.replace('className="page-intro"', 'className="page-intro lead"'),
  );
  const edited = await build();
  assert.equal(edited.rendered, { kept: 0, made: before.pages.length }, 'the code is in every render key');
  assert.ok(text(edited.files, 'releases/release-0001/index.html').includes('page-intro lead'));
  await assertAsFresh(edited, 'code edited');
});

builds('an added entry renders every page again: the site read the list as it made the routes', async () => {
  const before = await build();
  await project.edit('content/releases.ts', (t) =>
    t.replace(
      /\];\s*$/,
      ',\n  { "id": "release-0005", "title": "Five", "artist": "Fifth", "label": "L", "summary": "Five." }\n];\n',
    ),
  );
  const edited = await build();
  assert.equal(edited.pages.length, before.pages.length + 1, 'a page more');
  assert.equal(edited.rendered, { kept: 0, made: edited.pages.length });
  await assertAsFresh(edited, 'entry added');
});

tracker.run();
records.run();
builds.run();
