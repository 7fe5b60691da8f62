// Loads the site's code for rendering: the content files, their schemas and the routes, bundled in one pass.
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ZodType } from 'zod';
import { BundleError, ContentError, RenderError } from '../errors.ts';
import type { Route } from '../routes.ts';
import type { ProjectPaths } from './paths.ts';
import { formatMessage, loadServerModule, ServerBundleFailure } from './server-bundle.ts';

export interface Collection {
  file: string;
  schema: ZodType;
}

export interface SiteModule {
  collections: Record<string, Collection>;
  contentModules: Record<string, { default?: unknown }>;
  routes: Route[];
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
  const lines = [
    `export { collections } from ${JSON.stringify(paths.contentSchema)};`,
    `export { routes } from ${JSON.stringify(paths.routes)};`,
    ...files.map((f, i) => `import * as c${i} from ${JSON.stringify(join(paths.content, f))};`),
    `export const contentModules = { ${files.map((f, i) => `${JSON.stringify(f)}: c${i}`).join(', ')} };`,
  ];
  return lines.join('\n');
}

export async function loadSite(paths: ProjectPaths): Promise<LoadedSite> {
  for (const [file, what] of [
    [paths.contentSchema, 'the content schemas (export const collections = { ... })'],
    [paths.routes, 'the routes (export const routes: Route[] = [ ... ])'],
  ] as const) {
    if (!existsSync(file)) throw new ContentError(`${rel(paths, file)} does not exist. Create it with ${what}.`);
  }
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

function asLoadError(paths: ProjectPaths, error: unknown): Error {
  if (error instanceof ServerBundleFailure) {
    const first = error.messages[0]!;
    const file = first.location?.file ?? '';
    const text = `${formatMessage(first)}${error.messages.length > 1 ? ` (and ${error.messages.length - 1} more errors)` : ''}`;
    if (file.startsWith('content/')) return new ContentError(`Content could not be compiled: ${text}. Fix the file and build again.`);
    return new BundleError(`The site's code could not be compiled: ${text}. Fix the file and build again.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new RenderError(`The site's code threw while loading (${message}). Check the module named in the stack (run with --debug).`, { cause: error });
}

/** Validates every content file against its collection's schema; returns the parsed content keyed by collection. */
export function validateContent(paths: ProjectPaths, site: SiteModule): Record<string, unknown> {
  if (!site.collections || typeof site.collections !== 'object') {
    throw new ContentError(`${rel(paths, paths.contentSchema)}: has no \`collections\` export. Export an object mapping each collection to { file, schema }.`);
  }
  if (!Array.isArray(site.routes) || site.routes.length === 0) {
    throw new ContentError(`${rel(paths, paths.routes)}: \`routes\` must be a non-empty array of routes. Export const routes = [{ path: '/', page, head }].`);
  }
  const content: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const [name, collection] of Object.entries(site.collections)) {
    const shown = `content/${collection.file}`;
    known.add(collection.file);
    const mod = site.contentModules[collection.file];
    if (!mod) throw new ContentError(`${shown} does not exist, but content/schema.ts declares the collection "${name}" in it. Create the file or remove the collection.`);
    if (mod.default === undefined) throw new ContentError(`${shown}: has no default export. End it with \`export default { ... }\` holding the ${name}.`);
    const parsed = collection.schema.safeParse(mod.default);
    if (!parsed.success) throw new ContentError(describeContentIssue(shown, name, mod.default, parsed.error));
    content[name] = parsed.data;
  }
  for (const file of Object.keys(site.contentModules)) {
    if (!known.has(file)) throw new ContentError(`content/${file} is not declared in content/schema.ts. Add a collection for it or move it out of content/.`);
  }
  return content;
}

/** Names the item by its id where it has one: `services[5] ("service-video-production").bullets`. */
function describeContentIssue(file: string, collection: string, data: unknown, error: import('zod').ZodError): string {
  const issue = error.issues[0]!;
  const path = [...issue.path];
  let label = collection;
  let value: unknown = data;
  for (const key of path) {
    value = (value as Record<PropertyKey, unknown> | undefined)?.[key as never];
    label += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
    const id = (value as { id?: unknown } | undefined)?.id;
    if (typeof key === 'number' && typeof id === 'string') label += ` ("${id}")`;
  }
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? 's' : ''})` : '';
  const missing = issue.code === 'invalid_type' && value === undefined;
  const text = missing ? `is missing; add it (expected ${issue.expected}).` : issue.message.replace(/^Invalid input: /, '');
  return `${file}: ${label} ${/[.!?]$/.test(text) ? text : `${text}.`}${more}`;
}

function rel(paths: ProjectPaths, file: string): string {
  return relative(paths.root, file);
}
