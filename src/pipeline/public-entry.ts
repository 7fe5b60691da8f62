// How the packages a site's code imports resolve when site-gen bundles that code. `site-gen-ssg` always resolves to
// this tool's own public entry, whichever copy (if any) the site has installed, and React to the tool's own copy, so
// the renderer, the runtime and the pages share one island registry, one base context and one React. In the browser,
// a behaviour module gets the entry without React instead.
import type { BuildOptions, ImportKind, OnResolveArgs, OnResolveResult, Plugin, PluginBuild } from 'esbuild';
import { build as esbuild } from './commonjs.ts';
import { existsSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
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
async function resolvePackage(build: PluginBuild, args: OnResolveArgs) {
  return build.resolve(args.path, {
    kind: args.kind,
    importer: args.importer,
    resolveDir: SHARED.test(args.path) ? dirname(publicEntry) : args.resolveDir,
    pluginData: NESTED,
  });
}

/** What decides how a package resolves from a folder: its own packages, its package.json (`imports`), its tsconfig. */
const SCOPE_FILES = ['node_modules', 'package.json', 'tsconfig.json', 'jsconfig.json'];

/** The nearest folder from a folder up that holds one of SCOPE_FILES, by folder: kept for the process. */
const scopes = new Map<string, string>();

/** Where a package imported from `dir` resolves from: a package resolves the same from every folder of one scope. */
function packageScope(dir: string): string {
  let scope = scopes.get(dir);
  if (scope === undefined) {
    const parent = dirname(dir);
    scope = parent === dir || SCOPE_FILES.some((name) => existsSync(join(dir, name))) ? dir : packageScope(parent);
    scopes.set(dir, scope);
  }
  return scope;
}

/** How a bundle names a package import until linkPackages puts in the file it resolves to: `"site-gen-package:3"`. */
const PACKAGE_TOKEN = 'site-gen-package:';
const PACKAGE_TOKENS = /"site-gen-package:(\d+)"/g;

/** The import kinds a package is resolved for in one batch (see resolveTogether); esbuild's others, one at a time. */
const BATCHED = new Set<ImportKind>(['import-statement', 'dynamic-import', 'require-call']);

/** The build options that decide how esbuild resolves a path (the batch that resolves a package uses the same). */
const RESOLUTION_OPTIONS = [
  'absWorkingDir',
  'platform',
  'conditions',
  'mainFields',
  'nodePaths',
  'resolveExtensions',
  'alias',
  'preserveSymlinks',
  'tsconfig',
  'tsconfigRaw',
] as const satisfies readonly (keyof BuildOptions)[];

interface PackageImport {
  kind: ImportKind;
  specifier: string;
  /** The folder it resolves from: the importing file's scope, or the tool's folder for React. */
  scope: string;
  /** RESOLUTION_OPTIONS of the build that imported it, as JSON. */
  resolution: string;
}

/** Every package import bundled in this process, by kind, scope, resolution and specifier: its token's number. */
const packageIds = new Map<string, number>();
const packageImports: PackageImport[] = [];

/**
 * What each package import resolved to, by token number: a file URL (or a builtin's name). Kept for the process, as
 * Node keeps the module it loaded from there; dropped when it did not resolve (it may be installed before the next load).
 */
const packageTargets = new Map<number, Promise<string>>();

/** The token of a package import, in a build whose RESOLUTION_OPTIONS are `resolution`. */
function packageToken(args: OnResolveArgs, resolution: string): string {
  const imported: PackageImport = {
    kind: args.kind,
    specifier: args.path,
    scope: SHARED.test(args.path) ? dirname(publicEntry) : packageScope(args.resolveDir),
    resolution,
  };
  const key = JSON.stringify([imported.kind, imported.scope, imported.resolution, imported.specifier]);
  let id = packageIds.get(key);
  if (id === undefined) {
    id = packageImports.push(imported) - 1;
    packageIds.set(key, id);
  }
  return `${PACKAGE_TOKEN}${id}`;
}

/**
 * For code Node runs, bundled into the site's cache folder and imported from there: `site-gen-ssg` is left as an
 * import of the entry's file URL (Node loads the one instance the tool has loaded), and every other package as an
 * import of the file it resolves to, from the importing file's folder (a site's own packages) or the tool's folder
 * (React, and packages only the tool has installed): from the cache folder Node alone would find neither.
 *
 * `together`: the bundle names each package by a token, and linkPackages resolves the tokens together after it (see
 * resolveTogether). One resolve at a time from this plugin was a round trip to esbuild each, whose resolver reads a
 * package's folder anew at each call (an icon of lucide-react, from a folder of 3,000 files: 12-19 ms), and esbuild
 * finds the next imports only as it parses what the last resolved: the dev server's first page waited 0.5-0.8 s for
 * the site's code, against 0.08 s for the same bundle with no package resolved. One at a time is for a bundle whose
 * packages did not all resolve together, so that esbuild reports the one that does not where it is imported.
 */
function nodePackages(together: boolean): Plugin {
  return {
    name: 'site-gen-public-entry',
    setup(build) {
      const resolution = JSON.stringify(RESOLUTION_OPTIONS.map((name) => build.initialOptions[name] ?? null));
      build.onResolve({ filter: SPECIFIER }, () => ({ path: pathToFileURL(publicEntry).href, external: true }));
      build.onResolve({ filter: PACKAGE }, (args) => {
        if (args.pluginData === NESTED || isBuiltin(args.path)) return undefined;
        if (!together || !BATCHED.has(args.kind)) return resolveForNode(build, args);
        return { path: packageToken(args, resolution), external: true };
      });
    },
  };
}

export const publicEntryForNode = nodePackages(true);
export const publicEntryForNodeOneByOne = nodePackages(false);

async function resolveForNode(build: PluginBuild, args: OnResolveArgs): Promise<OnResolveResult> {
  const found = await resolvePackage(build, args);
  return found.errors.length > 0
    ? { errors: found.errors }
    : { path: found.external ? found.path : pathToFileURL(found.path).href, external: true };
}

/** Thrown by linkPackages when a package of the bundle does not resolve: bundle again with publicEntryForNodeOneByOne. */
export class PackagesUnresolved extends Error {}

/** `code`, bundled with publicEntryForNode, with each package's token replaced by the file it resolves to. */
export async function linkPackages(code: string): Promise<string> {
  const ids = new Set<number>();
  for (const [, id] of code.matchAll(PACKAGE_TOKENS)) ids.add(Number(id));
  if (ids.size === 0) return code;
  const unknown = [...ids].filter((id) => !packageTargets.has(id));
  if (unknown.length > 0) {
    const together = resolveTogether(unknown);
    unknown.forEach((id, i) => {
      const target = together.then((targets) => targets[i]!);
      packageTargets.set(id, target);
      // A package that did not resolve may be installed before the next load: not kept.
      target.catch(() => packageTargets.delete(id));
    });
  }
  const targets = new Map<number, string>();
  for (const id of ids) targets.set(id, await packageTargets.get(id)!);
  return code.replace(PACKAGE_TOKENS, (_, id: string) => JSON.stringify(targets.get(Number(id))));
}

/** `items` by `keyOf`, in the order each key first comes (Map.groupBy, which Node 20 lacks). */
function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** How the modules of resolveTogether's build are named: one per scope, importing each package imported from there. */
const SCOPE_NAMESPACE = 'site-gen-scope';

/**
 * What the package imports `ids` resolve to, in one esbuild build for each set of resolution options: a module for
 * each scope imports the packages imported from there, and no package's file is read (each loads as empty), so that
 * esbuild resolves them all side by side with its own resolver, from the metafile. Rejects with PackagesUnresolved
 * when any does not resolve.
 */
async function resolveTogether(ids: number[]): Promise<string[]> {
  const byResolution = groupBy(ids, (id) => packageImports[id]!.resolution);
  const resolved = new Map<number, string>();
  for (const [resolution, group] of byResolution) {
    const values = JSON.parse(resolution) as unknown[];
    const options = Object.fromEntries(
      RESOLUTION_OPTIONS.map((name, i) => [name, values[i]]).filter(([, value]) => value !== null),
    ) as Pick<BuildOptions, (typeof RESOLUTION_OPTIONS)[number]>;
    const scopes = [...groupBy(group, (id) => packageImports[id]!.scope)];
    const source = (ids: number[]) =>
      ids
        .map((id) => {
          const { kind, specifier } = packageImports[id]!;
          const path = JSON.stringify(specifier);
          return kind === 'require-call'
            ? `require(${path});`
            : kind === 'dynamic-import'
              ? `import(${path});`
              : `import ${path};`;
        })
        .join('\n');
    const result = await esbuild({
      ...options,
      entryPoints: scopes.map((_, i) => `${SCOPE_NAMESPACE}:${i}`),
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      outdir: 'site-gen-resolve',
      logLevel: 'silent',
      plugins: [
        {
          name: 'site-gen-resolve-together',
          setup(b) {
            b.onResolve({ filter: /^site-gen-scope:\d+$/ }, (args) =>
              args.kind === 'entry-point' ? { path: args.path, namespace: SCOPE_NAMESPACE } : undefined,
            );
            b.onLoad({ filter: /.*/, namespace: SCOPE_NAMESPACE }, (args) => {
              const [scope, ids] = scopes[Number(args.path.slice(SCOPE_NAMESPACE.length + 1))]!;
              return { contents: source(ids), resolveDir: scope, loader: 'js' };
            });
            b.onLoad({ filter: /.*/ }, () => ({ contents: '', loader: 'js' }));
          },
        },
      ],
    }).catch(() => {
      throw new PackagesUnresolved();
    });
    const workingDir = options.absWorkingDir ?? process.cwd();
    for (const [key, input] of Object.entries(result.metafile.inputs)) {
      const index = /^site-gen-scope:site-gen-scope:(\d+)$/.exec(key)?.[1];
      if (index === undefined) continue;
      for (const id of scopes[Number(index)]![1]) {
        const { kind, specifier } = packageImports[id]!;
        const found = input.imports.find((imported) => imported.kind === kind && imported.original === specifier);
        if (found) resolved.set(id, found.external ? found.path : pathToFileURL(resolve(workingDir, found.path)).href);
      }
    }
  }
  return ids.map((id) => {
    const target = resolved.get(id);
    if (target === undefined) throw new PackagesUnresolved();
    return target;
  });
}

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
