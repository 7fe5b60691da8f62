// Compiles the site's stylesheet with lightningcss: @imports bundled, nesting lowered, url() files emitted as hashed assets.
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { browserslistToTargets, bundleAsync, Features, type UrlDependency } from 'lightningcss';
import { CssError } from '../core/errors.ts';
import { normaliseBase } from '../core/base-path.ts';
import { resolveBrowsers } from './targets.ts';

export interface CompileStylesheetOptions {
  /** Absolute path of the entry stylesheet, e.g. <root>/src/site/styles/main.css. */
  entry: string;
  /** browserslist queries (config `build.browserslist`); syntax is lowered for these browsers. */
  browserslist: string[];
  /** URL base the site is served under; asset URLs start with it. Default '/'. */
  base?: string;
  /** Default true. */
  minify?: boolean;
}

export interface CssAsset {
  /** Path inside the output folder, e.g. 'assets/anton-latin-400-normal-1a2b3c4d.woff2'. */
  fileName: string;
  source: Buffer;
}

export interface CompiledStylesheet {
  css: string;
  /** Files referenced by url(), content-hashed, sorted by fileName. */
  assets: CssAsset[];
  /** Absolute paths of every CSS file read (entry and imports), sorted: what the watcher watches. */
  dependencies: string[];
}

/** A url() that points at another origin, inline data or a fragment of the same document is not a file of ours. */
const EXTERNAL_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#)/i;

export async function compileStylesheet(options: CompileStylesheetOptions): Promise<CompiledStylesheet> {
  const { entry, minify = true } = options;
  const base = normaliseBase(options.base);
  const targets = browserslistToTargets(resolveBrowsers(options.browserslist));
  if (!existsSync(entry)) {
    throw new CssError(
      `The stylesheet ${display(entry)} does not exist. Create it, or point the build at the right entry stylesheet.`,
    );
  }

  const read = new Set<string>();
  let result;
  try {
    result = await bundleAsync({
      filename: entry,
      minify,
      targets,
      // Always lower nesting: the critical-CSS pass matches flat selectors against the page.
      include: Features.Nesting,
      analyzeDependencies: true,
      resolver: {
        read: async (file: string) => {
          read.add(file);
          return readFile(file, 'utf8');
        },
        resolve: (specifier: string, from: string) => resolveImport(specifier, from),
      },
    });
  } catch (error) {
    throw toCssError(error, entry);
  }

  let css = Buffer.from(result.code).toString('utf8');
  const assets = new Map<string, CssAsset>();
  const replacements = new Map<string, string>();
  const sourceCache = new Map<string, Promise<Buffer>>();
  for (const dependency of result.dependencies ?? []) {
    if (dependency.type !== 'url' || replacements.has(dependency.placeholder)) continue;
    replacements.set(dependency.placeholder, await rewriteUrl(dependency, base, assets, sourceCache));
  }
  // lightningcss prints each placeholder as url("placeholder"); swap in the final URL in one pass.
  if (replacements.size > 0) {
    const pattern = new RegExp(`url\\((["']?)(${[...replacements.keys()].map(escapeRegExp).join('|')})\\1\\)`, 'g');
    css = css.replace(pattern, (_match, _quote: string, placeholder: string) => cssUrl(replacements.get(placeholder)!));
  }

  return {
    css,
    assets: [...assets.values()].sort((a, b) => compare(a.fileName, b.fileName)),
    dependencies: [...read].sort(compare),
  };
}

