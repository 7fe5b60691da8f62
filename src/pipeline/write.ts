// Writes the build to a folder beside the output, then swaps it in, so a failed build leaves the previous output as it was.
import { mkdir, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { type Dirent, existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { WriteError } from '../core/errors.ts';
import { isBuildMetadata } from '../core/http/hashed-files.ts';
import {
  byteLength,
  shouldPrecompress,
  siblingOf,
  withSiblings,
  type CompressedSizes,
  type Compressor,
} from './compress.ts';

export type OutputFiles = Map<string, Uint8Array | string>;

/** Files written at once: enough to keep libuv's thread pool busy, few enough not to run out of file handles. */
const WRITES_AT_ONCE = 32;

/**
 * Files or folders removed or moved at once (see removeTree, OutputFolder.commit): enough to keep libuv's pool busy;
 * one at a time, an update in place of 300,000 files spent 15-20 s renaming them.
 */
const CHANGES_AT_ONCE = 64;

/**
 * Removes `path` and everything in it, like `rm -rf`, CHANGES_AT_ONCE entries of a folder at a time. Node's own
 * recursive `rm` starts the removal of every entry of a folder at once: a tree like the output of a 100,003-page site
 * (100,000 folders of three files each) took 605 MB more memory and 6.5-7.0 s to remove on a RAM disk, against 40 MB
 * and 4.5-5.2 s this way (two runs each, 2026-11-29). Removing the staging folder after an update in place of every
 * page (100,000 emptied folders) was the top of a 100,003-page build after another version of site-gen.
 */
export async function removeTree(path: string): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') return unlink(path).catch(unlessGone);
    throw error;
  }
  await inGroups(entries, CHANGES_AT_ONCE, (entry) => {
    const child = join(path, entry.name);
    return entry.isDirectory() ? removeTree(child) : unlink(child).catch(unlessGone);
  });
  await rmdir(path).catch(unlessGone);
}

/** Runs `each` over `items`, `atOnce` of them at a time: each group is done before the next starts. */
async function inGroups<T>(items: Iterable<T>, atOnce: number, each: (item: T) => Promise<unknown>): Promise<void> {
  let group: Array<Promise<unknown>> = [];
  for (const item of items) {
    group.push(each(item));
    if (group.length === atOnce) {
      await Promise.all(group);
      group = [];
    }
  }
  await Promise.all(group);
}

/** Rethrows `error` unless it says the file is already gone. */
function unlessGone(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** Refuses output folders whose replacement would destroy the project: its root, an ancestor, or a source folder. */
export function assertSafeOutDir(outDir: string, root: string, flag = '--out'): void {
  const out = resolve(outDir);
  const project = resolve(root);
  if (out === project || project.startsWith(out + sep)) {
    throw new WriteError(
      `${flag} ${outDir} would replace the project folder ${project}. Choose a folder inside it, such as dist.`,
    );
  }
  for (const source of ['src', 'content', 'templates', 'public', 'test', 'bin', 'node_modules']) {
    const dir = join(project, source);
    if (out === dir || out.startsWith(dir + sep))
      throw new WriteError(
        `${flag} ${outDir} is inside the project's ${source}/ folder. Choose a folder of its own, such as dist.`,
      );
  }
}

/** Adds .br and .gz beside every text file over 1 KB that is served (not the build's own notes in .site-gen/), all
 * compressed at once (`compressor` keeps each result). */
export async function withPrecompressed(files: OutputFiles, compressor: Compressor): Promise<OutputFiles> {
  const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
  const compressed = await Promise.all(
    sorted.map(([path, data]) =>
      shouldPrecompress(path, byteLength(data)) && !isBuildMetadata(path) ? compressor.compress(path, data) : undefined,
    ),
  );
  const out: OutputFiles = new Map();
  sorted.forEach(([path, data], index) => {
    out.set(path, data);
    const result = compressed[index];
    if (result) {
      out.set(`${path}.br`, result.br);
      out.set(`${path}.gz`, result.gz);
    }
  });
  return out;
}

/** The files of a new output, asked one at a time: a Set, or the map of what each file is made from (OutputKeys). */
export type OutputList = Pick<ReadonlySet<string>, 'has'>;

/** Where a build puts its files one at a time: an output folder (OutputFolder) or memory (`write: false`). */
export interface OutputSink {
  write(path: string, data: Uint8Array | string): Promise<void>;
  /**
   * Writes `path` and its .br and .gz, compressed by `compressor`, with no compressed byte coming back to this thread
   * (OutputFolder: the compression thread writes them). Resolves with their sizes once written. A sink without it gets
   * the compressed bytes and writes each file.
   */
  writeCompressed?(path: string, data: Uint8Array | string, compressor: Compressor): Promise<CompressedSizes>;
}

/**
 * What a build that is no longer running left beside the output folder `out` when it was killed before it could clean
 * up (an out-of-memory kill, `kill -9`): its staging folder (`.dist.tmp-<pid>-<stamp>`, a whole copy of the output at
 * 100,000 pages) is removed; its previous output (`.dist.old-<pid>-<stamp>`) is put back when the output folder is not
 * there (the build was killed between the two renames of its commit), and removed otherwise. A folder whose process is
 * still running (another build into the same folder) is left alone.
 */
async function sweepLeftovers(out: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dirname(out));
  } catch {
    return;
  }
  for (const name of names.sort()) {
    const left = sideFolderOf(out, name);
    if (!left || running(left.pid)) continue;
    const path = join(dirname(out), name);
    if (left.kind === 'old' && !existsSync(out)) await rename(path, out);
    else await removeTree(path);
  }
}

