// How `import … from 'site-gen'` in a site's code resolves when site-gen bundles that code: always to this tool's own
// public entry, whichever copy (if any) the site has installed, so the renderer, the runtime and the pages share one
// island registry and one base context.
import type { Plugin } from 'esbuild';
import { pathToFileURL } from 'node:url';
import { loadedPublicEntry, publicEntry } from './paths.ts';

const SPECIFIER = /^site-gen$/;

/** For code Node runs: left as an import of the entry's file URL, so Node loads the one instance the tool has loaded. */
export const publicEntryForNode: Plugin = {
  name: 'site-gen-public-entry',
  setup(build) {
    build.onResolve({ filter: SPECIFIER }, () => ({ path: pathToFileURL(loadedPublicEntry).href, external: true }));
  },
};

/** For the browser bundle: the entry bundled in (src/runtime/start.ts imports it too, so it shares their chunk). */
export const publicEntryForBrowser: Plugin = {
  name: 'site-gen-public-entry',
  setup(build) {
    build.onResolve({ filter: SPECIFIER }, () => ({ path: publicEntry }));
  },
};
