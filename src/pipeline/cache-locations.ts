// Where each entry of the build cache is on disk, for hundreds of thousands of entries: a few bytes each, not an array.
import { grown } from '../core/columns.ts';

/** Which pack file an entry is in, at which offset, how many bytes. */
export type Location = [pack: string, offset: number, length: number];

/**
 * A map from entry keys to their locations, the locations kept in typed arrays: a build of 100,003 pages keeps two
 * entries a page, and an array per location cost about 70 bytes of heap each, more than the key. A location is made
 * as an array only when asked for.
 */
export class LocationMap {
  readonly #slots = new Map<string, number>();
  readonly #packNames: string[] = [];
  readonly #packIds = new Map<string, number>();
  #packs = new Uint32Array(1024);
  #offsets = new Float64Array(1024);
  #lengths = new Float64Array(1024);
  #used = 0;

  constructor(entries: Iterable<[string, Location]> = []) {
    for (const [key, at] of entries) this.set(key, at);
  }

  get size(): number {
    return this.#slots.size;
  }

  has(key: string): boolean {
    return this.#slots.has(key);
  }

  get(key: string): Location | undefined {
    const slot = this.#slots.get(key);
    return slot === undefined ? undefined : this.#at(slot);
  }

  set(key: string, [pack, offset, length]: Location): this {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      if (this.#used === this.#offsets.length) this.#grow();
      slot = this.#used++;
      this.#slots.set(key, slot);
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

  /** Forgets `key` (its slot stays unused: a rare case, an entry that could not be kept). */
  delete(key: string): boolean {
    return this.#slots.delete(key);
  }

  clear(): void {
    this.#slots.clear();
    this.#packNames.length = 0;
    this.#packIds.clear();
    this.#used = 0;
  }

  /** The packs the entries are in. */
  packs(): Set<string> {
    return new Set(this.bytesByPack().keys());
  }

  /** The bytes of the entries in each pack they are in. */
  bytesByPack(): Map<string, number> {
    const bytes = new Map<string, number>();
    for (const slot of this.#slots.values()) {
      const pack = this.#packNames[this.#packs[slot]!]!;
      bytes.set(pack, (bytes.get(pack) ?? 0) + this.#lengths[slot]!);
    }
    return bytes;
  }

  keys(): IterableIterator<string> {
    return this.#slots.keys();
  }

  *values(): IterableIterator<Location> {
    for (const slot of this.#slots.values()) yield this.#at(slot);
  }

  *entries(): IterableIterator<[string, Location]> {
    for (const [key, slot] of this.#slots) yield [key, this.#at(slot)];
  }

  [Symbol.iterator](): IterableIterator<[string, Location]> {
    return this.entries();
  }

  #at(slot: number): Location {
    return [this.#packNames[this.#packs[slot]!]!, this.#offsets[slot]!, this.#lengths[slot]!];
  }

  #grow(): void {
    const size = this.#offsets.length * 2;
    this.#packs = grown(this.#packs, size);
    this.#offsets = grown(this.#offsets, size);
    this.#lengths = grown(this.#lengths, size);
  }
}
