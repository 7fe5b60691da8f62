// Typed-array columns that grow: what a build keeps a few numbers of per page (cache locations, page reports, whether
// each of the last build's reads reads the same) holds them in columns rather than in an object a page.

type Column = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A copy of `from` with room for `size` values (its values first, zeros after), of the same type. */
export function grown<T extends Column>(from: T, size: number): T {
  const to = new (from.constructor as new (size: number) => T)(size);
  to.set(from);
  return to;
}

/** `column` itself when it has a place at `index`, else a copy grown (see grown) to twice its size, or more. */
export function roomFor<T extends Column>(column: T, index: number): T {
  if (index < column.length) return column;
  let size = Math.max(1, column.length);
  while (size <= index) size *= 2;
  return grown(column, size);
}

/** The form of a digest as the tool names things by content (see shortHex in digest.ts): 32 hex digits. */
const DIGEST_HEX = /^[0-9a-f]{32}$/;

/**
 * Digests of 32 hex digits by index, 16 bytes each: as strings, a build kept 48 bytes of heap for each, and several a
 * page (its render key and hash, its document key). Given back as a new string each time one is read.
 */
export class DigestColumn {
  /** 16 bytes a digest, at 16 times its index. */
  #bytes: Uint8Array;
  /** #bytes as a Buffer, for its hex. */
  #hex: Buffer;
  /** 1 where a digest is set. */
  #set: Uint8Array;

  constructor(size = 1024) {
    this.#bytes = new Uint8Array(Math.max(1, size) * 16);
    this.#hex = Buffer.from(this.#bytes.buffer);
    this.#set = new Uint8Array(Math.max(1, size));
  }

  /** Sets `digest` (32 hex digits: anything else is a bug) at `index`. */
  set(index: number, digest: string): void {
    if (!DIGEST_HEX.test(digest)) throw new Error(`site-gen: "${digest}" is not a digest; this is a bug.`);
    this.#set = roomFor(this.#set, index);
    if (this.#bytes.length < this.#set.length * 16) {
      this.#bytes = grown(this.#bytes, this.#set.length * 16);
      this.#hex = Buffer.from(this.#bytes.buffer);
    }
    this.#hex.write(digest, index * 16, 16, 'hex');
    this.#set[index] = 1;
  }

  /** The digest at `index`, if one is set. */
  get(index: number): string | undefined {
    return this.#set[index] ? this.#hex.toString('hex', index * 16, index * 16 + 16) : undefined;
  }
}
