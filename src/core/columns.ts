// Typed-array columns that grow: what a build keeps a few numbers of per page (cache locations, page reports, whether
// each of the last build's reads reads the same) holds them in columns rather than in an object a page.

type Column = Uint8Array | Uint32Array | Int32Array | Float64Array;

/** A copy of `from` with room for `size` values (its values first, zeros after), of the same type. */
export function grown<T extends Column>(from: T, size: number): T {
  const to = new (from.constructor as new (size: number) => T)(size);
  to.set(from);
  return to;
}
