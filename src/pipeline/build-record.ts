// The record of the last build into an output folder: a hash of everything it read and a note of every file it wrote,
// so that a build with nothing changed checks the output folder and stops, and a build with something changed writes
// only the files that changed.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import { DigestColumn, roomFor } from '../core/columns.ts';
import { siblingIndex, siblingOf, withSiblings } from './compress.ts';
import { hash, toolVersionKey, writeCacheFile } from './page-cache.ts';
import type { ProjectPaths } from '../core/paths.ts';

/** What a build reports, as the record keeps it for the next build with nothing changed. */
export interface RecordedBuild<Page = unknown> {
  config: SiteConfig;
  pages: Page[];
  inputs: string[];
}

/** A build as `save` takes it: its reports may be made as they are read (see PageReports.reports). */
export type RecordedReports = Omit<RecordedBuild, 'pages'> & { pages: Iterable<unknown> };

interface RecordFile {
  /** Hash of the tool, the flags, the day and the content of every input (see `BuildRecord#key`). */
  key: string;
  /** The files the key was made from: the project's source folders are listed again by every build. */
  inputs: string[];
  /** Every file written, with what identifies that very file on disk: its size, inode and change time. */
  output: Array<[path: string, identity: string]>;
  build: RecordedBuild;
  /** What each output file was made from (see OutputKeys); absent from records of earlier versions. */
  made?: Array<[path: string, key: string]>;
  /** Each page's render hash (see page-cache.ts), by output file. */
  renders?: Array<[file: string, render: string]>;
  /** The version of the tool that wrote it (toolVersionKey); absent from records of earlier versions. */
  tool?: string;
}

/**
 * What the files of the last build were made from, as this build compares them: a page's HTML and its .br and .gz by
 * its document key, any other file by a hash of its bytes; and each page's render hash, by its output file.
 */
export interface OutputKeys {
  made: KeyLookup;
  renders: KeyLookup;
}

/** What is asked of a list of keys by file: whether a file has one, and which. */
export interface KeyLookup {
  has(path: string): boolean;
  get(path: string): string | undefined;
}

/** A list of files, iterated as often as needed, with how many and whether it has one. */
export interface FileList extends Iterable<string> {
  readonly size: number;
  has(path: string): boolean;
}

/**
 * What this build's files are made from (see OutputKeys), filled in as they are written or kept: a page by its index
 * in the routes (its file, document key and render hash, the strings its route already holds, and whether its .br and
 * .gz stand beside it), any other file by path. Not a map entry per file: at 100,003 pages, 300,000 entries and the
 * .br and .gz names made for them held about 30 MB to the build's end.
 */
export class MadeKeys {
  readonly #files: string[] = [];
  /** Each page's document key and render hash, by its index: digests (see DigestColumn), 16 bytes each. */
  readonly #keys = new DigestColumn();
  readonly #renders = new DigestColumn();
  /** 1 where a page has a .br and a .gz. */
  #siblings = new Uint8Array(1024);
  readonly #others = new Map<string, string>();
  /** Each file's page, by the file, made when first asked (see has). */
  #byFile: Map<string, number> | undefined;

  /** The page at `index` is written or kept as `file` (with its .br and .gz when `siblings`), from `key`. */
  page(index: number, file: string, key: string, render: string, siblings: boolean): void {
    this.#files[index] = file;
    this.#keys.set(index, key);
    this.#renders.set(index, render);
    this.#siblings = roomFor(this.#siblings, index);
    this.#siblings[index] = siblings ? 1 : 0;
    this.#byFile = undefined;
  }

  /** Any other file, `path`, is written or kept from `key`. */
  other(path: string, key: string): void {
    this.#others.set(path, key);
  }

