// The build cache on disk: entries read one at a time by key, appended to pack files, pruned to what the last run used.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  writev,
  writevSync,
} from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { KEY_BYTES, type KeyDigest, keyDigest, type Location, LocationMap } from './cache-locations.ts';
import { decodeList, encodeList, type ListItem } from './list-codec.ts';

const INDEX = 'index.v8';
const PACK = /^pack-[\w-]+\.bin$/;

/** How an index file starts (see writeIndex): an index of another form is taken as none (the cache starts over). */
const INDEX_MAGIC = Buffer.from('site-gen index 3\n');

/** Bytes of an entry in the index file: its key's digest, its pack's number, its length and its offset. */
const INDEX_ENTRY_BYTES = KEY_BYTES + 4 + 4 + 8;

/** Index entries written together: a buffer of this many at a time, however many the index holds. */
export const INDEX_ENTRIES_PER_PIECE = 10_000;

/** Writes all of `bytes` to `fd`, at `position` when given (else where the file is at), however many calls it takes. */
function writeWhole(fd: number, bytes: Uint8Array, position?: number): void {
  for (let written = 0; written < bytes.byteLength; )
    written += writeSync(
      fd,
      bytes,
      written,
      bytes.byteLength - written,
      position === undefined ? null : position + written,
    );
}

/**
 * Writes `entries` to `file`: INDEX_MAGIC; the names of the packs as JSON, after its length (4 bytes, little-endian);
 * then each entry in INDEX_ENTRY_BYTES (see readIndex), INDEX_ENTRIES_PER_PIECE at a time. Entries of a fixed size,
 * in bytes: read as V8 serializations, the 200,000 entries of a 100,003-page build's index made a string and two
 * arrays of each.
 */
function writeIndex(file: string, entries: LocationMap): void {
  const fd = openSync(file, 'w');
  try {
    const packs = [...entries.packs()];
    const packIds = new Map(packs.map((pack, id) => [pack, id]));
    const names = Buffer.from(JSON.stringify(packs));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(names.byteLength);
    writeWhole(fd, Buffer.concat([INDEX_MAGIC, length, names]));
    const piece = Buffer.alloc(INDEX_ENTRIES_PER_PIECE * INDEX_ENTRY_BYTES);
    let at = 0;
    for (const [digest, [pack, offset, bytes]] of entries) {
      piece.set(digest, at);
      piece.writeUInt32LE(packIds.get(pack)!, at + KEY_BYTES);
      piece.writeUInt32LE(bytes, at + KEY_BYTES + 4);
      piece.writeDoubleLE(offset, at + KEY_BYTES + 8);
      at += INDEX_ENTRY_BYTES;
      if (at === piece.byteLength) {
        writeWhole(fd, piece);
        at = 0;
      }
    }
    if (at > 0) writeWhole(fd, piece.subarray(0, at));
  } finally {
    closeSync(fd);
  }
}

/** The entries of an index file (see writeIndex); throws when it is of another form or damaged. */
function readIndex(bytes: Buffer): LocationMap {
  if (!bytes.subarray(0, INDEX_MAGIC.length).equals(INDEX_MAGIC)) throw new Error('not an index of this form');
  const namesAt = INDEX_MAGIC.length + 4;
  const entriesAt = namesAt + bytes.readUInt32LE(INDEX_MAGIC.length);
  const packs = JSON.parse(bytes.toString('utf8', namesAt, entriesAt)) as unknown;
  if (!Array.isArray(packs) || !packs.every((pack) => typeof pack === 'string' && PACK.test(pack)))
    throw new Error('a damaged index');
  if ((bytes.length - entriesAt) % INDEX_ENTRY_BYTES !== 0) throw new Error('a damaged index');
  const entries = new LocationMap();
  for (let at = entriesAt; at < bytes.length; at += INDEX_ENTRY_BYTES) {
    const pack = packs[bytes.readUInt32LE(at + KEY_BYTES)] as string | undefined;
    if (pack === undefined) throw new Error('a damaged index');
    const length = bytes.readUInt32LE(at + KEY_BYTES + 4);
    entries.set(bytes.subarray(at, at + KEY_BYTES), [pack, bytes.readDoubleLE(at + KEY_BYTES + 8), length]);
  }
  return entries;
}

/**
 * A pack whose live entries are less than this share of its bytes has them moved out (see #compactMostlyDead): the
 * space of entries no run uses any more is given back, while a pack nearly all live is not copied.
 */
