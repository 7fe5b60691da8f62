// Bundles one hydration entry per page with esbuild; React and shared code land in hashed chunks all pages share, and
// each island and behaviour in a chunk of its own. A behaviour's chunks never include React.
import type { BuildOptions, Message, Metafile, Plugin } from 'esbuild';
import { build } from './commonjs.ts';
import { join, relative } from 'node:path';
import { BundleError, IslandError } from '../core/errors.ts';
import { findModule, browserModule, toolRoot } from '../core/paths.ts';
import { publicEntryForBrowser } from './public-entry.ts';
import type { EsbuildCache } from './esbuild-cache.ts';
import { preloadUrlOf } from '../runtime/preload-url.ts';
import { preloadGraph, staticClosure } from './preload-graph.ts';
import { formatMessage } from './server-bundle.ts';
import type { IslandUse } from './render.tsx';

export interface PageIslands {
  /** Entry name, e.g. "index", "contact", "404". */
  name: string;
  /** Route path, for messages. */
  path: string;
  islands: IslandUse[];
}

export interface PageScripts {
  /** URL of the page's entry module: the runtime imports it after the load event, or at the first input it holds. */
  entry: string;
  /**
   * Output files (relative to the output folder) the page downloads without any interaction, as soon as the runtime
   * starts: the entry, its static imports, and the chunks of `load` islands. Islands hydrated at idle, when visible
   * or on interaction (and React with them) come later.
   */
  files: string[];
}

export interface ClientBundle {
  /** Output files, path relative to the output folder. */
  files: Map<string, Uint8Array>;
  pages: Map<string, PageScripts>;
  /** Absolute paths of every project file bundled. */
  inputs: string[];
  /** The runtime's inline head script (src/runtime/capture.ts) for pages with islands; empty when no page has one. */
  captureScript: string;
}

/** Where the modules a page names live: islands (React) and behaviours (plain DOM code). */
export interface ModuleDirs {
  islandsDir: string;
  behavioursDir: string;
}

export interface BundleOptions extends ModuleDirs {
  root: string;
  pages: PageIslands[];
  /** esbuild targets, e.g. ['chrome109', 'safari15.6']. */
  target: string[];
  base: string;
  /** The site's error screen module (src/site/error.tsx), if it has one: every page's runtime shows it for an island that throws. */
  errorScreen?: string;
  minify?: boolean;
  /** Keeps esbuild's work between calls (the dev server): a rebuild reparses only the files that changed. */
  cache?: EsbuildCache;
}

const ENTRY_NAMESPACE = 'site-gen-entry';
// A virtual output folder: nothing is written, paths are made relative to it.
const OUTDIR = 'site-gen-out';
const runtimeStart = browserModule('runtime/start');
const runtimeCapture = browserModule('runtime/capture');

/** The module of an island (src/site/islands/<name>) or a behaviour (src/site/behaviours/<name>), if it exists. */
export function islandModule(dirs: ModuleDirs, use: Pick<IslandUse, 'name' | 'behaviour'>): string | undefined {
  return findModule(join(use.behaviour ? dirs.behavioursDir : dirs.islandsDir, use.name));
}

/** Source of a page's entry: the runtime, the site's error screen if any, and one lazy import per island and behaviour the page uses. */
export function entrySource(dirs: ModuleDirs, page: PageIslands, root: string, errorScreen?: string): string {
  const loaders = (behaviour: boolean) =>
    [...new Set(page.islands.filter((use) => !!use.behaviour === behaviour).map((use) => use.name))]
      .sort()
      .map((name) => {
        const file = islandModule(dirs, { name, behaviour: behaviour || undefined });
        if (!file) {
          const missing = relative(root, join(behaviour ? dirs.behavioursDir : dirs.islandsDir, name));
          throw new IslandError(
            behaviour
              ? `Page ${page.path} uses behaviour "${name}", but ${missing}.ts does not exist. Create it (export default behaviour('${name}', { hydrate }, mount)) or fix the name.`
              : `Page ${page.path} uses island "${name}", but ${missing}.tsx does not exist. Create it (export default island('${name}', Component, { hydrate })) or fix the name.`,
          );
        }
        return `  ${JSON.stringify(name)}: () => import(${JSON.stringify(file)}),`;
      });
  // The error screen is fetched only when an island fails: no page pays for it up front.
  const screen = errorScreen ? `, () => import(${JSON.stringify(errorScreen)})` : '';
  return [
    `import { start } from ${JSON.stringify(runtimeStart)};`,
    'start({',
    ...loaders(false),
    '}, {',
    ...loaders(true),
    `}${screen});`,
  ].join('\n');
}

