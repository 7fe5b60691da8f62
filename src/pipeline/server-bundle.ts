// Bundles the site's TypeScript (config, content, pages) for Node with esbuild and imports the result.
import { build, type Message, type Metafile } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { toolRoot } from '../core/paths.ts';
import { publicEntryForNode } from './public-entry.ts';

export interface ServerModule<T> {
  exports: T;
  /** Absolute paths of the project files the bundle read (what a watcher should follow). */
  inputs: string[];
  /** Hash of the bundled code: the same for the same code, whatever the files' dates. */
  hash: string;
}

export interface ServerBundleOptions {
  /** What to bundle: the path of a module, or generated source with the folder its imports resolve from. */
  entry: { file: string } | { contents: string; resolveDir: string };
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

let loads = 0;

export async function loadServerModule<T>(options: ServerBundleOptions): Promise<ServerModule<T>> {
  const entry =
    'file' in options.entry
      ? { entryPoints: [options.entry.file] }
      : { stdin: { ...options.entry, loader: 'ts' as const, sourcefile: 'site-gen-entry.ts' } };
  let result;
  try {
    result = await build({
      ...entry,
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      // Packages stay imports (publicEntryForNode resolves each to its file); only 'module' is dropped from esbuild's
      // conditions, so a package resolves to the file Node itself would load (one instance, shared with the tool).
      conditions: [],
      jsx: 'automatic',
      metafile: true,
      sourcemap: 'inline',
      // Stack traces need the mappings only: the sources' text would double the map (tens of MB for a site whose
      // content lists 100,000 items), and Node keeps the map of every module it loads.
      sourcesContent: false,
      logLevel: 'silent',
      absWorkingDir: options.root,
      // A package the site has not installed is looked for where the tool's packages are.
      nodePaths: [join(toolRoot, 'node_modules')],
      plugins: [publicEntryForNode],
      define: { 'process.env.NODE_ENV': '"production"' },
    });
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages?.length) throw new ServerBundleFailure(messages);
    throw error;
  }
  const code = result.outputFiles[0]!.contents;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 32);
  await mkdir(options.cacheDir, { recursive: true });
  // A name no other load shares (so no other build can delete it under us); removed once imported, since Node keeps
  // the module: a long watch session leaves no trail of bundles on disk.
  const file = join(options.cacheDir, `server-${hash.slice(0, 16)}-${process.pid}-${++loads}.mjs`);
  await writeFile(file, code);
  try {
    const exports = (await import(pathToFileURL(file).href)) as T;
    return { exports, inputs: inputsOf(result.metafile, options.root), hash };
  } finally {
    await rm(file, { force: true });
  }
}

function inputsOf(metafile: Metafile, root: string): string[] {
  return Object.keys(metafile.inputs)
    .filter((p) => !p.startsWith('<') && !p.includes('node_modules'))
    .map((p) => resolve(root, p))
    .sort((a, b) => relative(root, a).localeCompare(relative(root, b)));
}