const COMPACT_BELOW = 0.5;

/** Bytes of entries handed to the disk and not written yet, at most: past it, `set` writes before it returns. */
const PENDING_BYTES = 32 * 1024 * 1024;

/**
 * Entries are appended a chunk of about this many bytes at a time, in one write: a build appends a render per page,
 * and handing each to libuv's pool on its own cost the main thread more than serializing it (10,000 hand-offs).
 */
const CHUNK_BYTES = 1024 * 1024;

/**
 * A folder of pack files (entries appended one after another, V8-serialized) and an index of where each entry is.
 * Only the index is read whole (a few dozen bytes an entry); an entry is read from its pack when asked for, with a
 * plain read (not a memory map, which would count the whole cache in the process's resident memory). Many entries in
 * a few big files, because this disk is slow at many small ones. `save()` keeps in the index only the entries this run
 * read or wrote, so the cache holds what the last run needed and nothing older; packs left with no live entry are
 * deleted, and the live entries of packs mostly dead are moved to the run's own. A damaged file only costs the cache:
 * the entry is made again.
 */
export class PackStore {
  readonly #dir: string;
  #previous: LocationMap;
  /** How many entries the last run's index held (entries move from #previous as they are kept). */
  #previousCount: number;
  readonly #next = new LocationMap();
  readonly #fds = new Map<string, number>();
  #writing: { pack: string; fd: number; size: number } | undefined;
  #changed = false;
  #failed = false;
  /** Entries appended but maybe not on disk yet: read from here until their write is done. */
  readonly #pending = new Map<string, Buffer>();
  #pendingBytes = 0;
  /** Appends under way, in order (libuv's pool writes them while the build goes on). */
  #appending: Promise<void> = Promise.resolve();
  /** Entries set but not handed to the disk yet, one after another from `start` in the pack being written. */
  #chunk: { start: number; entries: Array<[key: string, bytes: Buffer]>; bytes: number } | undefined;

  private constructor(dir: string, previous: LocationMap) {
    this.#dir = dir;
    this.#previous = previous;
    this.#previousCount = previous.size;
  }

  /** Opens the store in `dir` (made when first written): reads its index only. */
  static open(dir: string): PackStore {
    let previous = new LocationMap();
    try {
      previous = readIndex(readFileSync(join(dir, INDEX)));
    } catch {
      // no cache yet, a damaged index or one of another form: everything is made again
    }
    return new PackStore(dir, previous);
  }

  get dir(): string {
    return this.#dir;
  }

  /** The entry kept under `key`, if any; reading it keeps it for the next run. */
  get<T>(key: string): T | undefined {
    const digest = keyDigest(key);
    const at = this.#next.get(digest) ?? this.#previous.get(digest);
    if (!at) return undefined;
    const pending = this.#pending.get(key);
    if (pending) return deserialize(pending) as T;
    try {
      const [pack, offset, length] = at;
      const bytes = Buffer.allocUnsafe(length);
      const fd = this.#fd(pack);
      if (readSync(fd, bytes, 0, length, offset) !== length) return undefined;
      const value = deserialize(bytes) as T;
      this.#kept(digest, at);
      return value;
    } catch {
      return undefined;
    }
  }

