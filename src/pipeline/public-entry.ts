// How `import … from 'site-gen-ssg'` in a site's code resolves when site-gen bundles that code: always to this tool's own
// public entry, whichever copy (if any) the site has installed, so the renderer, the runtime and the pages share one
// island registry and one base context. In the browser, a behaviour module gets the entry without React instead.
import type { Plugin } from 'esbuild';
import { isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { behaviourEntry, loadedPublicEntry, publicEntry } from '../core/paths.ts';

const SPECIFIER = /^site-gen-ssg$/;

/** For code Node runs: left as an import of the entry's file URL, so Node loads the one instance the tool has loaded. */
export const publicEntryForNode: Plugin = {
  name: 'site-gen-public-entry',
  setup(build) {
    build.onResolve({ filter: SPECIFIER }, () => ({ path: pathToFileURL(loadedPublicEntry).href, external: true }));
  },
};

/**
 * For the browser bundle: the entry bundled in (src/runtime/hydrate.ts imports it too, so it shares their chunk).
 * A module in the behaviours folder gets src/runtime/site-gen.ts, which never reaches React: esbuild splits chunks by
 * file, so importing `behaviour` from the whole entry would make the behaviour's chunk import React's.
 */
export function publicEntryForBrowser(behavioursDir?: string): Plugin {
  const inBehaviours = (file: string) => {
    const path = behavioursDir ? relative(behavioursDir, file) : '..';
    return path !== '' && !path.startsWith('..') && !isAbsolute(path);
  };
  return {
    name: 'site-gen-public-entry',
    setup(build) {
      build.onResolve({ filter: SPECIFIER }, (args) => ({
        path: inBehaviours(args.importer) ? behaviourEntry : publicEntry,
      }));
    },
  };
}
