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

/** The V8 flag, unless the user chose a growth of their own (in NODE_OPTIONS or on node's command line). */
export function boundHeapGrowth(percent = HEAP_GROWING_PERCENT, given: readonly string[] = givenFlags()): boolean {
  return setFlagUnlessGiven('heap-growing-percent', percent, given);
}

/**
 * Pages from which the build collects its heap once the pages' reads are stored (see collectNow): below that, what it
 * lets go is a few MB, within the growth V8 allows anyway, and the collection would cost time for nothing.
 */
export const COLLECT_FROM_PAGES = 10_000;

/**
 * Collects the whole heap at once. For the one point where a build lets go of much at once: the pages' reads, stored
 * once the last page renders (about 100 MB at 100,003 pages). V8 collects them only when the heap next reaches its
 * limit, and the steps after the render (the links check, the bundle, the sitemap, the last documents) allocate on top
 * of them: the top of that build's memory, 677 to 716 MB, was reached there, 15 to 45 MB above the render's end.
 * Collected at once, those steps reuse the memory the reads held (662 MB, the render's own top; 0.5 s). V8's `gc`
 * function is given to contexts made while its flag is set: the flag is set only while one context is made to take
 * it, so no other code sees a `gc` it did not ask for.
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
