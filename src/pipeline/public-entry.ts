// How the packages a site's code imports resolve when site-gen bundles that code. `site-gen-ssg` always resolves to
// this tool's own public entry, whichever copy (if any) the site has installed, and React to the tool's own copy, so
// the renderer, the runtime and the pages share one island registry, one base context and one React. In the browser,
// a behaviour module gets the entry without React instead.
import type { OnResolveResult, Plugin, PluginBuild } from 'esbuild';
import { isBuiltin } from 'node:module';
import { dirname, isAbsolute, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { behaviourEntry, browserEntry, publicEntry } from '../core/paths.ts';

const SPECIFIER = /^site-gen-ssg$/;

/** Packages the tool renders or hydrates with: a site's import of them gets the tool's copy, whatever it installed. */
const SHARED = /^(react|react-dom)(\/|$)/;

/** A bare specifier: a package, not a relative or absolute path. */
const PACKAGE = /^[^./]/;

/** Marks a resolve that one of these plugins started, so it does not see its own call again. */
const NESTED = Symbol('site-gen nested resolve');

/** Resolves a package as esbuild would, from the tool's folder when it is React, else from the importing file. */
async function resolvePackage(build: PluginBuild, args: Parameters<Parameters<PluginBuild['onResolve']>[1]>[0]) {
  return build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: SHARED.test(args.path) ? dirname(publicEntry) : args.resolveDir,
    pluginData: NESTED,
  });
}

/**
 * Where a package imported from a folder resolved to, for code Node runs: kept for the process, as Node keeps the
 * module it loaded from there. Each resolve is a round trip to esbuild (~5 ms on a loaded machine): the site's code
 * imports React's JSX runtime from 50 files, and bundling it resolved ~100 packages, half a second of every load.
 */
const nodeResolved = new Map<string, Promise<OnResolveResult>>();

/**
 * For code Node runs, bundled into the site's cache folder and imported from there: `site-gen-ssg` is left as an
 * import of the entry's file URL (Node loads the one instance the tool has loaded), and every other package as an
 * import of the file it resolves to now, from the importing file (a site's own packages) or the tool's folder (React,
 * and packages only the tool has installed): from the cache folder Node alone would find neither.
 */
export const publicEntryForNode: Plugin = {
  name: 'site-gen-public-entry',
  setup(build) {
    build.onResolve({ filter: SPECIFIER }, () => ({ path: pathToFileURL(publicEntry).href, external: true }));
    build.onResolve({ filter: PACKAGE }, (args) => {
      if (args.pluginData === NESTED || isBuiltin(args.path)) return undefined;
      const from = SHARED.test(args.path) ? dirname(publicEntry) : args.resolveDir;
      const key = `${args.kind}\0${from}\0${build.initialOptions.absWorkingDir}\0${args.path}`;
      let resolved = nodeResolved.get(key);
      if (!resolved) {
        resolved = resolvePackage(build, args).then((found) =>
          found.errors.length > 0
            ? { errors: found.errors }
            : { path: found.external ? found.path : pathToFileURL(found.path).href, external: true },
        );
        nodeResolved.set(key, resolved);
        // A package that did not resolve may be installed before the next load: not kept.
        void resolved.then((result) => result.errors && nodeResolved.delete(key));
      }
      return resolved;
    });
  },
};

/**
 * For the browser bundle: the entry bundled in (src/runtime/hydrate.ts imports it too, so it shares their chunk), and
 * React from the tool's folder. A module in the behaviours folder gets src/runtime/site-gen.ts, which never reaches
 * React: esbuild splits chunks by file, so importing `behaviour` from the whole entry would make the behaviour's chunk
 * import React's.
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
        path: inBehaviours(args.importer) ? behaviourEntry : browserEntry,
      }));
      build.onResolve({ filter: SHARED }, async (args) => {
        if (args.pluginData === NESTED) return undefined;
        const found = await resolvePackage(build, args);
        return found.errors.length > 0
          ? { errors: found.errors }
          : { path: found.path, sideEffects: found.sideEffects };
      });
    },
  };
}
