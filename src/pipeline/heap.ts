// How a build keeps V8's heap close to its live data, so peak memory follows the pages: bounded growth, one collection.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { givenFlags, setFlagUnlessGiven } from './v8-flags.ts';

/**
 * After each full collection V8 lets the old generation grow to up to four times what survived it before collecting
 * again. A build promotes garbage steadily (each batch of documents outlives a young collection while it is compressed
 * and written), so the heap rose to that limit between collections: 10,003 pages peaked at 703 MB resident with 60 to
 * 80 MB live. Growing by 30% the same build peaked at 393 MB; by 20%, with the other changes of issue 21, at 306 to
 * 313 MB against 612 to 657 MB, for about 7% more CPU time (more full collections: 1.8 s of pauses against 0.4 s).
 */
export const HEAP_GROWING_PERCENT = 20;

/** Whether this process set the heap's growth (boundHeapGrowth), rather than the user. */
let bounded = false;

/**
 * The V8 flag, unless the user chose a growth of their own (in NODE_OPTIONS or on node's command line). Set before the
 * site loads, when its size is not known yet: the load of a large site is where its memory starts.
 */
export function boundHeapGrowth(percent = HEAP_GROWING_PERCENT, given: readonly string[] = givenFlags()): boolean {
  const set = setFlagUnlessGiven('heap-growing-percent', percent, given);
  bounded ||= set;
  return set;
}

/**
 * Pages from which the build collects its heap once the pages' reads are stored (see collectNow): below that, what it
 * lets go is a few MB, within the growth V8 allows anyway, and the collection would cost time for nothing.
 */
export const COLLECT_FROM_PAGES = 10_000;

/**
 * How far past its live data the heap of a build of `pages` pages may grow, in percent: as much as what it holds up to
 * 10,000 pages, then less as the pages' records grow, down to HEAP_GROWING_PERCENT from 50,000. Below 100,000 pages
 * what the heap holds is a few hundred MB at most, and the bound costs time: 20% against 100%, 10,003 pages took
 * 1.12x the wall clock and 1.18x the CPU (252 MB against 318 MB at the peak), 4,000 Markdown entries 1.07x (234 against
 * 250 MB), 1,003 pages 1.04x (193 against 221 MB): whole processes paired in turn, 3 to 6 pairs, 2026-11-28.
 */
export function growthFor(pages: number): number {
  return Math.max(HEAP_GROWING_PERCENT, Math.min(100, Math.round((100 * COLLECT_FROM_PAGES) / Math.max(1, pages))));
}

/**
 * Once the build knows how many pages it makes: the growth it bounded before the site loaded becomes growthFor(pages)
 * (V8 reads the flag at each collection). Nothing when the user chose a growth. Whether it changed it.
 */
export function heapGrowthFor(pages: number): boolean {
  if (!bounded) return false;
  setFlagsFromString(`--heap-growing-percent=${growthFor(pages)}`);
  return true;
}

/**
 * Collects the heap (see collectNow) where a build of `pages` pages has just let go of much at once, when it has
 * COLLECT_FROM_PAGES pages or more: once the last page renders (the pages' reads, stored by then), and once every page
 * is written (the rendered pages' records, before the build record and the cache index are saved on top of them).
 */
export function collectLetGo(pages: number): void {
  if (pages >= COLLECT_FROM_PAGES) collectNow();
}

/**
 * Collects the whole heap at once. For where a build lets go of much at once (see collectLetGo), first of all the
 * pages' reads, stored once the last page renders (about 100 MB at 100,003 pages). V8 collects them only when the heap
 * next reaches its limit, and the steps after the render (the links check, the bundle, the sitemap, the last
 * documents) allocate on top of them: the top of that build's memory, 677 to 716 MB, was reached there, 15 to 45 MB
 * above the render's end. Collected at once, those steps reuse the memory the reads held (662 MB, the render's own top;
 * 0.5 s). V8's `gc` function is given to contexts made while its flag is set: the flag is set only while one context
 * is made to take it, so no other code sees a `gc` it did not ask for.
 */
export function collectNow(): void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed();
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
