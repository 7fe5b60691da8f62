// What `site-gen build` keeps between builds: each page's render and links, the client bundle and the compressed
// output files other than pages, named by a hash of everything each was made from, so unchanged work is read back.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { PackStore } from './cache-store.ts';
import { digest, shortHex } from '../core/digest.ts';
import { toolModule, toolRoot } from '../core/paths.ts';
import type { ClientBundle } from './bundle.ts';
import { asBuffer, type Compressed, type CompressionStore } from './compress.ts';
import type { RenderedPage } from './render.tsx';
import type { ListItem } from './list-codec.ts';
import type { LastReads, ReadsSink, StoredReads } from './read-records.ts';

/** The parts a build's reads were stored in (see PageCache.readsSink): its run's name and each list's count. */
interface StoredParts {
  run: string;
  reads: number;
  groups: number;
  pages: number;
}

/** Under this key the last build's StoredParts are kept, for this version of the tool. */
const readsKey = () => `reads:${toolVersionKey()}`;

/** The key of part `index` of `list` of a build's stored reads. */
const partKey = (parts: StoredParts, list: keyof StoredReads, index: number) => `${parts.run}:${list}:${index}`;

interface CachedBundle {
  /** Every project file the bundle read, with the hash of its content then. */
  inputs: Array<[file: string, hash: string]>;
  files: Array<[path: string, data: Uint8Array]>;
  pages: Array<[name: string, scripts: ClientBundle['pages'] extends Map<string, infer S> ? S : never]>;
  captureScript: string;
}

/**
 * 32 hex digits of the hash of the parts, each ended by a NUL (src/core/digest.ts).
 */
