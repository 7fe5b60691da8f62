// Bundles the site's TypeScript (config, content, pages) for Node with esbuild and imports the result.
import type { BuildOptions, Message, Metafile, Plugin } from 'esbuild';
import { build } from './commonjs.ts';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { digestHex } from '../core/digest.ts';
import { toolRoot } from '../core/paths.ts';
import type { EsbuildCache } from './esbuild-cache.ts';
import { linkPackages, PackagesUnresolved, publicEntryForNode, publicEntryForNodeOneByOne } from './public-entry.ts';

export interface ServerModule<T> {
  exports: T;
  /** Absolute paths of the project files the bundle read (what a watcher should follow). */
  inputs: string[];
  /** Hash of the bundled code: the same for the same code, whatever the files' dates. */
  hash: string;
}

/** What to bundle: the path of a module, or generated source with the folder its imports resolve from. */
export type ServerEntry = { file: string } | { contents: string; resolveDir: string };

export interface ServerBundleOptions {
  entry: ServerEntry;
  root: string;
  cacheDir: string;
}

/** Thrown by `loadServerModule` when esbuild reports errors; carries them so callers can name the file at fault. */
export class ServerBundleFailure extends Error {
  constructor(readonly messages: Message[]) {
    super(messages.map((m) => formatMessage(m)).join('\n'));
  }
}

export function formatMessage(message: Message): string {
  const where = message.location
    ? `${message.location.file}:${message.location.line}:${message.location.column + 1}: `
    : '';
  return `${where}${message.text}`;
}

/** What a generated entry is called in esbuild's messages and metafile: no file of the project. */
const GENERATED_ENTRY = 'site-gen-entry.ts';

/**
 * esbuild's options for code Node runs from the cache folder: the site's code, each content module, the config.
 * `sourcemap: false` for data: a map as big as the data costs more to make and to load (Node parses it) than the data.
 */
export function nodeBundleOptions(
  entry: ServerEntry,
  root: string,
  { plugins = [], sourcemap = true }: { plugins?: Plugin[]; sourcemap?: boolean } = {},
) {
  return {
    ...('file' in entry
      ? { entryPoints: [entry.file] }
      : { stdin: { ...entry, loader: 'ts' as const, sourcefile: GENERATED_ENTRY } }),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Packages stay imports (publicEntryForNode names each by its file); only 'module' is dropped from esbuild's
    // conditions, so a package resolves to the file Node itself would load (one instance, shared with the tool).
    conditions: [],
    jsx: 'automatic',
    metafile: true,
    sourcemap: sourcemap ? ('inline' as const) : false,
    // Stack traces need the mappings only: the sources' text would double the map (tens of MB for a site whose
    // content lists 100,000 items), and Node keeps the map of every module it loads.
    sourcesContent: false,
    logLevel: 'silent',
    absWorkingDir: root,
    // A package the site has not installed is looked for where the tool's packages are.
    nodePaths: [join(toolRoot, 'node_modules')],
    plugins: [...plugins, publicEntryForNode],
    define: { 'process.env.NODE_ENV': '"production"' },
  } satisfies BuildOptions;
}

/**
 * Bundles `options` (with `cache`'s kept context when given), each package imported as the file it resolves to (see
 * publicEntryForNode); esbuild's errors are thrown as a ServerBundleFailure.
 */
export async function bundleForNode(
  options: ReturnType<typeof nodeBundleOptions>,
  cache?: EsbuildCache,
): Promise<{ code: string; metafile: Metafile }> {
  try {
    const result = cache ? await cache.build(options, null) : await build(options);
    try {
      return { code: await linkPackages(result.outputFiles[0]!.text), metafile: result.metafile };
    } catch (error) {
      if (!(error instanceof PackagesUnresolved)) throw error;
      // A package did not resolve: bundled again resolving each as it is found, for esbuild to say where it is imported.
      const plugins = options.plugins.map((plugin) =>
        plugin === publicEntryForNode ? publicEntryForNodeOneByOne : plugin,
      );
      const again = await build({ ...options, plugins });
      return { code: again.outputFiles[0]!.text, metafile: again.metafile };
    }
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages?.length) throw new ServerBundleFailure(messages);
    throw error;
  }
}

export function codeHash(code: string): string {
  return digestHex(code);
}

let loads = 0;

/**
 * Writes `code` to the cache folder under a name no other load shares (so no other build can delete it under us),
 * imports it and removes it once imported, since Node keeps the module: a long watch session leaves no trail of
 * bundles on disk.
 */
export async function importOnce<T>(code: string, cacheDir: string, name: string): Promise<T> {
  await mkdir(cacheDir, { recursive: true });
  const file = join(cacheDir, `${name}-${process.pid}-${++loads}.mjs`);
  await writeFile(file, code);
  try {
    return (await import(pathToFileURL(file).href)) as T;
  } finally {
    await rm(file, { force: true });
  }
}

export async function loadServerModule<T>(options: ServerBundleOptions): Promise<ServerModule<T>> {
  const { code, metafile } = await bundleForNode(nodeBundleOptions(options.entry, options.root));
  const hash = codeHash(code);
  const exports = await importOnce<T>(code, options.cacheDir, `server-${hash.slice(0, 16)}`);
  return { exports, inputs: inputsOf(metafile, options.root), hash };
}

/** The project files a bundle read, as absolute paths in a stable order: not packages, not generated entries. */
export function inputsOf(metafile: Metafile, root: string): string[] {
  return Object.keys(metafile.inputs)
    .filter((p) => !p.startsWith('<') && p !== GENERATED_ENTRY && !p.includes('node_modules'))
    .map((p) => resolve(root, p))
    .sort((a, b) => relative(root, a).localeCompare(relative(root, b)));
}
