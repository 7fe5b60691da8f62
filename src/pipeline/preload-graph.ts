// For a page entry, the files each of its islands and behaviours needs once started: its chunk and every chunk that
// imports statically, plus the runtime's hydrate (React islands) and replay code. Written beside the entry as JSON
// (src/runtime/preload-url.ts) for the runtime to request them all at once on intent (src/runtime/preload.ts).
import type { Metafile } from 'esbuild';

export interface GraphIsland {
  name: string;
  /** Its chunk (an output path); none if esbuild made none. */
  chunk: string | undefined;
  behaviour: boolean;
}

/** The file and every file it imports statically, transitively, in a stable order. */
export function staticClosure(outputs: Metafile['outputs'], file: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const imp of outputs[path]?.imports ?? []) if (imp.kind === 'import-statement') visit(imp.path);
  };
  visit(file);
  return [...seen];
}

/**
 * The graph as JSON: island name → URLs (`base` + output path). `hydrate` and `replay` are the runtime's chunks
 * (src/runtime/hydrate.ts, replay.ts): a React island needs both, a behaviour the replay only.
 */
export function preloadGraph(
  outputs: Metafile['outputs'],
  islands: GraphIsland[],
  runtime: { hydrate: string | undefined; replay: string | undefined },
  base: string,
): string {
  const closure = (file: string | undefined) => (file ? staticClosure(outputs, file) : []);
  const graph: Record<string, string[]> = {};
  for (const island of islands) {
    if (!island.chunk || graph[island.name]) continue;
    const files = new Set([
      ...closure(island.chunk),
      ...(island.behaviour ? [] : closure(runtime.hydrate)),
      ...closure(runtime.replay),
    ]);
    graph[island.name] = [...files].map((file) => base + file);
  }
  return JSON.stringify(graph);
}