/**
 * How site code is compiled for the browser: shared by the page bundles and anything measured against them.
 * `behavioursDir`: its modules import the React-free face of site-gen (src/pipeline/public-entry.ts).
 */
export function browserBuildOptions(root: string, target: string[], minify = true, behavioursDir?: string) {
  return {
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target,
    minify,
    jsx: 'automatic',
    write: false as const,
    absWorkingDir: root,
    nodePaths: [join(toolRoot, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    logLevel: 'silent',
    // A caller adding plugins keeps this one: `[mine, ...browserBuildOptions(...).plugins]`.
    plugins: [publicEntryForBrowser(behavioursDir)],
  } satisfies BuildOptions;
}

/**
 * Each islands array's entry key: a build's pages with equal islands share one array (see #renderAll), and the key is
 * asked for several times a page (the entries, the scripts of documents made while pages render).
 */
const entryKeys = new WeakMap<readonly IslandUse[], string>();

/** Pages whose entries would be the same code (same islands, same ones loaded at once) share the first one's entry. */
export function entryKey(page: Pick<PageIslands, 'islands'>): string {
  let key = entryKeys.get(page.islands);
  if (key === undefined) entryKeys.set(page.islands, (key = islandsKey(page.islands)));
  return key;
}

function islandsKey(islands: readonly IslandUse[]): string {
  const names = (hydrate?: string) =>
    [
      ...new Set(
        islands
          .filter((i) => !hydrate || i.hydrate === hydrate)
          .map((i) => `${i.behaviour ? 'behaviour' : 'island'}:${i.name}`),
      ),
    ].sort();
  return JSON.stringify([names(), names('load')]);
}

/**
 * The pages that name a script entry of their own: the first page of each set of islands (see entryKey), in the
 * pages' order. A bundle of these is the bundle of all the pages, less the other pages' names (see scriptsForPages).
 */
export function uniqueEntries(pages: readonly PageIslands[]): PageIslands[] {
  const entryOf = new Map<string, PageIslands>();
  for (const page of pages) {
    const key = page.islands.length > 0 ? entryKey(page) : undefined;
    if (key !== undefined && !entryOf.has(key)) entryOf.set(key, page);
  }
  return [...entryOf.values()];
}

/** `bundle` with every page of `pages` given the scripts of the first page that has its islands. */
export function scriptsForPages(bundle: ClientBundle, pages: readonly PageIslands[]): ClientBundle {
  const first = new Map(uniqueEntries(pages).map((page) => [entryKey(page), page.name]));
  const scripts = new Map(bundle.pages);
  for (const page of pages) {
    const named = page.islands.length > 0 ? bundle.pages.get(first.get(entryKey(page))!) : undefined;
    if (named) scripts.set(page.name, named);
  }
  return { ...bundle, pages: scripts };
}

/** The client bundle of pages that have no islands: no files, no scripts. */
export function noScripts(): ClientBundle {
  return { files: new Map(), pages: new Map(), inputs: [], captureScript: '' };
}

export async function bundleClient(options: BundleOptions): Promise<ClientBundle> {
  const pages = uniqueEntries(options.pages);
  const sources = new Map(pages.map((p) => [p.name, entrySource(options, p, options.root, options.errorScreen)]));
  if (pages.length === 0) return noScripts();
  const files = new Map<string, Uint8Array>();
  const scripts = new Map<string, PageScripts>();
  const capture = captureScript(options);

  const entries: Plugin = {
    name: 'site-gen-entries',
    setup(b) {
      b.onResolve({ filter: /^site-gen-entry:/ }, (args) => ({
        path: args.path.slice(ENTRY_NAMESPACE.length + 1),
        namespace: ENTRY_NAMESPACE,
      }));
      b.onLoad({ filter: /.*/, namespace: ENTRY_NAMESPACE }, (args) => ({
        contents: sources.get(args.path)!,
        resolveDir: options.root,
        loader: 'ts',
      }));
    },
  };

  const browser = browserBuildOptions(options.root, options.target, options.minify ?? true, options.behavioursDir);
  const buildOptions = {
    ...browser,
    entryPoints: pages.map((p) => ({ in: `${ENTRY_NAMESPACE}:${p.name}`, out: p.name })),
    splitting: true,
    metafile: true,
    outdir: OUTDIR,
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/chunks/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    publicPath: options.base,
    plugins: [entries, ...browser.plugins],
  } satisfies BuildOptions;
  let result;
  try {
    result = options.cache ? await options.cache.build(buildOptions, [...sources]) : await build(buildOptions);
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages?.length) {
      const more = messages.length > 1 ? ` (and ${messages.length - 1} more errors)` : '';
      throw new BundleError(
        `The browser bundle could not be built: ${formatMessage(messages[0]!)}${more}. Fix the file and build again.`,
      );
    }
    throw new BundleError(`The browser bundle could not be built: ${(error as Error).message}`, { cause: error });
  }

  const outdir = join(options.root, OUTDIR);
  for (const file of result.outputFiles) files.set(relative(outdir, file.path).split('\\').join('/'), file.contents);
  const outputs = normaliseOutputs(result.metafile);
  const byEntryPoint = new Map(
    Object.entries(outputs).flatMap(([file, out]) => (out.entryPoint ? [[out.entryPoint, file] as const] : [])),
  );
  const inputOf = (use: IslandUse) => relative(options.root, islandModule(options, use)!).split('\\').join('/');
  const islandChunk = (use: IslandUse) => byEntryPoint.get(inputOf(use));
  for (const use of uniqueBehaviours(pages))
    assertNoReact(use, inputOf(use), islandChunk(use), outputs, result.metafile);
  for (const page of pages) {
    const entry = byEntryPoint.get(`${ENTRY_NAMESPACE}:${page.name}`);
    if (!entry) throw new BundleError(`esbuild produced no entry for page ${page.path}; this is a bug in site-gen.`);
    const eager = new Set(staticClosure(outputs, entry));
    for (const use of page.islands.filter((i) => i.hydrate === 'load')) {
      const chunk = islandChunk(use);
      if (chunk) for (const file of staticClosure(outputs, chunk)) eager.add(file);
    }
    scripts.set(page.name, { entry: options.base + entry, files: [...eager].sort() });
    files.set(
      preloadUrlOf(entry),
      new TextEncoder().encode(pagePreloadGraph(page, outputs, options, islandChunk, byEntryPoint)),
    );
  }
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.includes(':') && !p.includes('node_modules'))
    .map((p) => join(options.root, p));
  return scriptsForPages({ files, pages: scripts, inputs, captureScript: await capture }, options.pages);
}

