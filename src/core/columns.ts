// Typed-array columns that grow: what a build keeps a few numbers of per page (cache locations, page reports, whether
// each of the last build's reads reads the same) holds them in columns rather than in an object a page.

type Column = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A copy of `from` with room for `size` values (its values first, zeros after), of the same type. */
export function grown<T extends Column>(from: T, size: number): T {
  const to = new (from.constructor as new (size: number) => T)(size);
  to.set(from);
  return to;
}

/** The form of a digest as the tool names things by content (see shortHex in digest.ts): 32 hex digits. */
const DIGEST_HEX = /^[0-9a-f]{32}$/;

/**
 * Digests of 32 hex digits by index, 16 bytes each: as strings, a build kept 48 bytes of heap for each, and several a
 * page (its render key and hash, its document key). Given back as a new string each time one is read.
 */
export class DigestColumn {
  #bytes: Buffer;
  /** 1 where a digest is set. */
  #set: Uint8Array;

  constructor(size = 1024) {
    this.#bytes = Buffer.alloc(Math.max(1, size) * 16);
    this.#set = new Uint8Array(Math.max(1, size));
  }

  /** Sets `digest` (32 hex digits: anything else is a bug) at `index`. */
  set(index: number, digest: string): void {
    if (!DIGEST_HEX.test(digest)) throw new Error(`site-gen: "${digest}" is not a digest; this is a bug.`);
    if (index >= this.#set.length) this.#grow(index + 1);
    this.#bytes.write(digest, index * 16, 16, 'hex');
    this.#set[index] = 1;
  }

  /** The digest at `index`, if one is set. */
  get(index: number): string | undefined {
    return this.#set[index] ? this.#bytes.toString('hex', index * 16, index * 16 + 16) : undefined;
  }

  #grow(least: number): void {
    let size = this.#set.length;
    while (size < least) size *= 2;
    const bytes = Buffer.alloc(size * 16);
    this.#bytes.copy(bytes);
    this.#bytes = bytes;
    this.#set = grown(this.#set, size);
  }
}
