// How far a build lets V8's heap grow past what it holds: close to its live data, so peak memory follows the pages.
import { setFlagsFromString } from 'node:v8';

/**
 * After each full collection V8 lets the old generation grow to up to four times what survived it before collecting
 * again. A build promotes garbage steadily (each batch of documents outlives a young collection while it is compressed
 * and written), so the heap rose to that limit between collections: 10,003 pages peaked at 703 MB resident with 60 to
 * 80 MB live. Growing by 30% the same build peaked at 393 MB; by 20%, with the other changes of issue 21, at 306 to
 * 313 MB against 612 to 657 MB, for about 7% more CPU time (more full collections: 1.8 s of pauses against 0.4 s).
 */
export const HEAP_GROWING_PERCENT = 20;

/** The V8 flag, unless the user chose a growth of their own (in NODE_OPTIONS or on node's command line). */
export function boundHeapGrowth(
  percent = HEAP_GROWING_PERCENT,
  given: readonly string[] = [...process.execArgv, process.env.NODE_OPTIONS ?? ''],
): boolean {
  if (given.some((arg) => /--heap[-_]growing[-_]percent/.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}
