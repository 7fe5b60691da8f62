// The dev server's output: every file the build makes, its pages rendered when first read rather than all up front.
import type { OutputFiles } from './write.ts';

/** The pages' output files, as PagesOnRequest asks them. */
type PageFiles = Pick<ReadonlySet<string>, 'has'> & Iterable<string>;

/**
 * A map of output files whose pages are made when first read (`get`), then kept. `has` and `size` know every page
 * without making it; iterating makes them all (`site-gen watch --out` writes the whole site). `made()` lists what
 * exists so far, without making the rest. Other files may be made on request too (`others`: the dev server's sitemap,
 * which asks every route whether it is indexed).
 */
export class PagesOnRequest extends Map<string, Uint8Array | string> {
  readonly #pages: PageFiles;
  readonly #make: (file: string) => Uint8Array | string;
  readonly #others: ReadonlyMap<string, () => Uint8Array | string>;
  /** Files still being made (a page's images, encoded after the page is served), until they are set. */
  readonly #later = new Map<string, Promise<void>>();

  /**
   * `files`: everything but the pages; `pages`: the pages' output files, taken as they are when they can say whether
   * they have one (a set, or a build's list of its files: see MadeKeys.inPathOrder), else made a set; `make`: renders
   * one (and may throw), or, for a build with nothing changed, reads it from the output folder.
   */
  constructor(
    files: OutputFiles,
    pages: Iterable<string> | PageFiles,
    make: (file: string) => Uint8Array | string,
    others: ReadonlyMap<string, () => Uint8Array | string> = new Map(),
  ) {
    super(files);
    this.#pages = 'has' in pages ? pages : new Set(pages);
    this.#make = make;
    this.#others = others;
  }

  override get(file: string): Uint8Array | string | undefined {
    if (!super.has(file)) {
      if (this.#pages.has(file)) super.set(file, this.#make(file));
      else if (this.#others.has(file)) super.set(file, this.#others.get(file)!());
    }
    return super.get(file);
  }

  override has(file: string): boolean {
    return super.has(file) || this.onRequest(file);
  }

  override get size(): number {
    let size = super.size;
    for (const file of this.#pages) if (!super.has(file)) size += 1;
    for (const file of this.#others.keys()) if (!super.has(file)) size += 1;
    return size;
  }

  /**
   * `files` are made after the page that names them: each is set when `made` resolves. Until then `later` hands a
   * request for one the wait (rejected, for good in this output, when the making failed).
   */
  setLater(files: Iterable<string>, made: Promise<Map<string, Uint8Array>>): void {
    const names = [...files].filter((file) => !super.has(file));
    if (names.length === 0) return;
    const settled = made.then((out) => {
      for (const [file, data] of out) super.set(file, data);
      for (const file of names) this.#later.delete(file);
    });
    settled.catch(() => undefined);
    for (const file of names) this.#later.set(file, settled);
  }

  /** The wait for `file` if it is still being made (see setLater), else undefined. */
  later(file: string): Promise<void> | undefined {
    return this.#later.get(file);
  }

  isPage(file: string): boolean {
    return this.#pages.has(file);
  }

  /** Whether `file` is made when first read: a page, or one of the other files made on request. */
  onRequest(file: string): boolean {
    return this.#pages.has(file) || this.#others.has(file);
  }

  /** Makes every file not made yet. */
  #makeAll(): void {
    for (const file of this.#pages) this.get(file);
    for (const file of this.#others.keys()) this.get(file);
  }

  /** The files that exist now: everything but the pages not read yet. */
  made(): OutputFiles {
    return new Map(super.entries());
  }

  override entries(): MapIterator<[string, Uint8Array | string]> {
    this.#makeAll();
    return super.entries();
  }

  override keys(): MapIterator<string> {
    this.#makeAll();
    return super.keys();
  }

  override values(): MapIterator<Uint8Array | string> {
    this.#makeAll();
    return super.values();
  }

  override [Symbol.iterator](): MapIterator<[string, Uint8Array | string]> {
    return this.entries();
  }

  override forEach(
    callback: (value: Uint8Array | string, key: string, map: Map<string, Uint8Array | string>) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