  /** Whether the new output has `path` (see OutputList). */
  has(path: string): boolean {
    if (this.#others.has(path)) return true;
    if (!this.#byFile) {
      this.#byFile = new Map();
      this.#files.forEach((file, index) => this.#byFile!.set(file, index));
    }
    const original = siblingOf(path);
    const index = this.#byFile.get(original ?? path);
    return index !== undefined && (original === undefined || this.#siblings[index] === 1);
  }

  /** Every file with what it is made from: each page's, then the others. */
  *made(): Generator<[path: string, key: string]> {
    for (let index = 0; index < this.#files.length; index += 1) {
      const file = this.#files[index];
      if (file === undefined) continue;
      const key = this.#keys.get(index)!;
      for (const path of this.#siblings[index] ? withSiblings(file) : [file]) yield [path, key];
    }
    yield* this.#others;
  }

  /** Every file of the new output. */
  *files(): Generator<string> {
    for (const [path] of this.made()) yield path;
  }

  /**
   * Every file of the new output in path order (as a walk of the folder finds them: see outputFiles), each time it is
   * iterated, without a list of the paths: the pages sorted once by file (a number a page), each followed by its .br
   * and .gz, merged with the other files. At 100,003 pages the 300,000 paths sorted as a list, with the .br and .gz
   * names made for it, held 21 MB of heap while the record and the cache index were saved, the build's highest
   * moment. A page's siblings follow it at once unless its file is the start of the next page's ("a.html" and
   * "a.html.x.html"): then the list is made and sorted as before.
   */
  inPathOrder(): FileList {
    const pages = Uint32Array.from(this.#files.keys()).filter((index) => this.#files[index] !== undefined);
    const file = (index: number) => this.#files[index]!;
    pages.sort((a, b) => (file(a) < file(b) ? -1 : file(a) > file(b) ? 1 : 0));
    const size = pages.reduce((sum, index) => sum + (this.#siblings[index] ? 3 : 1), this.#others.size);
    const has = (path: string) => this.has(path);
    for (let at = 1; at < pages.length; at += 1)
      if (file(pages[at]!).startsWith(file(pages[at - 1]!))) {
        const sorted = [...this.files()].sort();
        return { size, has, [Symbol.iterator]: () => sorted.values() };
      }
    const others = [...this.#others.keys()].sort();
    const siblings = this.#siblings;
    function* merged(): Generator<string> {
      let other = 0;
      for (const index of pages) {
        for (const path of siblings[index] ? withSiblings(file(index)) : [file(index)]) {
          while (other < others.length && others[other]! < path) yield others[other++]!;
          yield path;
        }
      }
      while (other < others.length) yield others[other++]!;
    }
    return { size, has, [Symbol.iterator]: merged };
  }

  /** Each page's render hash, by its output file. */
  *renders(): Generator<[file: string, render: string]> {
    for (let index = 0; index < this.#files.length; index += 1)
      if (this.#files[index] !== undefined) yield [this.#files[index]!, this.#renders.get(index)!];
  }
}

/**
 * The last build into the output folder, as the next one reads it to write only what changed: what each file was made
 * from, and which files are still as that build left them.
 */
export interface LastOutput<Page> {
  keys: OutputKeys;
  /** The last build's report of each page, by output file. */
  pages: Map<string, Page>;
  /** Whether `path` is as the last build wrote it, from what `key` stands for. */
  unchanged(path: string, key: string): boolean;
  /** Every file in the output folder now. */
  present: Iterable<string>;
}

/** The folders whose every file is an input, whether or not the last build read it (a new file may be picked up). */
function sourceFolders(paths: ProjectPaths): string[] {
  return [paths.content, dirname(paths.routes), dirname(paths.template), paths.public];
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() || entry.isSymbolicLink())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/** A file's bytes, or undefined when it cannot be read. */
function readInput(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** What identifies a written file: replacing or editing it changes its inode or its change time (which no tool can set back). */
function identity(file: string): string {
  const info = statSync(file, { bigint: true });
  return `${info.size}:${info.ino}:${info.ctimeNs}`;
}

/**
 * Every file under `dir` with its identity, in path order, or undefined when the folder is not there. A folder at a
 * time, as the files are asked for: the record of a 100,003-page build streams its 300,000 files to its file without
 * a list of them (or of the folders' entries) in memory. Each folder's entries are taken in the order of their names,
 * a folder's name with the "/" its paths go on with, which is the order of the whole paths.
 */
function outputFiles(dir: string): Iterable<[string, string]> | undefined {
  try {
    if (!lstatSync(dir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  function* walk(folder: string, prefix: string): Generator<[string, string]> {
    const entries = readdirSync(folder, { withFileTypes: true })
      .map((entry) => ({ entry, key: entry.isDirectory() ? `${entry.name}/` : entry.name }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    for (const { entry } of entries) {
      const file = join(folder, entry.name);
      if (entry.isDirectory()) yield* walk(file, `${prefix}${entry.name}/`);
      else yield [`${prefix}${entry.name}`, identity(file)];
    }
  }
  return { [Symbol.iterator]: () => walk(dir, '') };
}

/** The output folder's files, as a list: undefined when the folder is not there or changes while it is read. */
function outputList(dir: string): Array<[string, string]> | undefined {
  try {
    const files = outputFiles(dir);
    return files && [...files];
  } catch {
    return undefined;
  }
}

/**
 * One record per project, base and output folder, in the cache folder (safe to delete: the next build builds). `check`
 * says whether the output folder holds exactly what the last build wrote from exactly these inputs; `save` records a
 * build that wrote it. A record that is damaged, from another version of the tool or for other inputs only costs a build.
 *
 * Inputs: the tool (its code and dependencies' versions), the config file, base and output folder, the day (a page may
 * show the year), and the content of every file in the project's source folders and of every other file the last build
 * read (a package's stylesheet, say). Names are part of it, so an added or removed file changes it. Every file is read
 * when the build starts (`check`), so an edit made while the build runs is seen by the next one. The environment is not
 * an input, as for the page cache: a site whose output depends on it builds with --no-cache.
 */
export class BuildRecord {
  readonly #file: string;
  readonly #paths: ProjectPaths;
  readonly #flags: { base: string; out: string };
  readonly #day = new Date().toDateString();
  /** Each input's content hash when the build started. */
  readonly #contents = new Map<string, string>();
  /** The Markdown files' contents as `check` read them, until `take` hands each to the build. */
  readonly #texts = new Map<string, Buffer>();
  /** The source folders' files when the build started. */
  #sources: string[] = [];
  readonly #tool: string;
  /** The record as `check` read it. */
  #read: RecordFile | undefined;

  /** `tool`: the tool's version key (toolVersionKey), given by tests that stand for another version of the tool. */
  constructor(paths: ProjectPaths, flags: { base: string; out: string }, tool = toolVersionKey()) {
    this.#paths = paths;
    this.#flags = flags;
    this.#tool = tool;
    this.#file = join(paths.cache, 'builds', `${hash(paths.config, flags.base, resolve(flags.out))}.json`);
  }

  /** Whether a record is kept for this project, base and output folder (`check` then tells whether it stands). */
  kept(): boolean {
    return existsSync(this.#file);
  }

  /** Where the record is kept. */
  get file(): string {
    return this.#file;
  }

  /** The hash of the inputs: the source folders as listed at the start, the config, and `read`. */
  #key(read: readonly string[]): string {
    const files = [...new Set([this.#paths.config, ...this.#sources, ...read])].sort();
    const h = createHash('sha256').update(
      `${this.#tool}\0${this.#paths.config}\0${this.#flags.base}\0${resolve(this.#flags.out)}\0${this.#day}\0`,
    );
    for (const file of files) h.update(file).update('\0').update(this.#contentOf(file)).update('\0');
    return h.digest('hex').slice(0, 32);
  }

  /**
   * A file's content hash ("missing" when unreadable) as this build first read it: what the build is made from,
   * whatever the file holds later. `keep`: the content is kept for `take`.
   */
  #contentOf(file: string, keep = false): string {
    let content = this.#contents.get(file);
    if (content === undefined) {
      const bytes = readInput(file);
      this.#contents.set(file, (content = bytes ? hash(bytes) : 'missing'));
      if (bytes && keep) this.#texts.set(file, bytes);
    }
    return content;
  }

  /** Whether `file` is a Markdown entry: a .md file in a folder of content/ (see content/files.ts), which `take` gives. */
  #isEntry(file: string): boolean {
    const content = `${this.#paths.content}${sep}`;
    if (!file.startsWith(content) || !file.endsWith('.md')) return false;
    const folder = file.indexOf(sep, content.length);
    return folder > content.length && file.indexOf(sep, folder + 1) === -1;
  }

  /**
   * The text of a Markdown file of content/ as `check` read it, once (undefined after, or for any other file): the
   * build reads its entries from what the record is made of, rather than each file a second time (0.1 s of 4,000
   * entries' main thread), and an edit made since is built by the next build.
   */
  take(file: string): string | undefined {
    const bytes = this.#texts.get(file);
    if (!bytes) return undefined;
    this.#texts.delete(file);
    return bytes.toString('utf8');
  }

  /**
   * The last build, when nothing it was made from changed and the output folder is as it left it. Call it before the
   * build reads anything: it takes the inputs' contents the build is then made from.
   */
  check<Page>(): (RecordedBuild<Page> & { files: string[] }) | undefined {
    this.#sources = sourceFolders(this.#paths).flatMap(filesUnder);
    // Read now even with no record to compare with: the record this build saves is of these contents, not of the
    // files as they are when it ends (an edit made while it runs must build again).
    this.#contentOf(this.#paths.config);
    for (const file of this.#sources) this.#contentOf(file, this.#isEntry(file));
    let record: RecordFile;
    try {
      record = JSON.parse(readFileSync(this.#file, 'utf8')) as RecordFile;
    } catch {
      return undefined;
    }
    if (!record || !Array.isArray(record.inputs) || !Array.isArray(record.output)) return undefined;
    this.#read = record;
    if (this.#key(record.inputs) !== record.key) return undefined;
    const now = outputList(resolve(this.#flags.out));
    if (!now || now.length !== record.output.length) return undefined;
    for (let i = 0; i < now.length; i += 1) {
      const [path, id] = now[i]!;
      const [recordedPath, recordedId] = record.output[i]!;
      if (path !== recordedPath || id !== recordedId) return undefined;
    }
    return { ...(record.build as RecordedBuild<Page>), files: record.output.map(([path]) => path) };
  }

  /**
   * The last build into the output folder, when `check` found its record and the folder is there: what its files were
   * made from, and which of them nobody has touched since (by identity, as `check` compares them). None without a
   * record: the build writes every file. A record from another version of the tool is used too, for the files the
   * folder holds and each page's render hash: every file is written again (in place).
   */
  last<Page extends { file: string }>(): LastOutput<Page> | undefined {
    const record = this.#read;
    if (!record?.made || !record.renders || !Array.isArray(record.build?.pages)) return undefined;
    const out = resolve(this.#flags.out);
    // One map from each file the last build wrote to its place, and what is known of it in columns by slot: at 100,003
    // pages a map each of the record's files, of what they were made from and of the folder's files now (300,000
    // entries each), with the record's lists of pairs held beside them, were the largest part of a one-page build. A
    // file's .br and .gz share its place, three slots a place (see slotOf): their names are neither kept nor mapped
    // (200,000 strings and map entries at 100,003 pages, about 20 MB).
    const at = new Map<string, number>();
    const paths: string[] = [];
    const slotOf = (path: string, add = false): number | undefined => {
      const name = siblingOf(path) ?? path;
      let index = at.get(name);
      if (index === undefined && add) at.set(name, (index = paths.push(name) - 1));
      return index === undefined ? undefined : 3 * index + siblingIndex(path);
    };
    const pathAt = (slot: number) => {
      const file = paths[Math.floor(slot / 3)]!;
      return slot % 3 === 0 ? file : withSiblings(file)[slot % 3]!;
    };
    const identities: Array<string | undefined> = [];
    for (const [path, identity] of record.output) identities[slotOf(path, true)!] = identity;
    // What each file was made from, and each page's report, stand for the tool that made them: every document key
    // names the tool's version (see documentBaseKey), so a build by another version keeps no file as it is. Not held
    // then: at 100,003 pages, a build after an upgrade held them (about 20 MB) for nothing.
    const sameTool = record.tool === this.#tool;
    // A page's HTML, .br and .gz are made from one key, read from the record as three strings: one is kept.
    const made: Array<string | undefined> = [];
    let key: string | undefined;
    if (sameTool) for (const [path, from] of record.made) made[slotOf(path, true)!] = from === key ? key : (key = from);
    const renders: Array<string | undefined> = [];
    for (const [file, render] of record.renders) renders[slotOf(file, true)!] = render;
    // Each report's file is the string the map above holds, and its parts equal to another report's (the pages' script
    // set, most of all) one object: the 100,003 reports of a 100,003-page record, as JSON.parse makes them, hold 84 MB
    // more of heap than shared (0.1 s to share them).
    const parts = new Map<string, unknown>();
    const pages = new Map<string, Page>();
    for (const page of sameTool ? (record.build.pages as Page[]) : []) {
      const index = at.get(page.file);
      if (index !== undefined) page.file = paths[index]!;
      for (const [name, value] of Object.entries(page)) {
        if (typeof value !== 'object' || value === null) continue;
        const text = JSON.stringify(value);
        const same = parts.get(text);
        if (same === undefined) parts.set(text, value);
        else (page as Record<string, unknown>)[name] = same;
      }
      pages.set(page.file, page);
    }
    // The folder as it is now, by slot: whether each file the record names is there (1) and with the identity it
    // recorded (2); a file the record does not name is only present, by its path.
    const folder = new Uint8Array(3 * paths.length);
    const others: string[] = [];
    let files: Iterable<[string, string]> | undefined;
    try {
      files = outputFiles(out);
      for (const [path, identity] of files ?? []) {
        const slot = slotOf(path);
        if (slot === undefined) others.push(path);
        else folder[slot] = identities[slot] !== undefined && identities[slot] === identity ? 2 : 1;
      }
    } catch {
      return undefined;
    }
    if (!files) return undefined;
    // The record's lists are in the columns now; this build records its own.
    this.#read = undefined;
    const column = (values: Array<string | undefined>) => ({
      has: (path: string) => values[slotOf(path) ?? -1] !== undefined,
      get: (path: string) => values[slotOf(path) ?? -1],
    });
    return {
      keys: { made: column(made), renders: column(renders) },
      pages,
      unchanged: (path, key) => {
        const slot = slotOf(path);
        return slot !== undefined && folder[slot] === 2 && made[slot] === key;
      },
      present: {
        *[Symbol.iterator]() {
          for (let slot = 0; slot < folder.length; slot += 1) if (folder[slot]) yield pathAt(slot);
          yield* others;
        },
      },
    };
  }

  /** Drops the record: the next build into the folder builds and writes everything. */
  async forget(): Promise<void> {
    await rm(this.#file, { force: true });
  }

  /**
   * Records a build that just wrote the output folder, made from the inputs as `check` read them and `build.inputs`.
   * `files`: every file of the new output, in path order (the build knows them: see MadeKeys.inPathOrder), each
   * identified as it is now; without it, the output folder is walked for them. Walking a cold 4,003-page build's folder
   * (4,000 folders, 12,000 files) took its main thread 0.3 s at the build's end, with nothing else left to do.
   */
  async save(build: RecordedReports, keys?: MadeKeys, files?: Iterable<string>): Promise<void> {
    const out = resolve(this.#flags.out);
    const output = files ? identified(out, files) : outputFiles(out);
    if (!output) return;
    // The maps as they are: jsonPieces writes them as the arrays of entries a RecordFile holds.
    const record = {
      key: this.#key(build.inputs),
      inputs: build.inputs,
      output,
      build,
      made: keys?.made(),
      renders: keys?.renders(),
      tool: this.#tool,
    } satisfies Record<keyof RecordFile, unknown>;
    // On a read-only or full disk, the next build builds; and when a file named is not there, it builds again.
    await writeCacheFile(this.#file, () => jsonPieces(record, 3));
  }
}

/** Each of `files` (paths under `dir`) with its identity, read as it is asked for. */
function identified(dir: string, files: Iterable<string>): Iterable<[string, string]> {
  return {
    *[Symbol.iterator]() {
      for (const path of files) yield [path, identity(join(dir, path))];
    },
  };
}

/** Array elements stringified together, per piece of jsonPieces. */
const ELEMENTS_PER_PIECE = 1000;

/**
 * `JSON.stringify(value)`, a piece at a time: the arrays and objects down to `depth` levels are written an element at
 * a time, a thousand elements a piece; a Map, a Set or any other iterable is written as the array of its items
 * (JSON.stringify would give `{}`), so a record's maps need no array copy, and a list made as it is read is never
 * held whole. A 100,003-page build's record (300,000 output files, their keys, the page reports) is about 70 MB of
 * JSON: as one string, with the copies that made it, it was the largest thing in the build's memory at its end.
 */
export function* jsonPieces(value: unknown, depth: number): Generator<string> {
  const list =
    typeof value === 'object' &&
    value !== null &&
    !('toJSON' in value) &&
    !ArrayBuffer.isView(value) &&
    Symbol.iterator in value;
  if (!list && (depth <= 0 || value === null || typeof value !== 'object' || 'toJSON' in value)) {
    yield JSON.stringify(value);
    return;
  }
  if (list) {
    yield '[';
    let piece: string[] = [];
    let count = 0;
    for (const item of value as Iterable<unknown>) {
      piece.push(JSON.stringify(item) ?? 'null');
      if (piece.length < ELEMENTS_PER_PIECE) continue;
      yield (count === 0 ? '' : ',') + piece.join(',');
      count += piece.length;
      piece = [];
    }
    if (piece.length > 0) yield (count === 0 ? '' : ',') + piece.join(',');
    yield ']';
    return;
  }
  yield '{';
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(item, depth - 1);
  }
  yield '}';
}
