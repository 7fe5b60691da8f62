// Loads the site's code for rendering: the content files, their schemas and the routes, bundled in one pass.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ZodType } from 'zod';
import { BundleError, ContentError, RenderError, RoutesError } from '../core/errors.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import type { HeadHook } from '../core/head.ts';
import type { Route } from '../core/routes.ts';
import { findModule, type ProjectPaths } from '../core/paths.ts';
import { formatMessage, loadServerModule, ServerBundleFailure } from './server-bundle.ts';
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
  /** Every project file the site's code was built from. */
  inputs: string[];
  /** Hash of the site's compiled code (content, routes, pages, components): what its renders are made from. */
  hash: string;
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

export async function loadSite(paths: ProjectPaths): Promise<LoadedSite> {
  if (!existsSync(paths.contentSchema))
    throw new ContentError(
      `${rel(paths, paths.contentSchema)} does not exist. Create it with the content schemas (export const collections = { ... }).`,
    );
  if (!existsSync(paths.routes))
    throw new RoutesError(
      `${rel(paths, paths.routes)} does not exist. Create it with the routes (export const routes: Route[] = [ ... ]).`,
    );
  try {
    const { exports, inputs, hash } = await loadServerModule<SiteModule>({
      entry: { contents: siteEntrySource(paths), resolveDir: paths.root },
      root: paths.root,
      cacheDir: paths.cache,
    });
    return { ...exports, inputs, hash };
  } catch (error) {
    throw asLoadError(paths, error);
  }
}

function asLoadError(_paths: ProjectPaths, error: unknown): Error {
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

/** Validates every content file against its collection's schema; returns the parsed content keyed by collection. */
export function validateContent(paths: ProjectPaths, site: SiteModule): Record<string, unknown> {
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
    const parsed = collection.schema.safeParse(mod.default);
    if (!parsed.success)
      throw new ContentError(describeIssue(shown, parsed.error, { prefix: name, data: mod.default, separator: ' ' }));
    content[name] = parsed.data;
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
