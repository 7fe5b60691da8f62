// What `site-gen build` keeps between builds: each page's render, critical CSS and document, the client bundle and the
// compressed output files, named by a hash of everything each was made from, so unchanged work is read back.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { toolModule, toolRoot } from '../core/paths.ts';
import type { ClientBundle } from './bundle.ts';
import { asBuffer, type Compressed, type CompressionStore } from './compress.ts';
import type { RenderedPage } from './render.tsx';

/** One page as the last build made it. Each part is valid while its own key is the current one. */
export interface CachedPage {
  page: RenderedPage;
  /** The stylesheet the critical CSS was selected from (its hash); the page's HTML is fixed by the render key. */
  cssKey: string;
  critical: string;
  /** Everything the document adds to the page: template, stylesheet name, scripts, critical CSS. */
  documentKey: string;
  html: string;
}

interface CachedBundle {
  /** Every project file the bundle read, with the hash of its content then. */
  inputs: Array<[file: string, hash: string]>;
  files: Array<[path: string, data: Uint8Array]>;
  pages: Array<[name: string, scripts: ClientBundle['pages'] extends Map<string, infer S> ? S : never]>;
  captureScript: string;
}

interface CacheFile {
  pages: Record<string, CachedPage>;
  bundles: Record<string, CachedBundle>;
  /** Compressed output files by content hash and settings (see compress.ts): one file rather than one per output file. */
  compressed: Record<string, Compressed>;
}

export function hash(...parts: Array<string | Uint8Array>): string {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('hex').slice(0, 32);
}

let toolKey: string | undefined;

/**
 * The tool's own code and its dependencies' versions: a new site-gen, React or esbuild may make other pages from the
 * same site. By content, so a cache outlives any one build of the tool: the version in package.json, every file of the
 * running code (lib/ as installed; src/ less the site and the scaffold under tsx), and the version of each dependency
 * as installed. The site's folder (src/site) is the site's code, hashed through its bundle instead.
 */
export function toolVersionKey(): string {
  if (toolKey) return toolKey;
  const manifest = join(toolRoot, 'package.json');
  const dependencies = Object.keys(
    (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {},
  ).sort();
  toolKey = hash(
    readFileSync(manifest),
    ...toolCode(dirname(toolModule('index'))).flatMap((file) => [relative(toolRoot, file), readFileSync(file)]),
    ...dependencies.map((name) => `${name}@${installedVersion(name)}`),
  );
  return toolKey;
}

/** The files of the tool's code folder, sorted; src/site and the scaffold are not the tool, nor lib/'s build stamp. */
function toolCode(dir: string): string[] {
  const skipped = new Set([join(dir, 'site'), join(dir, 'cli', 'scaffold')]);
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !skipped.has(path)) walk(path);
      else if (entry.isFile() && !entry.name.startsWith('.')) files.push(path);
    }
  };
  walk(dir);
  return files.sort();
}

/** The version of a dependency as Node finds it from the tool's folder (its node_modules, then each parent's). */
function installedVersion(name: string): string {
  for (let dir = toolRoot; ; dir = dirname(dir)) {
    const manifest = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) return 'missing';
  }
}

/**
 * One file per project, output base and mode (V8's serialization: pages are mostly HTML, which JSON would escape
 * character by character; a thousand pages are written in a fifth of the time), read whole at the start of a build and written whole at its end with
 * only what that build used: it never grows with stale entries. Safe to delete; an entry is named by what it was made
 * from, so it is never stale. A damaged or unreadable file only costs the cache.
 */
export class PageCache implements CompressionStore {
  readonly #file: string;
  #previous: CacheFile = { pages: {}, bundles: {}, compressed: {} };
  readonly #next: CacheFile = { pages: {}, bundles: {}, compressed: {} };
  #changed = false;
  /** How many pages were read back and how many were made: for the build's summary, the bench and the tests. */
  readonly counts = { kept: 0, made: 0 };

  private constructor(file: string) {
    this.#file = file;
  }

  /** The cache file of the project whose config is `config`, built for `base` by `site-gen build` or `watch`. */
  static fileFor(cacheRoot: string, config: string, base: string, mode: 'build' | 'dev' = 'build'): string {
    return join(cacheRoot, 'pages', `${hash(resolve(config), base, mode)}.v8`);
  }