/** The page's islands' chunk graphs, as preload-graph.ts writes them (issue 23: one round trip on intent). */
function pagePreloadGraph(
  page: PageIslands,
  outputs: Metafile['outputs'],
  options: BundleOptions,
  islandChunk: (use: IslandUse) => string | undefined,
  byEntryPoint: Map<string, string>,
): string {
  const runtimeChunk = (file: string) =>
    byEntryPoint.get(relative(options.root, join(toolRoot, file)).split('\\').join('/'));
  const islands = page.islands.map((use) => ({ name: use.name, chunk: islandChunk(use), behaviour: !!use.behaviour }));
  const runtime = { hydrate: runtimeChunk('src/runtime/hydrate.ts'), replay: runtimeChunk('src/runtime/replay.ts') };
  return preloadGraph(outputs, islands, runtime, options.base);
}

function uniqueBehaviours(pages: PageIslands[]): IslandUse[] {
  const byName = new Map(
    pages.flatMap((page) => page.islands.filter((use) => use.behaviour).map((use) => [use.name, use] as const)),
  );
  return [...byName.values()];
}

const REACT = /(^|\/)node_modules\/(react|react-dom|scheduler)\//;

/**
 * A behaviour's promise: its chunk and the chunks it imports hold no React. Anything its module imports that reaches
 * React breaks it; the message names the chain of imports from the behaviour to React.
 */