/**
 * The folder beside the output folder `out` that a build writes into (`tmp`) or moves the old output to (`old`):
 * `.dist.tmp-<pid>-<stamp>`. The one place its name is made, and read back (see sideFolderOf).
 */
function sideFolder(out: string, kind: 'tmp' | 'old', stamp: string): string {
  return join(dirname(out), `.${basename(out)}.${kind}-${stamp}`);
}

/** Which side folder of `out` the entry `name` beside it is (see sideFolder), and the pid of the build that made it. */
function sideFolderOf(out: string, name: string): { kind: 'tmp' | 'old'; pid: number } | undefined {
  const prefix = `.${basename(out)}.`;
  if (!name.startsWith(prefix)) return undefined;
  const parts = /^(tmp|old)-(\d+)-[0-9a-z]+$/.exec(name.slice(prefix.length));
  return parts ? { kind: parts[1] as 'tmp' | 'old', pid: Number(parts[2]) } : undefined;
}

/** Whether process `pid` is running (this one included). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: running, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An output folder that changes only once the build has passed every check: files are written to a sibling folder as
 * they are made, and nothing in the output changes before `commit()`. A whole build (`inPlace: false`) is then swapped
 * in: the old output moved aside, the new one renamed into place. A build that wrote only what changed (`inPlace:
 * true`) renames each file it wrote over the old one and deletes the files the build no longer makes, so that the
 * thousands of files that did not change are neither copied nor touched. `abort()` (or a failed swap) leaves the
 * previous output as it was.
 */
export class OutputFolder implements OutputSink {
  readonly #out: string;
  readonly #inPlace: boolean;
  readonly #staging: string;
  readonly #previous: string;
  /** Writes under way: at most WRITES_AT_ONCE, enough to keep libuv's pool busy, few enough for the file handles. */
  readonly #writing = new Set<Promise<void>>();
  /**
   * Paths written, in order, each once (a page whose document changed after it was written early is written again); a
   * file written with its .br and .gz (see writeCompressed) is one entry, its siblings flagged: at 100,003 pages, an
   * entry per file and the names made for them held about 20 MB to the build's end.
   */
  readonly #written: string[] = [];
  readonly #siblings: boolean[] = [];
  /** Each entry of #written by its path, until the output is committed (200,000 entries at 100,003 pages: 4 MB). */
  readonly #writtenAt = new Map<string, number>();

  private constructor(out: string, stamp: string, inPlace: boolean) {
    this.#out = out;
    this.#inPlace = inPlace;
    this.#staging = sideFolder(out, 'tmp', stamp);
    this.#previous = sideFolder(out, 'old', stamp);
  }

