// Where each entry of the build cache is on disk, for hundreds of thousands of entries: a few bytes each, not an array.
import { hash } from 'node:crypto';
import { grown } from '../core/columns.ts';
import { DIGEST } from '../core/digest.ts';

/** Which pack file an entry is in, at which offset, how many bytes. */
export type Location = [pack: string, offset: number, length: number];

/** An entry's key as the index holds it: the first 16 bytes of its digest (see keyDigest). */
export type KeyDigest = Uint8Array;

/** A key, or its digest (as the index's own iteration gives them). */
export type Key = string | KeyDigest;

/** Bytes of a key's digest the index keeps: 128 bits, so that two keys of a cache never share one. */
export const KEY_BYTES = 16;

/** The digest under which the index holds `key`. */
export function keyDigest(key: string): KeyDigest {
  return hash(DIGEST, key, 'buffer').subarray(0, KEY_BYTES);
}

const EMPTY = -1;

/**
 * A map from entry keys to their locations, all of it in typed arrays: a build of 100,003 pages keeps two entries a
 * page, and a Map of keys held about 104 bytes of heap an entry (the key, a string of its own of some 40 bytes, and
 * the Map's entry), twice what the entry's 16-byte digest and location take here. A key is found by its digest, in an
 * open-addressing table of slot numbers; an entry deleted keeps its slot (marked dead) until it is set again or the
 * map is cleared. A location is made as an array only when asked for. Iterated in the order keys were first set.
 */
export class LocationMap {
  #words = new Uint32Array(1024 * 4);
  #packs = new Uint32Array(1024);
  #offsets = new Float64Array(1024);
  #lengths = new Float64Array(1024);
  /** 1 where the slot's entry is in the map, 0 where it was deleted. */
  #live = new Uint8Array(1024);
  /** Slot numbers, by the digest's first word: a power of two in size, at most half full. */
  #table = new Int32Array(2048).fill(EMPTY);
  #used = 0;
  #size = 0;
  readonly #packNames: string[] = [];
  readonly #packIds = new Map<string, number>();

  constructor(entries: Iterable<[Key, Location]> = []) {
    for (const [key, at] of entries) this.set(key, at);
  }

  get size(): number {
    return this.#size;
  }

  has(key: Key): boolean {
    const slot = this.#find(digestOf(key));
    return slot !== EMPTY && this.#live[slot] === 1;
  }

  get(key: Key): Location | undefined {
    const slot = this.#find(digestOf(key));
    return slot !== EMPTY && this.#live[slot] === 1 ? this.#at(slot) : undefined;
  }

  set(key: Key, [pack, offset, length]: Location): this {
    const digest = digestOf(key);
    let slot = this.#find(digest);
    if (slot === EMPTY) slot = this.#add(digest);
    if (this.#live[slot] === 0) {
      this.#live[slot] = 1;
      this.#size += 1;
    }
    let id = this.#packIds.get(pack);
    if (id === undefined) {
      id = this.#packNames.push(pack) - 1;
      this.#packIds.set(pack, id);
    }
    this.#packs[slot] = id;
    this.#offsets[slot] = offset;
    this.#lengths[slot] = length;
    return this;
  }

  /** Forgets `key` (its slot stays, dead, until it is set again: a rare case, or a key moved to another map). */
  delete(key: Key): boolean {
    const slot = this.#find(digestOf(key));
    if (slot === EMPTY || this.#live[slot] === 0) return false;
    this.#live[slot] = 0;
    this.#size -= 1;
    return true;
  }

  clear(): void {
    this.#table.fill(EMPTY);
    this.#live.fill(0);
    this.#packNames.length = 0;
    this.#packIds.clear();
    this.#used = 0;
    this.#size = 0;
  }

  /** The packs the entries are in. */
  packs(): Set<string> {
    return new Set(this.bytesByPack().keys());
  }

  /** The bytes of the entries in each pack they are in. */
  bytesByPack(): Map<string, number> {
    const bytes = new Map<string, number>();
    for (let slot = 0; slot < this.#used; slot += 1) {
      if (this.#live[slot] === 0) continue;
      const pack = this.#packNames[this.#packs[slot]!]!;
      bytes.set(pack, (bytes.get(pack) ?? 0) + this.#lengths[slot]!);
    }
    return bytes;
  }

  /** Each key's digest (a new array each). */
  *keys(): Generator<KeyDigest> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): Generator<Location> {
    for (const [, at] of this.entries()) yield at;
  }

  *entries(): Generator<[KeyDigest, Location]> {
    for (let slot = 0; slot < this.#used; slot += 1)
      if (this.#live[slot] === 1) yield [this.#digestAt(slot), this.#at(slot)];
  }

  [Symbol.iterator](): Generator<[KeyDigest, Location]> {
    return this.entries();
  }

  /** The slot of `digest`, live or dead, or EMPTY. */
  #find(digest: KeyDigest): number {
    const a = wordOf(digest, 0);
    const b = wordOf(digest, 4);
    const c = wordOf(digest, 8);
    const d = wordOf(digest, 12);
    const words = this.#words;
    const mask = this.#table.length - 1;
    for (let at = a & mask; ; at = (at + 1) & mask) {
      const slot = this.#table[at]!;
      if (slot === EMPTY) return EMPTY;
      const w = slot * 4;
      if (words[w] === a && words[w + 1] === b && words[w + 2] === c && words[w + 3] === d) return slot;
    }
  }

  /** A new slot for `digest` (not in the table), dead until set. */
  #add(digest: KeyDigest): number {
    if (this.#used === this.#live.length) this.#grow();
    if ((this.#used + 1) * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    const slot = this.#used++;
    for (let word = 0; word < 4; word += 1) this.#words[slot * 4 + word] = wordOf(digest, word * 4);
    this.#live[slot] = 0;
    this.#place(slot);
    return slot;
  }

  #place(slot: number): void {
    const mask = this.#table.length - 1;
    let at = this.#words[slot * 4]! & mask;
    while (this.#table[at] !== EMPTY) at = (at + 1) & mask;
    this.#table[at] = slot;
  }

  #rehash(size: number): void {
    this.#table = new Int32Array(size).fill(EMPTY);
    for (let slot = 0; slot < this.#used; slot += 1) this.#place(slot);
  }

  #digestAt(slot: number): KeyDigest {
    const digest = new Uint8Array(KEY_BYTES);
    for (let at = 0; at < KEY_BYTES; at += 1)
      digest[at] = (this.#words[slot * 4 + (at >> 2)]! >>> ((at & 3) * 8)) & 0xff;
    return digest;
  }

  #at(slot: number): Location {
    return [this.#packNames[this.#packs[slot]!]!, this.#offsets[slot]!, this.#lengths[slot]!];
  }

  #grow(): void {
    const size = this.#live.length * 2;
    this.#words = grown(this.#words, size * 4);
    this.#packs = grown(this.#packs, size);
    this.#offsets = grown(this.#offsets, size);
    this.#lengths = grown(this.#lengths, size);
    this.#live = grown(this.#live, size);
  }
}

function digestOf(key: Key): KeyDigest {
  if (typeof key === 'string') return keyDigest(key);
  if (key.byteLength !== KEY_BYTES)
    throw new Error(`site-gen: a key digest of ${key.byteLength} bytes; this is a bug.`);
  return key;
}

/** The 32-bit word of `digest` at byte `at`, little-endian. */
function wordOf(digest: KeyDigest, at: number): number {
  return (digest[at]! | (digest[at + 1]! << 8) | (digest[at + 2]! << 16) | (digest[at + 3]! << 24)) >>> 0;
}
