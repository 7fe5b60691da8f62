// Loads the site's code for rendering: its routes, pages and schemas bundled in one pass, each content file apart.
import type { Metafile } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { ZodType } from 'zod';
import { BundleError, ContentError, RenderError, RoutesError, SiteGenError } from '../core/errors.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import type { HeadHook } from '../core/head.ts';
import type { Route } from '../core/routes.ts';
import { findModule, type ProjectPaths } from '../core/paths.ts';
import {
  type ContentModule,
  ContentModules,
  contentImports,
  linkContent,
  sourcesHash,
  writeTrackedModule,
} from './content-modules.ts';
import type { ContentReads } from './render-reads.ts';
import { EsbuildCache } from './esbuild-cache.ts';
import {
  bundleForNode,
  codeHash,
  formatMessage,
  importOnce,
  inputsOf,
  nodeBundleOptions,
  ServerBundleFailure,
} from './server-bundle.ts';
import { describeIssue } from '../core/validate.ts';
import { isMarkdownCollection } from '../content/collection.ts';

export interface Collection {
  file: string;
  schema: ZodType;
}

export interface SiteModule {
  collections: Record<string, Collection>;
  contentModules: Record<string, { default?: unknown }>;
  /** The routes, or a function of the content that returns them (see src/content/routes.ts). */
  routes: Route[] | ((content: unknown) => Route[]);
  /** The named export `head` of src/site/head.ts, if the site has that file. */
  head?: HeadHook;
  /** The default export of src/site/error.tsx, if the site has that file. */
  errorScreen?: ErrorScreenComponent;
}

export interface LoadedSite extends SiteModule {
  /** Every project file the site's code was built from, content files included. */
  inputs: string[];
  /** Hash of the site's compiled code (content, routes, pages, components): what its renders are made from. */
  hash: string;
  /**
   * Hash of the site's code without its content's data: the bundle (which names content modules by tokens) and the
   * names each content module exports. What a render is made from besides the content it reads (see render-reads.ts).
   */
  code: string;
  /** Hash of content/schema.ts and what it imports, as read before they were compiled: see ParsedContent. */
  schemaHash: string;
}

/** Content files: every .ts file in content/ except the schema. */
export function contentFiles(paths: ProjectPaths): string[] {
  if (!existsSync(paths.content)) return [];
  return readdirSync(paths.content)
    .filter((f) => /\.tsx?$/.test(f) && !/\.d\.ts$/.test(f) && f !== 'schema.ts')
    .sort();
}

export function siteEntrySource(paths: ProjectPaths): string {
  const files = contentFiles(paths);
  const head = findModule(paths.head);
  const errorScreen = findModule(paths.errorScreen);
  const lines = [
    `export { collections } from ${JSON.stringify(paths.contentSchema)};`,
    `export { routes } from ${JSON.stringify(paths.routes)};`,
    ...(head ? [`export { head } from ${JSON.stringify(head)};`] : []),
    ...(errorScreen ? [`export { default as errorScreen } from ${JSON.stringify(errorScreen)};`] : []),
    ...files.map((f, i) => `import * as c${i} from ${JSON.stringify(join(paths.content, f))};`),
    `export const contentModules = { ${files.map((f, i) => `${JSON.stringify(f)}: c${i}`).join(', ')} };`,
  ];
  return lines.join('\n');
}

/**
 * Loads the site's code, again after each change in a watch session. The content files are compiled apart (see
 * content-modules.ts), each once while it stays the same; the rest of the site's code, which imports them as modules,
 * is bundled and imported anew each load (in dev with esbuild's context kept, so a rebuild parses only what changed).
 */
export class SiteLoader {
  readonly #paths: ProjectPaths;
  readonly #content: ContentModules;
  readonly #esbuild: EsbuildCache | undefined;
  /** content/schema.ts and the project files it imported in the last load. */
  #schemaInputs: string[] | undefined;
  /**
   * Dev: the last code bundle, its generated entry and the hash of its inputs as read before it was made ('' when not
   * known then): used again, without esbuild, while they read the same (a content edit changes no code).
   */
  #bundle: { entry: string; sources: string; inputs: string[]; code: string; metafile: Metafile } | undefined;

  /** Build: wraps the content the site's code imports, to record what each page reads (see render-reads.ts). */
  readonly #reads: ContentReads | undefined;

  constructor(paths: ProjectPaths, options: { keepContext?: boolean; reads?: ContentReads } = {}) {
    this.#paths = paths;
    this.#reads = options.reads;
    this.#content = new ContentModules(paths);
    this.#esbuild = options.keepContext ? new EsbuildCache() : undefined;
  }

  /** How many times the site's code was bundled (in dev, not again while none of its files changed). */
  codeBundles = 0;

  /** How many content files were compiled so far (an unchanged one is compiled once). */
  get contentCompiles(): number {
    return this.#content.compiled;
  }