  static async open(outDir: string, { inPlace = false }: { inPlace?: boolean } = {}): Promise<OutputFolder> {
    const out = resolve(outDir);
    const folder = new OutputFolder(out, `${process.pid}-${Date.now().toString(36)}`, inPlace && existsSync(out));
    try {
      await mkdir(dirname(out), { recursive: true });
      if (existsSync(out) && !(await stat(out)).isDirectory()) {
        throw new WriteError(
          `--out ${relative(process.cwd(), out) || out} is a file, not a folder. Remove it or choose another --out.`,
        );
      }
      await sweepLeftovers(out);
      await mkdir(folder.#staging, { recursive: true });
    } catch (error) {
      throw folder.#failed(error);
    }
    return folder;
  }

  /** Starts writing `path`; resolves once the write may be followed by another (not once it is on disk: see flush). */
  async write(path: string, data: Uint8Array | string): Promise<void> {
    // Wait for a free slot in turn: a finished write hands its slot to the first waiting (waking every waiter each
    // time, as a race of the writes under way would, costs more than the writes on a big site).
    if (this.#writing.size + this.#handing >= WRITES_AT_ONCE) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
      this.#handing -= 1;
    }
    const file = join(this.#staging, path);
    this.#wrote(path);
    const writing: Promise<void> = (async () => {
      await this.#folder(dirname(file));
      await writeFile(file, data);
    })().then(
      () => this.#done(writing),
      (error: unknown) => {
        this.#error ??= error;
        this.#done(writing);
      },
    );
    this.#writing.add(writing);
  }

  /**
   * Writes `path` with its .br and .gz, each in the staging folder like any other write: the compression thread that
   * compresses it writes the three files itself (see Compressor.compressTo), so neither the compressed bytes nor the
   * writes come back to this thread. Its failure is this folder's (a WriteError naming it), as a write here would be.
   */
  async writeCompressed(path: string, data: Uint8Array | string, compressor: Compressor): Promise<CompressedSizes> {
    this.#wrote(path, true);
    const writing = compressor.compressTo(path, data, join(this.#staging, path));
    // Tracked until it ends, written or failed: abort() must not remove the staging folder while a thread writes to it.
    const settled: Promise<void> = writing.then(
      () => void this.#offThread.delete(settled),
      () => void this.#offThread.delete(settled),
    );
    this.#offThread.add(settled);
    try {
      return await writing;
    } catch (error) {
      // A failed compression is not the folder's fault: only the file system's errors (with a code) are.
      if ((error as NodeJS.ErrnoException).code === undefined) throw error;
      this.#error ??= error;
      throw this.#failed(error);
    }
  }

  #wrote(path: string, siblings = false): void {
    const at = this.#writtenAt.get(path);
    if (at !== undefined) {
      this.#siblings[at] ||= siblings;
      return;
    }
    // A .br or .gz written on its own that a compressed write already listed.
    const original = siblingOf(path);
    const sibling = original === undefined ? undefined : this.#writtenAt.get(original);
    if (sibling !== undefined && this.#siblings[sibling]) return;
    this.#writtenAt.set(path, this.#written.push(path) - 1);
    this.#siblings.push(siblings);
  }

  /** Every path written, in order, each once (a file written with its .br and .gz followed by them). */
  get written(): string[] {
    return this.#written.flatMap((path, at) => (this.#siblings[at] ? withSiblings(path) : [path]));
  }

  /** How many files were written. */
  get writtenCount(): number {
    return this.#siblings.reduce((count, siblings) => count + (siblings ? 3 : 1), 0);
  }

  /** Writes the compression threads make in the staging folder (see writeCompressed), until each ends. */
  readonly #offThread = new Set<Promise<void>>();

  /** Folders being made or made (see #folder). */
  readonly #folders = new Map<string, Promise<unknown>>();

  /** Makes `folder` once, however many files go into it: each waits for the one mkdir. */
  #folder(folder: string): Promise<unknown> {
    let made = this.#folders.get(folder);
    if (!made) this.#folders.set(folder, (made = mkdir(folder, { recursive: true })));
    return made;
  }
  /** Writes waiting for a slot, first come first served. */
  readonly #waiting: Array<() => void> = [];
  /** Slots handed to a waiting write that has not started yet. */
  #handing = 0;

  #done(writing: Promise<void>): void {
    this.#writing.delete(writing);
    const next = this.#waiting.shift();
    if (next) {
      this.#handing += 1;
      next();
    }
  }

  #error: unknown;

  /** Waits for every write started; throws the first that failed. */
  async flush(): Promise<void> {
    while (this.#writing.size > 0 || this.#waiting.length > 0 || this.#offThread.size > 0)
      await Promise.all([...this.#writing, ...this.#offThread]);
    if (this.#error !== undefined) throw this.#failed(this.#error);
  }

  /**
   * Puts the new output in place of the old. In place: `files` is every file of the new output (those written and
   * those kept), `present` every file in the output folder before; those of `present` not in `files` are deleted, with
   * the folders they leave empty, and then the files written replace theirs (deleted first: a page's folder may give
   * its name to a file, or a file to a folder).
   */
  async commit(files?: OutputList, present: Iterable<string> = []): Promise<void> {
    if (this.#inPlace) {
      if (!files)
        throw new Error('site-gen: an output folder updated in place needs its list of files; this is a bug.');
      await this.#commitInPlace(files, present);
    } else await this.#commitBySwap();
    this.#writtenAt.clear();
  }

  /** The staging folder takes the output folder's name; the old output is removed once it has. */
  async #commitBySwap(): Promise<void> {
    try {
      await this.flush();
      if (existsSync(this.#out)) await rename(this.#out, this.#previous);
      await rename(this.#staging, this.#out);
    } catch (error) {
      await this.abort();
      if (existsSync(this.#previous) && !existsSync(this.#out)) await rename(this.#previous, this.#out);
      throw this.#failed(error);
    }
    await removeTree(this.#previous);
  }

  async #commitInPlace(files: OutputList, present: Iterable<string>): Promise<void> {
    try {
      await this.flush();
      const emptied = new Set<string>();
      const gone: string[] = [];
      for (const path of present) if (!files.has(path)) gone.push(path);
      await inGroups(gone, CHANGES_AT_ONCE, async (path) => {
        await rm(join(this.#out, path), { force: true });
        emptied.add(dirname(join(this.#out, path)));
      });
      // Deepest first: a folder whose only content was an emptied folder goes too.
      for (const folder of [...emptied].sort((a, b) => b.length - a.length)) await removeIfEmpty(folder, this.#out);
      await inGroups(this.written, CHANGES_AT_ONCE, async (path) => {
        const target = join(this.#out, path);
        await this.#folder(dirname(target));
        await rename(join(this.#staging, path), target);
      });
    } catch (error) {
      throw this.#failed(error);
    } finally {
      await removeTree(this.#staging);
    }
  }

  /** Removes what was written; the previous output stays. */
  async abort(): Promise<void> {
    await Promise.allSettled([...this.#writing, ...this.#offThread]);
    await removeTree(this.#staging);
  }

  #failed(error: unknown): WriteError {
    if (error instanceof WriteError) return error;
    const code = (error as NodeJS.ErrnoException).code;
    return new WriteError(
      `Could not write the output to ${this.#out} (${code ?? (error as Error).message}). Check that the folder is writable and the disk has space; the previous output was kept.`,
      { cause: error },
    );
  }
}

/** Removes `folder` and then each parent up to `root` (not included) while it is empty. */
async function removeIfEmpty(folder: string, root: string): Promise<void> {
  for (let dir = folder; dir !== root && dir.startsWith(root + sep); dir = dirname(dir)) {
    const entries = await readdir(dir).catch(() => undefined);
    if (!entries || entries.length > 0) return;
    await rm(dir, { recursive: true, force: true });
  }
}

/** Writes `files` to `outDir`, atomically (see OutputFolder): the dev server's `--out`. */
export async function writeOutput(outDir: string, files: OutputFiles): Promise<void> {
  const folder = await OutputFolder.open(outDir);
  try {
    for (const [path, data] of files) await folder.write(path, data);
  } catch (error) {
    await folder.abort();
    throw error;
  }
  await folder.commit();
}

/** Every file under `dir`, keyed by its path relative to it with "/" separators. */
export async function readTree(dir: string): Promise<OutputFiles> {
  const files: OutputFiles = new Map();
  if (!existsSync(dir)) return files;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries
    .filter((e) => e.isFile())
    .sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
    const full = join(entry.parentPath, entry.name);
    files.set(relative(dir, full).split(sep).join('/'), await readFile(full));
  }
  return files;
}
