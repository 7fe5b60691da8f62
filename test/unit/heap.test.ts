// The build's heap grows by a bounded share past its live data: peak memory follows what the build holds.
import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runInNewContext } from 'node:vm';
import { boundHeapGrowth, collectNow, growthFor, HEAP_GROWING_PERCENT } from '../../src/pipeline/heap.ts';
import { collectLinks } from '../../src/pipeline/render.tsx';
import { splitFrontmatter } from '../../src/content/frontmatter.ts';
import { parseMarkdown, renderParsed } from '../../src/content/markdown.ts';

const heap = suite('heap growth');

/**
 * A build's pattern in small: data that stays (the pages' records) and garbage that lives long enough to be promoted
 * (documents waiting for compression). Prints the largest heap it saw, in MB. Every run starts with node's
 * --heap-growing-percent=300, growth to four times what survived (V8's own choice depends on the machine's load, up to
 * that): "none" keeps it, "ours" bounds the heap as the build command does whatever node was given, "respect" as the
 * build command does by default (keeping a growth the user gave).
 */
const CHURN = `
const { boundHeapGrowth, heapGrowthFor } = await import(${JSON.stringify(new URL('../../src/pipeline/heap.ts', import.meta.url).href)});
const mode = process.argv[1];
if (mode === 'ours' || mode === 'small') boundHeapGrowth(undefined, []);
if (mode === 'respect') boundHeapGrowth();
// A site of 1,000 pages, known once it has loaded: the flag is changed while the process runs.
if (mode === 'small') heapGrowthFor(1000);
// The user's growth (node was given one) stays, whatever the site's size.
if (mode === 'respect-small' && (boundHeapGrowth() || heapGrowthFor(1000))) throw new Error('changed the growth the user chose');
const live = [];
const waiting = [];
let peak = 0;
for (let i = 0; i < 600000; i++) {
  live.push(\`page-\${i}-\`.repeat(12));
  waiting.push('x'.repeat(3000) + i);
  if (waiting.length > 20000) waiting.splice(0, 5000);
  if (i % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(String(peak / 1048576));
`;