  async load(): Promise<LoadedSite> {
    const paths = this.#paths;
    if (!existsSync(paths.contentSchema))
      throw new ContentError(
        `${rel(paths, paths.contentSchema)} does not exist. Create it with the content schemas (export const collections = { ... }).`,
      );
    if (!existsSync(paths.routes))
      throw new RoutesError(
        `${rel(paths, paths.routes)} does not exist. Create it with the routes (export const routes: Route[] = [ ... ]).`,
      );
    try {
      const files = contentFiles(paths);
      // Read before compiling, as the content modules are (see ContentModules).
      const schemaRead = this.#schemaInputs ?? [paths.contentSchema];
      const schemaBefore = sourcesHash(schemaRead);
      // esbuild compiles the changed content files and bundles the site's code side by side.
      const [modules, bundle] = await Promise.allSettled([this.#content.load(files), this.#code(files)]);
      if (modules.status === 'rejected') throw modules.reason;
      if (bundle.status === 'rejected') throw bundle.reason;
      const code = bundle.value.code;
      // The bundle names content modules by tokens: its hash changes with the code only.
      const bundleHash = codeHash(code);
      const exports = await this.#import(code, bundleHash, modules.value);
      const schemaInputs = importsOf(bundle.value.metafile, paths.root, paths.contentSchema);
      this.#schemaInputs = schemaInputs;
      const inputs = new Set([
        ...inputsOf(bundle.value.metafile, paths.root),
        ...modules.value.flatMap((module) => module.inputs),
      ]);
      return {
        ...exports,
        inputs: [...inputs].sort((a, b) => rel(paths, a).localeCompare(rel(paths, b))),
        // The content's data as the site's code found it: its modules' raw exports, never a tracker's wrappers.
        contentModules: Object.fromEntries(modules.value.map((module) => [module.file, module.exports])),
        hash: codeHash([bundleHash, ...modules.value.map((module) => `${module.file}:${module.hash}`)].join('\n')),
        code: codeHash(
          [
            bundleHash,
            ...modules.value.map((module) => `${module.file}:${Object.keys(module.exports).join(',')}`),
          ].join('\n'),
        ),
        // What it imports changed: read after compiling, so not known to match the code (parsed again next load too).
        schemaHash: schemaInputs.join('\n') === schemaRead.join('\n') ? schemaBefore : `unknown ${bundleHash}`,
      };
    } catch (error) {
      throw asLoadError(paths, error);
    }
  }

  /**
   * Imports the site's code linked to its content modules, or with reads tracked, to a wrapper of each (written for
   * this load, removed once imported: see writeTrackedModule).
   */
  async #import(code: string, bundleHash: string, modules: ContentModule[]): Promise<SiteModule> {
    const name = `server-${bundleHash.slice(0, 16)}`;
    const reads = this.#reads;
    if (!reads) return importOnce<SiteModule>(linkContent(code, modules), this.#paths.cache, name);
    const urls = new Map<ContentModule, string>();
    try {
      for (const module of modules) urls.set(module, await writeTrackedModule(module, reads.key, this.#paths.cache));
      return await importOnce<SiteModule>(
        linkContent(code, modules, (module) => urls.get(module)!),
        this.#paths.cache,
        name,
      );
    } finally {
      await Promise.all([...urls.values()].map((url) => rm(new URL(url), { force: true })));
    }
  }

  async dispose(): Promise<void> {
    await this.#esbuild?.dispose();
    await this.#content.dispose();
  }

  /** The site's code bundled (content files as imports), or in dev the last bundle while no file of it changed. */
  async #code(files: string[]): Promise<{ code: string; metafile: Metafile }> {
    const paths = this.#paths;
    const entry = siteEntrySource(paths);
    const last = this.#bundle?.entry === entry ? this.#bundle : undefined;
    // Read before bundling, as the content modules are (see ContentModules).
    const sources = last && sourcesHash(last.inputs);
    if (last && last.sources === sources) return last;
    const options = nodeBundleOptions({ contents: entry, resolveDir: paths.root }, paths.root, {
      plugins: [contentImports(paths.content, files)],
    });
    const started = Date.now();
    const bundle = await bundleForNode(options, this.#esbuild);
    this.codeBundles += 1;
    if (this.#esbuild) {
      const inputs = inputsOf(bundle.metafile, paths.root);
      let known = last && inputs.join('\n') === last.inputs.join('\n') ? sources! : '';
      // Inputs not known before (the first load): read now, they are what esbuild read if none was written since a
      // little before it started (the margin for file systems with coarse times).
      if (!known) {
        const read = sourcesHash(inputs);
        if (await writtenBefore(inputs, started - 2000)) known = read;
      }
      this.#bundle = { entry, sources: known, inputs, ...bundle };
    }
    return bundle;
  }
}

/** Loads the site's code once (see SiteLoader). */
export async function loadSite(paths: ProjectPaths): Promise<LoadedSite> {
  const loader = new SiteLoader(paths);
  try {
    return await loader.load();
  } finally {
    await loader.dispose();
  }
}

/** Whether every file was last written before `time` (ms since the epoch); a missing file was not. */
async function writtenBefore(files: string[], time: number): Promise<boolean> {
  const times = await Promise.all(
    files.map((file) =>
      stat(file).then(
        (info) => info.mtimeMs,
        () => Infinity,
      ),
    ),
  );
  return times.every((mtime) => mtime < time);
}

/** `file` and the project files it imports, directly or not, in a bundle's metafile: absolute paths, sorted. */
function importsOf(metafile: Metafile, root: string, file: string): string[] {
  const seen = new Set<string>();
  const visit = (input: string) => {
    if (seen.has(input) || !metafile.inputs[input]) return;
    seen.add(input);
    for (const { path } of metafile.inputs[input].imports) visit(path);
  };
  visit(relative(root, file).split('\\').join('/'));
  return [...seen]
    .filter((input) => !input.includes('node_modules'))
    .map((input) => resolve(root, input))
    .sort();
}

function asLoadError(_paths: ProjectPaths, error: unknown): Error {
  if (error instanceof SiteGenError) return error;
  if (error instanceof ServerBundleFailure) {
    const first = error.messages[0]!;
    const file = first.location?.file ?? '';
    const text = `${formatMessage(first)}${error.messages.length > 1 ? ` (and ${error.messages.length - 1} more errors)` : ''}`;
    if (file.startsWith('content/'))
      return new ContentError(`Content could not be compiled: ${text}. Fix the file and build again.`);
    return new BundleError(`The site's code could not be compiled: ${text}. Fix the file and build again.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new RenderError(
    `The site's code threw while loading (${message}). Check the module named in the stack (run with --debug).`,
    { cause: error },
  );
}

/**
 * Each content file's data as last parsed, with the module and the schema (see LoadedSite.schemaHash) it was parsed
 * with: a watch session parses again only the files whose module or schema changed (10,000 items take zod ~0.1 s).
 */
export class ParsedContent {
  /** How many content files were parsed (not taken from an earlier parse). */
  parses = 0;
  readonly #kept = new Map<string, { module: object; schema: string; data: unknown }>();

  parsed(key: string, module: object, schema: string, parse: () => unknown): unknown {
    const kept = this.#kept.get(key);
    if (kept?.module === module && kept.schema === schema) return kept.data;
    const data = parse();
    this.parses += 1;
    this.#kept.set(key, { module, schema, data });
    return data;
  }
}

/**
 * Validates every content file against its collection's schema; returns the parsed content keyed by collection.
 * With `kept` and a loaded site's schema hash, a file parsed before with the same module and schema is not parsed again.
 */
export function validateContent(
  paths: ProjectPaths,
  site: SiteModule & { schemaHash?: string },
  kept?: ParsedContent,
): Record<string, unknown> {
  if (!site.collections || typeof site.collections !== 'object') {
    throw new ContentError(
      `${rel(paths, paths.contentSchema)}: has no \`collections\` export. Export an object mapping each collection to { file, schema }.`,
    );
  }
  if (typeof site.routes !== 'function' && (!Array.isArray(site.routes) || site.routes.length === 0)) {
    throw new RoutesError(
      `${rel(paths, paths.routes)}: \`routes\` must be a non-empty array of routes, or a function of the content returning one. Export const routes = [{ path: '/', page, head }].`,
    );
  }
  for (const [hook, file, kind] of [
    ['head', paths.head, 'a named export `head`, a function'],
    ['errorScreen', paths.errorScreen, 'a default export, a React component'],
  ] as const) {
    if (site[hook] !== undefined && typeof site[hook] !== 'function')
      throw new RenderError(
        `${rel(paths, findModule(file) ?? file)}: needs ${kind} (see docs/guide.md, "Make your own site").`,
      );
  }
  const content: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const [name, collection] of Object.entries(site.collections)) {
    if (isMarkdownCollection(collection)) continue; // loaded by src/content/load.ts
    const shown = `content/${collection.file}`;
    known.add(collection.file);
    const mod = site.contentModules[collection.file];
    if (!mod)
      throw new ContentError(
        `${shown} does not exist, but content/schema.ts declares the collection "${name}" in it. Create the file or remove the collection.`,
      );
    if (mod.default === undefined)
      throw new ContentError(
        `${shown}: has no default export. End it with \`export default { ... }\` holding the ${name}.`,
      );
    const parse = () => {
      const parsed = collection.schema.safeParse(mod.default);
      if (!parsed.success)
        throw new ContentError(describeIssue(shown, parsed.error, { prefix: name, data: mod.default, separator: ' ' }));
      return parsed.data;
    };
    const schema = site.schemaHash;
    content[name] = kept && schema ? kept.parsed(`${name}\0${collection.file}`, mod, schema, parse) : parse();
  }
  for (const file of Object.keys(site.contentModules)) {
    if (!known.has(file))
      throw new ContentError(
        `content/${file} is not declared in content/schema.ts. Add a collection for it or move it out of content/.`,
      );
  }
  return content;
}

function rel(paths: ProjectPaths, file: string): string {
  return relative(paths.root, file);
}
