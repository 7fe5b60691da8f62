// Requests an island's whole chunk graph in one round trip: a <link rel="modulepreload"> for each file it needs
// (its chunk, their static imports, and the hydrate and replay code), rather than letting the browser discover them
// import by import. The graph is the build's (src/pipeline/preload-graph.ts), fetched once when the runtime starts.
import { preloadUrlOf } from './preload-url.ts';

type Graph = Record<string, string[]>;

let graph: Promise<Graph> | undefined;
const requested = new Set<string>();

/** Fetches the page's graph; an entry without one (or a failed fetch) only means no preloading. */
export function loadGraph(entry: string | undefined): void {
  if (!entry || graph) return;
  graph = fetch(preloadUrlOf(entry))
    .then((response) => (response.ok ? (response.json() as Promise<Graph>) : {}))
    .catch(() => ({}));
}

/** Adds a modulepreload for each file the island needs and nothing has requested yet. */
export function preloadIsland(name: string): void {
  void graph?.then((files) => {
    for (const href of files[name] ?? []) {
      if (requested.has(href) || document.querySelector(`script[src="${CSS.escape(href)}"]`)) continue;
      requested.add(href);
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
  });
}