/** The URL a url() ends up with: left alone when external, otherwise the hashed asset it becomes. */
async function rewriteUrl(
  dependency: UrlDependency,
  base: string,
  assets: Map<string, CssAsset>,
  sourceCache: Map<string, Promise<Buffer>>,
): Promise<string> {
  const { url } = dependency;
  if (EXTERNAL_URL.test(url)) return url;
  // Root-relative URLs point into public/, which is copied to the root of the output as is.
  if (url.startsWith('/')) return base + url.slice(1);

  const [withoutFragment, fragment = ''] = splitOnce(url, '#');
  const [pathPart] = splitOnce(withoutFragment, '?');
  const cssFile = dependency.loc.filePath;
  const file = resolveUrlFile(decodeUrlPath(pathPart), cssFile);
  if (!file) {
    throw new CssError(
      `${display(cssFile)}:${dependency.loc.start.line}:${dependency.loc.start.column}: url("${url}") points at no file ` +
        `(looked for ${display(path.resolve(path.dirname(cssFile), decodeUrlPath(pathPart)))} and for a package file in node_modules). ` +
        'Fix the path (it is relative to this CSS file), install the package, or put the file in public/ and use a URL starting with "/".',
    );
  }
  let source = sourceCache.get(file);
  if (!source) {
    source = readFile(file);
    sourceCache.set(file, source);
  }
  const bytes = await source;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 8);
  const extension = path.extname(file);
  const fileName = `assets/${path.basename(file, extension)}-${hash}${extension}`;
  if (!assets.has(fileName)) assets.set(fileName, { fileName, source: bytes });
  return `${base}${fileName}${fragment ? `#${fragment}` : ''}`;
}

/** A url() is relative to its CSS file; failing that, a bare specifier names a file in a package. */
function resolveUrlFile(specifier: string, cssFile: string): string | undefined {
  const relative = path.resolve(path.dirname(cssFile), specifier);
  if (isFile(relative)) return relative;
  if (specifier.startsWith('.')) return undefined;
  try {
    const resolved = createRequire(cssFile).resolve(specifier);
    return isFile(resolved) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** Where an @import points: a file relative to the importing one, a package's CSS, or an external URL kept as is. */
function resolveImport(specifier: string, from: string): string | { external: string } {
  if (EXTERNAL_URL.test(specifier)) return { external: specifier };
  const relative = path.resolve(path.dirname(from), decodeUrlPath(specifier));
  if (isFile(relative)) return relative;
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) {
    let resolved: string | undefined;
    try {
      resolved = createRequire(from).resolve(specifier);
    } catch {
      resolved = undefined;
    }
    if (resolved?.endsWith('.css')) return resolved;
    if (resolved) {
      throw new ImportNotFound(
        `@import "${specifier}" resolves to ${display(resolved)}, which is not a CSS file. Import the package's .css file by its full path, e.g. "${specifier}/index.css".`,
      );
    }
  }
  throw new ImportNotFound(
    `@import "${specifier}" points at no file (looked for ${display(relative)}${specifier.startsWith('.') ? '' : ' and for a package in node_modules'}). ` +
      'Fix the path (it is relative to this CSS file) or install the package.',
  );
}

/** Thrown inside the resolver; lightningcss adds the importing file and position before it reaches us. */
class ImportNotFound extends Error {}

interface LightningError {
  message: string;
  fileName?: string;
  loc?: { line: number; column: number };
}

function toCssError(error: unknown, entry: string): CssError {
  if (error instanceof CssError) return error;
  const failure = (error ?? {}) as LightningError;
  const where = `${display(failure.fileName ?? entry)}${failure.loc ? `:${failure.loc.line}:${failure.loc.column}` : ''}`;
  if (error instanceof ImportNotFound) return new CssError(`${where}: ${error.message}`);
  const message = typeof failure.message === 'string' ? failure.message : String(error);
  return new CssError(`${where}: ${message}. Fix the CSS at that position.`, { cause: error });
}

/** A URL as CSS text: bare when it can be, quoted and escaped otherwise. */
function cssUrl(url: string): string {
  if (/^[^\s"'()\\]*$/.test(url)) return `url(${url})`;
  return `url("${url.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}")`;
}

function decodeUrlPath(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function splitOnce(value: string, separator: string): [string, string?] {
  const index = value.indexOf(separator);
  return index === -1 ? [value] : [value.slice(0, index), value.slice(index + 1)];
}

/** A path as the user knows it: relative to the working folder when inside it. */
function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Code-point order, independent of locale, so output never depends on the machine. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