  /** Keeps no entry under `key` for the next run, though this run read it (the next run's index leaves it out). */
  drop(key: string): void {
    if (this.#next.delete(key)) this.#changed = true;
  }

  /** Whether an entry is kept under `key`, without reading it. */
  has(key: string): boolean {
    const digest = keyDigest(key);
    return this.#next.has(digest) || this.#previous.has(digest);
  }

  /** Keeps the entry under `key` for the next run without reading it, if there is one. */
  keep(key: string): void {
    const digest = keyDigest(key);
    if (this.#next.has(digest)) return;
    const at = this.#previous.get(digest);
    if (at) this.#kept(digest, at);
  }

  /**
   * `key`, at `at`, is kept for the next run: moved from the last run's index to this run's, not held in both (a
   * one-page build at 100,003 pages keeps 200,000 entries). What is left in the last run's index at the end is what
   * this run did not use (see save).
   */
  #kept(key: KeyDigest, at: Location): void {
    if (this.#next.has(key)) return;
    this.#next.set(key, at);
    if (this.#previous !== this.#next) this.#previous.delete(key);
  }

  /**
   * Keeps `list` under `key`, encoded a buffer at a time (see encodeList) and written by this thread as it goes, so
   * that a long list takes no more memory to keep than that buffer (see PageCache.setReads). The build has nothing
   * else to do meanwhile.
   */
  setList(key: string, list: readonly ListItem[]): void {
    if (this.#failed) return;
    try {
      // The entries set before it are written first: a chunk is written in one piece from where its first entry starts.
      this.#append(true);
      const writing = this.#pack();
      const start = writing.size;
      encodeList(list, (bytes) => {
        writeWhole(writing.fd, bytes, writing.size);
        writing.size += bytes.byteLength;
      });
      this.#next.set(key, [writing.pack, start, writing.size - start]);
      this.#changed = true;
    } catch {
      // a read-only or full disk: the run goes on without keeping its work
      this.#failed = true;
    }
  }

  /** The list `setList` kept under `key`; undefined when there is none, or it is damaged or of another form. */
  getList<T extends ListItem>(key: string): T[] | undefined {
    const digest = keyDigest(key);
    const at = this.#next.get(digest) ?? this.#previous.get(digest);
    if (!at) return undefined;
    try {
      const [pack, offset, length] = at;
      const bytes = Buffer.allocUnsafe(length);
      if (readSync(this.#fd(pack), bytes, 0, length, offset) !== length) return undefined;
      const list = decodeList<T>(bytes);
      this.#kept(digest, at);
      return list;
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps `value` under `key`: appended to this run's pack now, so memory never holds more than the entry. A value V8
   * cannot serialize (a Proxy, a function) is not kept, nor anything kept under `key` before: that entry alone is
   * missed. It once counted as a failed disk, and the whole build kept nothing more (nor its index).
   */
  set(key: string, value: unknown): void {
    if (this.#failed) return;
    let bytes: Buffer;
    try {
      bytes = serialize(value);
    } catch {
      this.#next.delete(key);
      this.#changed = true;
      return;
    }
    try {
      const writing = this.#pack();
      const offset = writing.size;
      writing.size += bytes.byteLength;
      this.#next.set(key, [writing.pack, offset, bytes.byteLength]);
      this.#changed = true;
      this.#chunk ??= { start: offset, entries: [], bytes: 0 };
      this.#chunk.entries.push([key, bytes]);
      this.#chunk.bytes += bytes.byteLength;
      this.#pending.set(key, bytes);
      this.#pendingBytes += bytes.byteLength;
      if (this.#chunk.bytes >= CHUNK_BYTES) this.#append();
    } catch {
      // a read-only or full disk: the run goes on without keeping its work
      this.#failed = true;
    }
  }

  /**
   * Hands the chunk of entries set since the last one to the disk, in one write by libuv's pool, not this thread: a
   * build's main thread has pages to make meanwhile. When the disk falls behind by more than PENDING_BYTES, or `now`,
   * this thread writes it and waits: memory never holds more than that.
   */
  #append(now = this.#pendingBytes > PENDING_BYTES): void {
    const chunk = this.#chunk;
    if (!chunk || !this.#writing) return;
    this.#chunk = undefined;
    const { fd } = this.#writing;
    const buffers = chunk.entries.map(([, bytes]) => bytes);
    const written = (error: unknown) => {
      if (error) this.#failed = true;
      for (const [key, bytes] of chunk.entries) if (this.#pending.get(key) === bytes) this.#pending.delete(key);
      this.#pendingBytes -= chunk.bytes;
    };
    if (now) {
      try {
        writevSync(fd, buffers, chunk.start);
        written(undefined);
      } catch (error) {
        written(error);
      }
      return;
    }
    const appended = new Promise<void>((resolve) =>
      writev(fd, buffers, chunk.start, (error) => {
        written(error);
        resolve();
      }),
    );
    this.#appending = Promise.all([this.#appending, appended]).then(() => undefined);
  }

  /** How many entries the next index will hold, and how many the last one held. */
  get counts(): { used: number; previous: number } {
    return { used: this.#next.size, previous: this.#previousCount };
  }

  /**
   * Writes the index of the entries this run used (the others are pruned), deletes the packs no entry is in any more
   * and moves the live entries out of those whose bytes are mostly dead. Safe to call more than once.
   */
  async save(): Promise<void> {
    this.#append();
    await this.#appending;
    let pruned = false;
    for (const key of this.#previous === this.#next ? [] : this.#previous.keys()) {
      if (this.#next.has(key)) continue;
      pruned = true;
      break;
    }
    if (!this.#changed && !pruned) return;
    if (this.#failed) return; // an entry may be missing from its pack: keep the last index
    try {
      mkdirSync(this.#dir, { recursive: true });
      this.#compactMostlyDead();
      this.#closeWriting();
      const temporary = join(this.#dir, `${INDEX}.${process.pid}-${randomBytes(4).toString('hex')}`);
      writeIndex(temporary, this.#next);
      renameSync(temporary, join(this.#dir, INDEX));
      const live = this.#next.packs();
      for (const name of readdirSync(this.#dir)) {
        if (PACK.test(name) && !live.has(name)) {
          this.#closeFd(name);
          rmSync(join(this.#dir, name), { force: true });
        }
      }
      // What this run kept is the next run's previous index (a watch session saves after each build): the same map, not
      // a copy of it (at 100,003 pages, 200,000 entries copied at the build's end, where its memory is highest). Every
      // entry let go from it since is a change (see drop), so nothing is lost to the pruning check above.
      this.#previous = this.#next;
      this.#previousCount = this.#next.size;
      this.#changed = false;
    } catch {
      // a read-only or full disk only costs the cache
    }
  }

  /** Closes the files it has open, once the appends under way are done. */
  async close(): Promise<void> {
    this.#append();
    await this.#appending;
    this.#closeWriting();
    for (const name of [...this.#fds.keys()]) this.#closeFd(name);
  }

  /** Bytes of the store on disk: its packs and its index. */
  static sizeOnDisk(dir: string): number {
    if (!existsSync(dir)) return 0;
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  }

  #fd(pack: string): number {
    let fd = this.#fds.get(pack);
    if (fd === undefined) {
      fd = openSync(join(this.#dir, pack), 'r');
      this.#fds.set(pack, fd);
    }
    return fd;
  }

  #closeFd(pack: string): void {
    const fd = this.#fds.get(pack);
    if (fd === undefined) return;
    this.#fds.delete(pack);
    closeSync(fd);
  }

  #pack(): { pack: string; fd: number; size: number } {
    if (!this.#writing) {
      mkdirSync(this.#dir, { recursive: true });
      const pack = `pack-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}.bin`;
      this.#writing = { pack, fd: openSync(join(this.#dir, pack), 'w+'), size: 0 };
      this.#fds.set(pack, this.#writing.fd);
    }
    return this.#writing;
  }

  #closeWriting(): void {
    if (!this.#writing) return;
    this.#closeFd(this.#writing.pack);
    this.#writing = undefined;
  }

  /**
   * Moves the live entries of each pack that is mostly dead (live entries under COMPACT_BELOW of its bytes) to the end
   * of the pack this run writes, so that pack can go; a pack with no live entry at all is deleted by save, and a pack
   * mostly live stays as it is. Judged over all packs together, a build that made nearly everything anew (another
   * version of site-gen, or a new day: every render key changes) had its own pack at about half of the bytes, and when
   * that pack was the smaller half, it copied all of it: at 100,003 pages 1.6 GB read and written again as the build
   * ended, to free the last build's pack, which save deletes anyway.
   */
  #compactMostlyDead(): void {
    const writing = this.#writing?.pack;
    const mostlyDead = new Set<string>();
    for (const [pack, live] of this.#next.bytesByPack())
      if (pack !== writing && live < statSync(join(this.#dir, pack)).size * COMPACT_BELOW) mostlyDead.add(pack);
    if (mostlyDead.size === 0) return;
    const into = this.#pack();
    let bytes = Buffer.allocUnsafe(0);
    // Each entry moves in place (its key keeps its slot in the index), through one buffer grown to the largest.
    for (const [key, [pack, offset, length]] of this.#next) {
      if (!mostlyDead.has(pack)) continue;
      if (bytes.length < length) bytes = Buffer.allocUnsafe(Math.max(length, 2 * bytes.length));
      if (readSync(this.#fd(pack), bytes, 0, length, offset) !== length) throw new Error(`a short read of ${pack}`);
      writeWhole(into.fd, bytes.subarray(0, length), into.size);
      this.#next.set(key, [into.pack, into.size, length]);
      into.size += length;
    }
  }
}
