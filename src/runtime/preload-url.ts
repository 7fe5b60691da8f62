// Where a page entry's chunk graph is written (src/pipeline/preload-graph.ts) and read (src/runtime/preload.ts): beside
// the entry, named after it, so its name changes whenever the entry's does (the entry's hash covers its imports).

/** `/assets/index-HASH.js` → `/assets/index-HASH.preload.json`. */
export function preloadUrlOf(entry: string): string {
  return entry.replace(/\.js$/, '.preload.json');
}