const peakHeap = (mode: 'none' | 'ours' | 'respect' | 'small' | 'respect-small') =>
  Number(
    execFileSync(
      process.execPath,
      ['--heap-growing-percent=300', '--import', 'tsx', '--input-type=module', '-e', CHURN, mode],
      { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    ),
  );

heap('a bounded heap peaks well below one that grows fourfold, for the same data and garbage', () => {
  const fourfold = peakHeap('none');
  const bounded = peakHeap('ours');
  assert.ok(
    bounded < fourfold * 0.85,
    `growing by ${HEAP_GROWING_PERCENT}%: ${bounded.toFixed(0)} MB at the peak, against ${fourfold.toFixed(0)} MB growing fourfold`,
  );
});

heap('leaves a growth the user chose on the command line or in NODE_OPTIONS', () => {
  assert.not.ok(boundHeapGrowth(30, ['--heap-growing-percent=80']), 'node --heap-growing-percent=80: kept');
  assert.not.ok(boundHeapGrowth(30, ['--max-old-space-size=4096 --heap_growing_percent=50']), 'in NODE_OPTIONS');
  const chosen = peakHeap('respect');
  const bounded = peakHeap('ours');
  assert.ok(chosen > bounded * 1.15, `the user's 300%: ${chosen.toFixed(0)} MB, ours: ${bounded.toFixed(0)} MB`);
});

heap('a site of fewer pages lets its heap grow further, once its pages are known, as V8 reads the flag again', () => {
  assert.is(growthFor(1), 100);
  assert.is(growthFor(10_000), 100, 'as much as it holds, up to 10,000 pages');
  assert.is(growthFor(20_000), 50);
  assert.is(growthFor(50_000), HEAP_GROWING_PERCENT);
  assert.is(growthFor(100_003), HEAP_GROWING_PERCENT, 'never below the bound');
  const bounded = peakHeap('ours');
  const small = peakHeap('small');
  assert.ok(small > bounded * 1.15, `1,000 pages: ${small.toFixed(0)} MB at the peak, 20%: ${bounded.toFixed(0)} MB`);
  assert.ok(peakHeap('respect-small') > bounded * 1.15, "the user's 300% stays for a site of 1,000 pages");
});

/** A WeakRef to an object nothing else holds, made in a job of its own (a WeakRef keeps its target to the job's end). */
const dropped = async () => {
  const ref = new WeakRef({ records: Array.from({ length: 1000 }, (_, i) => `page-${i}`) });
  await new Promise((resolve) => setImmediate(resolve));
  return ref;
};

heap('collectNow frees what nothing holds, at once, and leaves no gc() behind for other code', async () => {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  const ref = await dropped();
  collectNow();
  assert.is(ref.deref(), undefined, 'collected by collectNow');
  if (!exposed) {
    assert.is(typeof (globalThis as { gc?: unknown }).gc, 'undefined', 'no gc() on this context');
    assert.is(runInNewContext('typeof gc'), 'undefined', 'nor on a context made after');
  }
});

heap("a page's links and ids, kept to the build's end, do not keep the page's HTML with them", () => {
  const pages = 40;
  const size = 1024 * 1024;
  collectNow();
  const before = process.memoryUsage().heapUsed;
  const kept: Array<{ links: string[]; ids: string[] }> = [];
  for (let i = 0; i < pages; i += 1) {
    const number = String(i).padStart(5, '0');
    const html = `<main><h2 id="a-heading-of-page-${number}">A heading</h2><p>${'x'.repeat(size)}</p><a href="/posts/post-${number}">Next</a></main>`;
    kept.push(collectLinks(html));
  }
  collectNow();
  const grown = process.memoryUsage().heapUsed - before;
  assert.equal(kept[3], { links: ['/posts/post-00003'], ids: ['a-heading-of-page-00003'] });
  assert.ok(
    grown < (pages * size) / 4,
    `${pages} pages of 1 MB, each link and id kept: the heap grew by ${(grown / 1048576).toFixed(1)} MB`,
  );
});

heap("a Markdown entry's data, body, headings and links, kept to the build's end, do not keep its file's text", () => {
  const entries = 20;
  const size = 1024 * 1024;
  const readImage = () => {
    throw new Error('no image in these entries');
  };
  collectNow();
  const before = process.memoryUsage().heapUsed;
  const kept: Array<{ data: unknown; html: string; headings: unknown; links: string[] }> = [];
  for (let i = 0; i < entries; i += 1) {
    const number = String(i).padStart(5, '0');
    // 1 MB in a frontmatter comment and 1 MB in a link definition no link uses: the file's text and its body are large,
    // what the entry keeps small.
    const text = `---\n# ${'x'.repeat(size)}\ntitle: The title of entry ${number}\ntags: [a-long-tag-of-entry-${number}]\n---\n## A heading of entry ${number}\n\nSome text of entry ${number}: [next](/posts/post-${number}/)\n\n[unused]: /elsewhere "${'y'.repeat(size)}"\n`;
    const front = splitFrontmatter(text);
    const file = `content/posts/post-${number}.md`;
    const rendered = renderParsed(parseMarkdown(front.body, { file, bodyLine: front.bodyLine, readImage }));
    kept.push({ data: front.data, html: rendered.html, headings: rendered.headings, links: rendered.links });
  }
  collectNow();
  const grown = process.memoryUsage().heapUsed - before;
  assert.equal(kept[3], {
    data: { title: 'The title of entry 00003', tags: ['a-long-tag-of-entry-00003'] },
    html: '<h2 id="a-heading-of-entry-00003">A heading of entry 00003</h2>\n<p>Some text of entry 00003: <a href="/posts/post-00003/">next</a></p>\n',
    headings: [{ depth: 2, id: 'a-heading-of-entry-00003', text: 'A heading of entry 00003' }],
    links: ['/posts/post-00003/'],
  });
  assert.ok(
    grown < (entries * size) / 4,
    `${entries} entries of 2 MB, their data, body, headings and links kept: the heap grew by ${(grown / 1048576).toFixed(1)} MB`,
  );
});

heap.run();