  /** Read synchronously: the pipeline's first stages need it, and nothing else runs before them. */
  static open(cacheRoot: string, config: string, base: string, mode: 'build' | 'dev' = 'build'): PageCache {
    const cache = new PageCache(PageCache.fileFor(cacheRoot, config, base, mode));
    try {
      const parsed = deserialize(readFileSync(cache.#file)) as CacheFile;
      if (
        parsed &&
        typeof parsed.pages === 'object' &&
        typeof parsed.bundles === 'object' &&
        typeof parsed.compressed === 'object'
      )
        cache.#previous = parsed;
    } catch {
      // no cache yet, or a damaged one: make everything
    }
    return cache;
  }

  /** The page kept under `renderKey`, if any; it is carried into the next cache file. */
  page(renderKey: string): CachedPage | undefined {
    const kept = this.#next.pages[renderKey] ?? this.#previous.pages[renderKey];
    if (kept) this.#next.pages[renderKey] = kept;
    return kept;
  }

  setPage(renderKey: string, page: CachedPage): void {
    this.#next.pages[renderKey] = page;
    this.#changed = true;
  }

  /** The client bundle kept under `key`, if every file it read still has the content it had. */
  bundle(key: string): ClientBundle | undefined {
    const kept = this.#previous.bundles[key];
    if (!kept) return undefined;
    for (const [file, sum] of kept.inputs) {
      let now: string;
      try {
        now = hash(readFileSync(file));
      } catch {
        return undefined;
      }
      if (now !== sum) return undefined;
    }
    this.#next.bundles[key] = kept;
    return {
      files: new Map(kept.files),
      pages: new Map(kept.pages),
      inputs: kept.inputs.map(([file]) => file),
      captureScript: kept.captureScript,
    };
  }

  setBundle(key: string, bundle: ClientBundle): void {
    this.#next.bundles[key] = {
      inputs: bundle.inputs.map((file) => [file, hash(readFileSync(file))]),
      files: [...bundle.files],
      pages: [...bundle.pages],
      captureScript: bundle.captureScript,
    };
    this.#changed = true;
  }

  /** The compressed file kept under `key`, if any; it is carried into the next cache file. */
  compressed(key: string): Compressed | undefined {
    const kept = this.#next.compressed[key] ?? this.#previous.compressed[key];
    if (!kept) return undefined;
    this.#next.compressed[key] = kept;
    return { br: asBuffer(kept.br), gz: asBuffer(kept.gz) };
  }

  setCompressed(key: string, result: Compressed): void {
    this.#next.compressed[key] = result;
    this.#changed = true;
  }

  /** Writes what this build used, beside and then renamed over the old file, when anything changed. */
  async save(): Promise<void> {
    const dropped = (['pages', 'bundles', 'compressed'] as const).some((part) =>
      Object.keys(this.#previous[part]).some((key) => !this.#next[part][key]),
    );
    if (!this.#changed && !dropped) {
      // Marked as used, so that removeUnused keeps it.
      await utimes(this.#file, new Date(), new Date()).catch(() => undefined);
      return;
    }
    this.#previous = {
      pages: { ...this.#next.pages },
      bundles: { ...this.#next.bundles },
      compressed: { ...this.#next.compressed },
    };
    this.#changed = false;
    await writeCacheFile(this.#file, () => serialize(this.#next));
  }
}

/**
 * Writes a file of the cache folder beside and then renames it over the old one (a build killed halfway never leaves
 * half a file), then removes the files beside it that nobody has written or used for a week. A read-only or full disk
 * only costs the cache: the build still has its output.
 */
export async function writeCacheFile(file: string, data: () => string | Uint8Array): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
    await writeFile(temporary, data());
    await rename(temporary, file);
    await removeUnused(dirname(file));
  } catch {
    // a read-only or full disk
  }
}

/** A project not built for this long (a deleted checkout, a test's temporary copy) loses its cache file. */
const UNUSED_MS = 7 * 24 * 3600 * 1000;

/** Removes the files of `dir` not written or used for a week: the cache files of projects no longer built. */
async function removeUnused(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > UNUSED_MS) await rm(file, { force: true });
  }
}