function assertNoReact(
  use: IslandUse,
  input: string,
  chunk: string | undefined,
  outputs: Metafile['outputs'],
  metafile: Metafile,
): void {
  if (!chunk) return;
  const seen = new Set<string>();
  const reachesReact = (file: string): boolean => {
    if (seen.has(file)) return false;
    seen.add(file);
    const out = outputs[file];
    if (!out) return false;
    return (
      Object.keys(out.inputs).some((path) => REACT.test(path)) ||
      out.imports.some((imp) => imp.kind === 'import-statement' && reachesReact(imp.path))
    );
  };
  if (!reachesReact(chunk)) return;
  const chain = importChain(input, metafile) ?? [input];
  throw new IslandError(
    `Behaviour "${use.name}" would load React in the browser: ${chain.map((file) => file.replace(/^.*node_modules\//, '')).join(' imports ')}. ` +
      `A behaviour runs plain DOM code: import no module that uses React, and from 'site-gen-ssg' only behaviour (its React-free face); ` +
      'or make it an island (src/site/islands/).',
  );
}

/** The shortest chain of static imports from `input` to a React file, by the metafile's inputs. */
function importChain(input: string, metafile: Metafile): string[] | undefined {
  const previous = new Map<string, string>([[input, '']]);
  const queue = [input];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (REACT.test(file)) {
      const chain = [file];
      for (let at = previous.get(file)!; at; at = previous.get(at)!) chain.unshift(at);
      return chain;
    }
    for (const imp of metafile.inputs[file]?.imports ?? []) {
      if (imp.kind === 'dynamic-import' || previous.has(imp.path)) continue;
      previous.set(imp.path, file);
      queue.push(imp.path);
    }
  }
  return undefined;
}

// The capture script is the tool's own code: built once per process and browser target, not on every rebuild.
const captureScripts = new Map<string, Promise<string>>();

/** The capture script as one classic inline script: it must run while the page is parsed, before any module. */
function captureScript(options: BundleOptions): Promise<string> {
  const key = JSON.stringify([options.root, options.target]);
  let script = captureScripts.get(key);
  if (!script) {
    script = build({
      ...browserBuildOptions(options.root, options.target, true),
      entryPoints: [runtimeCapture],
      format: 'iife',
    }).then((result) => new TextDecoder().decode(result.outputFiles[0]!.contents).trim());
    // A failed build is not kept: the next bundle tries again.
    script.catch(() => captureScripts.delete(key));
    captureScripts.set(key, script);
  }
  return script;
}

/** Metafile output paths are relative to the working folder: make them relative to the output folder. */
function normaliseOutputs(metafile: Metafile): Metafile['outputs'] {
  const fix = (p: string) => p.slice(OUTDIR.length + 1);
  return Object.fromEntries(
    Object.entries(metafile.outputs).map(([path, out]) => [
      fix(path),
      { ...out, imports: out.imports.map((i) => ({ ...i, path: fix(i.path) })) },
    ]),
  );
}
