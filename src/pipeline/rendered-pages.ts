// A build's rendered pages, from their render to the end of the build: a few bytes a page in columns, each page's
// record made as it is read.
import { DigestColumn } from '../core/columns.ts';
import { digestHex } from '../core/digest.ts';
import { type LinkTarget, type LinkTargets, linkPath } from './check.ts';
import type { PageShape, RenderedRoute } from './pipeline.ts';
import type { PlannedRoute } from './route-plan.ts';

/** A value pages share, as JSON: kept as its digest when longer (the key of a page's own links, on most sites). */
const KEPT_AS_JSON = 48;

/**
 * Every rendered page of a build, in the routes' order, as the steps after the render read them: the images, the
 * client bundle's entries, the sitemap, the links check, the pages made again with the final bundle. A record a page
 * as an object (the route's four fields again, its render key and hash as strings, its milliseconds as a boxed number)
 * held about 250 bytes of heap a page from its render to the end of the build, 25 MB at 100,003 pages, when the
 * build's memory is highest. Here a page takes 61 bytes outside the heap: its plan is the routes' own, its two digests
 * 16 bytes each, and what pages share (their islands, links, ids, images and shape: the same value for every page
 * that has it) a number into a table of those values, each kept once.
 */
export class RenderedPages implements Iterable<RenderedRoute> {
  readonly #plans: readonly PlannedRoute[];
  readonly #keys: DigestColumn;
  readonly #hashes: DigestColumn;
  readonly #islands: Uint32Array;
  readonly #links: Uint32Array;
  readonly #ids: Uint32Array;
  readonly #images: Uint32Array;
  /** 0: no shape read yet (see RenderedRoute.shape). */
  readonly #shapes: Uint32Array;
  readonly #noindex: Uint8Array;
  readonly #ms: Float64Array;
  /** The values pages share, each once: its number is its place here (0 is none). */
  readonly #shared: unknown[] = [undefined];
  /** Each shared value's number, by its JSON (or the JSON's digest), or by the value itself for a shape. */
  readonly #numbers = new Map<unknown, number>();
  /** The last value's JSON and number in each column (see #number): most pages share what the page before had. */
  readonly #last: Array<{ json: string; number: number } | undefined> = [];
  #length = 0;

  /** Room for a page of each of `plans`, the routes the pages are rendered from, in their order. */
  constructor(plans: readonly PlannedRoute[]) {
    this.#plans = plans;
    const size = plans.length;
    this.#keys = new DigestColumn(size);
    this.#hashes = new DigestColumn(size);
    this.#islands = new Uint32Array(size);
    this.#links = new Uint32Array(size);
    this.#ids = new Uint32Array(size);
    this.#images = new Uint32Array(size);
    this.#shapes = new Uint32Array(size);
    this.#noindex = new Uint8Array(size);
    this.#ms = new Float64Array(size);
  }

  get length(): number {
    return this.#length;
  }

  /**
   * Keeps the next route's page. Returns its record with the values it shares with pages before it, those already
   * kept, so that what holds it a while (the pages waiting for the client bundle) holds no copy of them.
   */
  push(page: RenderedRoute): RenderedRoute {
    const index = this.#length;
    if (page.file !== this.#plans[index]?.file)
      throw new Error(`site-gen: ${page.file} is not route ${index}'s page; this is a bug.`);
    this.#keys.set(index, page.key);
    this.#hashes.set(index, page.hash);
    this.#islands[index] = this.#number(0, page.islands);
    this.#links[index] = this.#number(1, page.links);
    this.#ids[index] = this.#number(2, page.ids);
    this.#images[index] = this.#number(3, page.images);
    this.#shapes[index] = page.shape ? this.#shape(page.shape) : 0;
    this.#noindex[index] = page.noindex ? 1 : 0;
    this.#ms[index] = page.ms;
    this.#length += 1;
    return this.#record(index, page.key, page.hash);
  }

  /** The page at `index`, as a record of its own (made now: what holds it is its reader's). */
  at(index: number): RenderedRoute {
    if (index < 0 || index >= this.#length) throw new RangeError(`site-gen: no rendered page ${index}; this is a bug.`);
    return this.#record(index, this.#keys.get(index)!, this.#hashes.get(index)!);
  }

  #record(index: number, key: string, hash: string): RenderedRoute {
    const plan = this.#plans[index]!;
    const shared = this.#shared;
    // Every property in the order #renderAll names them: one object layout for every page.
    return {
      route: plan.route,
      path: plan.path,
      file: plan.file,
      entry: plan.entry,
      key,
      hash,
      islands: shared[this.#islands[index]!] as RenderedRoute['islands'],
      links: shared[this.#links[index]!] as string[],
      ids: shared[this.#ids[index]!] as string[],
      images: shared[this.#images[index]!] as RenderedRoute['images'],
      noindex: this.#noindex[index] === 1,
      ms: this.#ms[index]!,
      shape: shared[this.#shapes[index]!] as PageShape | undefined,
    };
  }

  *[Symbol.iterator](): Generator<RenderedRoute> {
    for (let index = 0; index < this.#length; index += 1) yield this.at(index);
  }

  map<T>(each: (page: RenderedRoute, index: number) => T): T[] {
    const made: T[] = [];
    for (let index = 0; index < this.#length; index += 1) made.push(each(this.at(index), index));
    return made;
  }

  /** Each page's plan (its path, file and entry), in order, without its record: what a page's report names. */
  *plans(): Generator<PlannedRoute> {
    for (let index = 0; index < this.#length; index += 1) yield this.#plans[index]!;
  }

  /** The paths of the pages the sitemap lists (those not marked noindex). */
  indexedPaths(): string[] {
    const paths: string[] = [];
    for (let index = 0; index < this.#length; index += 1)
      if (!this.#noindex[index]) paths.push(this.#plans[index]!.path);
    return paths;
  }

  /**
   * The pages as links find them (see linkTargets in check.ts), a page's record made only when a link leads to it: a
   * map of every page's record held them all at once, while the links were checked.
   */
  linkTargets(): LinkTargets {
    const byPath = new Map<string, number>();
    for (let index = 0; index < this.#length; index += 1) byPath.set(linkPath(this.#plans[index]!.path), index);
    const shared = this.#shared;
    const ids = this.#ids;
    const plans = this.#plans;
    return {
      get(path: string): LinkTarget | undefined {
        const index = byPath.get(path);
        return index === undefined ? undefined : { path: plans[index]!.path, ids: shared[ids[index]!] as string[] };
      },
    };
  }

  /**
   * The number of `value` (an array of plain data) in `column`, kept once with every value equal to it. The same as the
   * page before's is found without a digest: a digest of each page's JSON (two or three a page) cost a build with one
   * page changed of 10,003 about 50 ms.
   */
  #number(column: number, value: unknown[]): number {
    const json = JSON.stringify(value);
    const last = this.#last[column];
    if (last?.json === json) return last.number;
    const number = this.#kept(json.length > KEPT_AS_JSON ? digestHex(json) : json, value);
    this.#last[column] = { json, number };
    return number;
  }

  /** The number of `shape`: each shape is read once (see Pipeline#byShape), so the same object stands for it. */
  #shape(shape: PageShape): number {
    return this.#kept(shape, shape);
  }

  /** The number of the shared value known by `id`: `value`'s, kept now, when none is. */
  #kept(id: unknown, value: unknown): number {
    let number = this.#numbers.get(id);
    if (number === undefined) {
      number = this.#shared.push(value) - 1;
      this.#numbers.set(id, number);
    }
    return number;
  }
}