export function hash(...parts: Array<string | Uint8Array>): string {
  const h = digest();
  for (const part of parts) h.update(part).update('\0');
  return shortHex(h);
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
 * The one place a page's cache keys are made. A render is made from the tool, the site's code and content, the config,
 * the base and the path; and, since a page may show the year (the footer does), the day it was made on: its render key,
 * known before it renders. What it rendered to (its HTML, head, islands, links, ids, images, and what the site's head
 * hook gives it) is its render hash: a content edit gives every page a new render key, but only the pages it shows on
 * a new render hash. Its document is made from the render hash and the rest of the document (the tool, the template,
 * the stylesheet, the scripts, the site's details and base): its document key, which stands for the bytes of its HTML
 * file and of their .br and .gz. A page whose document key is the last build's, and whose files are as that build left
 * them, is neither made nor written again.
 */
export function renderKey(siteKey: string, path: string): string {
  return hash(siteKey, path);
}

/** A render's hash: `htmlHash` is hash(page.html), which the build has made already to read the page's links. */
export function renderHash(page: RenderedPage, file: string, siteHead: unknown, htmlHash = hash(page.html)): string {
  const { html: _html, ...rest } = page;
  return hash(file, htmlHash, JSON.stringify(rest), JSON.stringify(siteHead ?? null));
}

/**
 * What every render key of a build names (see renderKey). Not the image files: a render reads the ones it shows
 * through the content tracker (Pipeline#imageReader), so a replaced image renders again only its pages.
 */
export function siteRenderKey(siteCode: string, config: unknown, base: string): string {
  return hash(toolVersionKey(), siteCode, JSON.stringify(config), base, new Date().toDateString());
}

/** What every document of a build is made from besides its page: see renderKey. */
export function documentBaseKey(parts: {
  template: string;
  templateFile: string;
  cssFile: string;
  css: string;
  extraScripts: readonly string[];
  site: unknown;
  base: string;
}): string {
  return hash(toolVersionKey(), JSON.stringify(parts));
}

/**
 * `scripts`: the page's scripts and the bundle's capture script (which only a page with scripts inlines), or nothing:
 * a page without islands keeps its key whatever bundle the other pages' islands make.
 */
export function documentKey(
  documentBase: string,
  renderHash: string,
  scripts: { scripts: unknown; captureScript: string } | undefined,
): string {
  return hash(documentBase, renderHash, JSON.stringify(scripts ?? null));
}

/**
 * What `site-gen build` keeps between builds, one folder per project, output base and mode (a PackStore: entries read
 * one at a time, never the whole cache): each page's render and links, the client bundle and the compressed output
 * files, named by a hash of everything each was made from, so an entry is never stale. Not the pages' documents nor
 * their compressions: a page whose document is the last build's is not made again at all (see build-record.ts), so
 * they would be read back only after the output folder was removed, and they are most of a cache's bytes. Each build
 * keeps only what it used: the cache holds one build's worth and never grows with old entries. Safe to delete.
 *
 * Without the cache (`--no-cache`) a build still streams its pages through a store, a temporary one (`scratch`) that
 * it reads nothing from and deletes at the end: the pages' renders wait there for the client bundle, out of memory.
 */
export class PageCache implements CompressionStore {
  readonly #store: PackStore;
  readonly #scratch: boolean;
  /** The last build's StoredParts, once `reads` has read them. */
  #lastReads: StoredParts | undefined;
  /** How many pages were read back and how many were made: for the build's summary, the bench and the tests. */
  readonly counts = { kept: 0, made: 0 };

  private constructor(store: PackStore, scratch: boolean) {
    this.#store = store;
    this.#scratch = scratch;
  }

  /** The cache folder of the project whose config is `config`, built for `base` by `site-gen build` or `watch`. */
  static dirFor(cacheRoot: string, config: string, base: string, mode: 'build' | 'dev' = 'build'): string {
    return join(cacheRoot, 'pages', hash(resolve(config), base, mode));
  }

  /** Reads the index only, synchronously: the pipeline's first stages need it, and nothing else runs before them. */
  static open(cacheRoot: string, config: string, base: string, mode: 'build' | 'dev' = 'build'): PageCache {
    return new PageCache(PackStore.open(PageCache.dirFor(cacheRoot, config, base, mode)), false);
  }

  /** A store for one build that keeps nothing: read nothing from, deleted by `dispose()`. */
  static scratch(): PageCache {
    return new PageCache(PackStore.open(mkdtempSync(join(tmpdir(), 'site-gen-pages-'))), true);
  }

  /** Whether this build counts kept and made pages (a scratch store keeps none). */
  get keeps(): boolean {
    return !this.#scratch;
  }

  render(key: string): RenderedPage | undefined {
    return this.#store.get<RenderedPage>(`r:${key}`);
  }

  setRender(key: string, page: RenderedPage): void {
    this.#store.set(`r:${key}`, page);
  }

  /** The render under `key` stays for the next build, unread: it is the same as the one rendered again. */
  keepRender(key: string): void {
    this.#store.keep(`r:${key}`);
  }

  /**
   * What each kept render read of the content, as the last build stored it (see render-reads.ts), its parts joined.
   * Under the tool's version, as the renders are: another site-gen never reads a record of a form it does not know.
   * Undefined when a piece of it is missing (see readsSink): every page is rendered again.
   */
  reads(): LastReads | undefined {
    if (this.#scratch) return undefined;
    const made = this.#store.get<StoredParts>(readsKey());
    if (!made || typeof made.run !== 'string') return undefined;
    const counts = [made.reads, made.groups, made.pages];
    if (!counts.every((count) => Number.isInteger(count) && count >= 0)) return undefined;
    // Its parts are read from here on, which keeps them for the next build: the sink's `done` lets them go.
    this.#lastReads = made;
    const whole = <T extends ListItem>(list: 'groups' | 'pages'): T[] | undefined => {
      const items: T[] = [];
      for (let index = 0; index < made[list]; index += 1) {
        const read = this.#store.getList<T>(partKey(made, list, index));
        if (!read) return undefined;
        for (const item of read) items.push(item);
      }
      return items;
    };
    // The texts are read a part at a time when asked for (see LastReads); they are there, or there are none.
    for (let index = 0; index < made.reads; index += 1)
      if (!this.#store.has(partKey(made, 'reads', index))) return undefined;
    const groups = whole<number[]>('groups');
    const pages = groups && whole<StoredReads['pages'][number]>('pages');
    if (!groups || !pages) return undefined;
    const store = this.#store;
    return {
      *texts() {
        for (let index = 0; index < made.reads; index += 1) yield store.getList<string>(partKey(made, 'reads', index));
      },
      groups,
      pages,
    };
  }

  /**
   * Where a build's reads go as they are made (see ReadsSink): each part is written as it comes, a buffer at a time
   * (see PackStore.setList), under this run's name; `done` names the run as the last build's reads. A build stopped
   * before then leaves the last build's reads as they were (its parts, named by no index, are pruned). With
   * --no-cache the parts are let go unwritten.
   */
  readsSink(): ReadsSink & { done(): void } {
    const made: StoredParts = { run: `${readsKey()}:${randomBytes(8).toString('hex')}`, reads: 0, groups: 0, pages: 0 };
    return {
      part: (list, items) => {
        if (this.#scratch) return;
        this.#store.setList(partKey(made, list, made[list]), items);
        made[list] += 1;
      },
      done: () => {
        if (this.#scratch) return;
        // The last build's parts, read by this one, are not the next build's.
        const last = this.#lastReads;
        if (last)
          for (const list of ['reads', 'groups', 'pages'] as const)
            for (let index = 0; index < last[list]; index += 1) this.#store.drop(partKey(last, list, index));
        this.#store.set(readsKey(), made);
      },
    };
  }

  /** The links and ids last read from the HTML of the page in `file`, if that HTML hashed to `html`. */
  links(file: string, html: string): { links: string[]; ids: string[] } | undefined {
    if (this.#scratch) return undefined;
    const kept = this.#store.get<{ html: string; links: string[]; ids: string[] }>(`l:${file}`);
    return kept?.html === html ? { links: kept.links, ids: kept.ids } : undefined;
  }

  setLinks(file: string, html: string, found: { links: string[]; ids: string[] }): void {
    if (!this.#scratch) this.#store.set(`l:${file}`, { html, ...found });
  }

  /** A page whose render was read back keeps its links for the next build, unread. */
  keepLinks(file: string): void {
    if (!this.#scratch) this.#store.keep(`l:${file}`);
  }

  /** The client bundle kept under `key`, if every file it read still has the content it had. */
  bundle(key: string): ClientBundle | undefined {
    if (this.#scratch) return undefined;
    const kept = this.#store.get<CachedBundle>(`b:${key}`);
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
    return {
      files: new Map(kept.files),
      pages: new Map(kept.pages),
      inputs: kept.inputs.map(([file]) => file),
      captureScript: kept.captureScript,
    };
  }

  setBundle(key: string, bundle: ClientBundle): void {
    if (this.#scratch) return;
    const kept: CachedBundle = {
      inputs: bundle.inputs.map((file) => [file, hash(readFileSync(file))]),
      files: [...bundle.files],
      pages: [...bundle.pages],
      captureScript: bundle.captureScript,
    };
    this.#store.set(`b:${key}`, kept);
  }

  /** The compressed file kept under `key`, if any. */
  compressed(key: string): Compressed | undefined {
    if (this.#scratch) return undefined;
    const kept = this.#store.get<Compressed>(`c:${key}`);
    return kept && { br: asBuffer(kept.br), gz: asBuffer(kept.gz) };
  }

  setCompressed(key: string, result: Compressed): void {
    if (!this.#scratch) this.#store.set(`c:${key}`, result);
  }

  /**
   * Writes the index of what this build used (entries it did not use are pruned), then removes the cache folders of
   * projects nobody has built for a week. A scratch store is not saved.
   */
  async save(): Promise<void> {
    if (this.#scratch) return;
    await this.#store.save();
    const dir = this.#store.dir;
    await utimes(dir, new Date(), new Date()).catch(() => undefined);
    await removeUnused(dirname(dir)).catch(() => undefined);
  }

  /** Closes the store's files; a scratch store is deleted. */
  async dispose(): Promise<void> {
    await this.#store.close();
    if (this.#scratch) rmSync(this.#store.dir, { recursive: true, force: true });
  }
}

/**
 * Writes a file of the cache folder beside and then renames it over the old one (a build killed halfway never leaves
 * half a file), then removes the files beside it that nobody has written or used for a week. A read-only or full disk
 * only costs the cache: the build still has its output. `data` may give pieces of text, written as they come (see
 * jsonPieces in build-record.ts).
 */
export async function writeCacheFile(file: string, data: () => string | Uint8Array | Iterable<string>): Promise<void> {
  const temporary = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await mkdir(dirname(file), { recursive: true });
    const made = data();
    if (typeof made === 'string' || made instanceof Uint8Array) await writeFile(temporary, made);
    else await writePieces(temporary, made);
    await rename(temporary, file);
    await removeUnused(dirname(file));
  } catch {
    // a read-only or full disk, or pieces that failed to be made: no half-written file is left
    await rm(temporary, { force: true }).catch(() => undefined);
  }
}

/**
 * Text pieces written one at a time, as each is made: a big cache file is never one string in memory. Not joined into
 * bigger writes: a string of a megabyte is made in V8's old generation, and a piece kept until enough of them are
 * joined outlives a young collection; both were garbage the old generation held until its next full collection. A
 * 100,003-page build's record (about 70 MB of pieces) grew the heap by 70 MB at the build's end, the top of its memory.
 */
async function writePieces(file: string, pieces: Iterable<string>): Promise<void> {
  const handle = await open(file, 'w');
  try {
    for (const piece of pieces) await handle.write(piece);
  } finally {
    await handle.close();
  }
}

/** A project not built for this long (a deleted checkout, a test's temporary copy) loses its cache file. */
const UNUSED_MS = 7 * 24 * 3600 * 1000;

/** Removes what `dir` holds that was not written or used for a week: the caches of projects no longer built. */
async function removeUnused(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > UNUSED_MS) await rm(file, { recursive: true, force: true });
  }
}
