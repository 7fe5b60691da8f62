// Records what of the content each page's render reads, so that a build renders again only the pages whose reads changed.
import { createHash } from 'node:crypto';

/**
 * One read, as a string: its kind, the path read (a JSON array: the root, then each property), then after a
 * separator what was found. Kinds: `g` a property's value, `h` whether a property is the object's own (`in`), `k` the
 * object's own keys, `d` a property's descriptor, `p` the object's prototype, `x` whether it is extensible.
 */
const SEPARATOR = '\u0001';

/** The well-known symbols (Symbol.iterator...) by name: the only symbols a read can name across builds. */
const WELL_KNOWN = new Map<symbol, string>(
  Object.getOwnPropertyNames(Symbol)
    .filter((name) => typeof (Symbol as unknown as Record<string, unknown>)[name] === 'symbol')
    .map((name) => [(Symbol as unknown as Record<string, symbol>)[name]!, name]),
);
const BY_NAME = new Map([...WELL_KNOWN].map(([symbol, name]) => [name, symbol]));

/** A property as a path step: its name, or a well-known symbol as `{ "symbol": name }`; undefined for other symbols. */
function step(prop: PropertyKey): string | { symbol: string } | undefined {
  if (typeof prop !== 'symbol') return String(prop);
  const name = WELL_KNOWN.get(prop);
  return name === undefined ? undefined : { symbol: name };
}

function propertyOf(part: string | { symbol: string }): PropertyKey | undefined {
  return typeof part === 'string' ? part : BY_NAME.get(part.symbol);
}

/** What kind of object the tracker follows reads into (plain data), or undefined for any other object. */
function kindOf(value: object): 'o' | 'a' | 'n' | undefined {
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return proto === Array.prototype ? 'a' : undefined;
  return proto === Object.prototype ? 'o' : proto === null ? 'n' : undefined;
}

/** Long strings are kept by hash: a Markdown body read once should not sit in the record whole. */
function text(prefix: string, value: string): string {
  return value.length <= 64
    ? prefix + value
    : `h${prefix}${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}

/**
 * What a read found, as a string; undefined when it cannot be told again in another build (a function, a symbol, a
 * Map or any object not plain data): the page is then never reused. An object of plain data is its kind, and when it
 * was first reached by another path than this one (the same object twice in the content), `@` and that path.
 */
function describe(value: unknown, label?: string, path?: string): string | undefined {
  switch (typeof value) {
    case 'undefined':
      return 'u';
    case 'boolean':
      return value ? 'T' : 'F';
    case 'number':
      return Object.is(value, -0) ? '#-0' : `#${value}`;
    case 'bigint':
      return `b${value}`;
    case 'string':
      return text('s', value);
    case 'object': {
      if (value === null) return 'l';
      if (value instanceof Date && Object.getPrototypeOf(value) === Date.prototype) return `D${value.getTime()}`;
      const kind = kindOf(value);
      if (!kind) return undefined;
      return label === undefined || label === path ? kind : `${kind}@${label}`;
    }
    default:
      return undefined;
  }
}

/** What a page's render read: the reads' ids (see ContentReads), or `opaque` when one could not be recorded. */
export interface PageReads {
  ids: number[];
  opaque: boolean;
}

interface Recording extends PageReads {
  serial: number;
}

interface Meta {
  target: object;
  proxy: object;
  /** The path it was first reached by: a JSON array. */
  label: string;
  /** The label less its closing bracket, to append a property to. */
  open: string;
  /** The label's root and first two properties, for grouping (see groupOf). */
  steps: Array<string | { symbol: string }>;
  /**
   * The last read of each property (by kind and property) and what it found: the same value read again (by the next
   * page, through the same layout) is the same read, found without making its text again.
   */
  last: Map<PropertyKey, { value: unknown; flags: string; id: number }>[];
  /** The last read of its own keys, likewise. */
  keys?: { keys: PropertyKey[]; id: number };
  /**
   * `g` reads as a render repeats them: what the property held (ABSENT: not its own) and gave, and the read's id. A
   * write through the Proxy forgets them all (nothing else can write: the site's code holds only Proxies).
   */
  fast: Map<PropertyKey, { value: unknown; wrapped: unknown; id: number }>;
}

/** Kinds of read remembered per property (see Meta.last). */
const PROPERTY_KINDS = { g: 0, h: 1, d: 2 } as const;

/** What a `g` read of a missing property found, as remembered (see Meta.last): no value can be it. */
const ABSENT = Symbol('absent');

/** Content roots: `c` is the `content` prop; `m:<file>` a content module's exports. */
export type Roots = ReadonlyMap<string, unknown>;

/** The trackers of the site loads under way, by the key their content modules' wrappers name (see trackedExports). */
const trackers = new Map<string, ContentReads>();
let registered = 0;

/**
 * A content module's exports as the site's code imports them: each wrapped by the tracker registered under `key`, and
 * read once as the site loads (so a change to any export's value, a string included, renders every page again).
 * Called by the wrapper module content-modules.ts writes in place of the content module.
 */
export function trackedExports(key: string, file: string, exports: Record<string, unknown>): Record<string, unknown> {
  const tracker = trackers.get(key);
  if (!tracker) throw new Error(`site-gen: content/${file} was imported with no read tracker; this is a bug.`);
  return tracker.exportsOf(file, exports);
}

/** The URL of this module, which the wrappers of content modules import (see trackedExports). */
export const TRACKER_MODULE = import.meta.url;

/**
 * Wraps the content a render can reach in Proxies that record each read made during a recording: the property path
 * and what was found there (see describe). The same object always gets the same Proxy, so identity, keys and
 * memoisation behave as without it; writes go through to the object, and a write during a render makes that render
 * unrecordable. Reads made while the site loads (its modules' top level, the routes made from the content) are the
 * site's: every page depends on them.
 */
export class ContentReads {
  /** Under this key the content modules' wrappers find this tracker (see trackedExports). */
  readonly key = `${process.pid}-${++registered}`;
  /** Each wrapped object's Proxy and label, by the object and by its Proxy. */
  readonly #byTarget = new WeakMap<object, Meta>();
  readonly #byProxy = new WeakMap<object, Meta>();
  readonly #roots = new Map<string, unknown>();
  /** Each distinct read (path and value) by id, and the group (see groupOf) of each. */
  readonly #ids = new Map<string, number>();
  readonly reads: string[] = [];
  readonly #groupOf: number[] = [];
  readonly #groups = new Map<string, number>();
  /** The recording each id was last added to (so a page lists each read once). */
  readonly #mark: number[] = [];
  #recording: Recording | undefined;
  #serial = 0;
  /** The reads made as the site loaded. */
  #site: PageReads = { ids: [], opaque: false };

  constructor() {
    trackers.set(this.key, this);
  }

  /** The roots' raw values, to evaluate an earlier build's reads against (see ReadRecords). */
  get roots(): Roots {
    return this.#roots;
  }

  /** The site's reads (made as it loaded): part of every page's. */
  get site(): PageReads {
    return this.#site;
  }

  dispose(): void {
    trackers.delete(this.key);
  }

  /** A root's value, wrapped: `c` (the content prop), recorded as read by the site. */
  track<T>(root: string, value: T): T {
    this.#roots.set(root, value);
    const path = JSON.stringify([root]);
    const wrapped = this.#wrap(value, [root]) as T;
    if (this.#recording) this.#record('g', path, describe(value, this.#labelOf(value), path));
    return wrapped;
  }

  /** A content module's exports, each wrapped and read (see trackedExports). */
  exportsOf(file: string, exports: Record<string, unknown>): Record<string, unknown> {
    const root = `m:${file}`;
    this.#roots.set(root, exports);
    const wrapped: Record<string, unknown> = {};
    for (const name of Object.keys(exports)) {
      const value = exports[name];
      const path = JSON.stringify([root, name]);
      wrapped[name] = this.#wrap(value, [root, name]);
      if (this.#recording) this.#record('g', path, describe(value, this.#labelOf(value), path));
    }
    return wrapped;
  }

  /** Runs the site's load (async: its modules are imported); every read made until it settles is the site's. */
  async recordSite<T>(load: () => Promise<T>): Promise<T> {
    const recording: Recording = { ids: [], opaque: false, serial: ++this.#serial };
    this.#recording = recording;
    try {
      return await load();
    } finally {
      this.#recording = undefined;
      this.#site = { ids: recording.ids, opaque: recording.opaque };
    }
  }

  /** Runs one page's render, synchronously; returns what it made and what it read. */
  record<T>(render: () => T): { value: T; reads: PageReads } {
    const recording: Recording = { ids: [], opaque: false, serial: ++this.#serial };
    const outer = this.#recording;
    this.#recording = recording;
    try {
      const value = render();
      return { value, reads: { ids: recording.ids, opaque: recording.opaque } };
    } finally {
      this.#recording = outer;
    }
  }

  /**
   * `value` as plain data, read whole through the tracker (in a recording, every part counts as read): what a render
   * returns besides its HTML (its head) may hold content objects, and the cache stores plain data.
   */
  snapshot<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return value.map((item) => this.snapshot(item)) as T;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) copy[key] = this.snapshot((value as Record<string, unknown>)[key]);
    return copy as T;
  }

  /** The group of read `id`: reads of the same root and first two properties, which pages tend to read together. */
  groupOf(id: number): number {
    return this.#groupOf[id]!;
  }

  /** The label of an object the tracker has wrapped (the path it was first reached by), or undefined. */
  #labelOf(value: unknown): string | undefined {
    return typeof value === 'object' && value !== null ? this.#byTarget.get(value)?.label : undefined;
  }

  /** The Proxy of a plain-data object reached by `path` (made the first time), or the value itself. */
  #wrap(value: unknown, path: Array<string | { symbol: string }>): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const known = this.#byTarget.get(value);
    if (known) return known.proxy;
    if (!kindOf(value)) return value;
    const label = JSON.stringify(path);
    return this.#made(value, label, path.slice(0, 3));
  }

  /** The Proxy of `value`, read as property `part` of the object `meta` stands for. */
  #child(meta: Meta, part: string | { symbol: string }, value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const known = this.#byTarget.get(value);
    if (known) return known.proxy;
    if (!kindOf(value)) return value;
    return this.#made(value, `${meta.open},${JSON.stringify(part)}]`, [...meta.steps, part].slice(0, 3));
  }

  #made(target: object, label: string, steps: Meta['steps']): object {
    const proxy = new Proxy(target, this.#handler);
    const meta: Meta = {
      target,
      proxy,
      label,
      open: label.slice(0, -1),
      steps,
      last: [new Map(), new Map(), new Map()],
      fast: new Map(),
    };
    this.#byTarget.set(target, meta);
    this.#byProxy.set(proxy, meta);
    return proxy;
  }

  /** The raw object behind a Proxy of this tracker's (a write stores raw objects, never Proxies, in the content). */
  #raw(value: unknown): unknown {
    return (typeof value === 'object' && value !== null && this.#byProxy.get(value)?.target) || value;
  }

  #opaque(): void {
    if (this.#recording) this.#recording.opaque = true;
  }

  /** A write to `target`: the render that made it cannot be recorded, and what its Proxy remembers of it is forgotten. */
  #written(target: object): void {
    this.#opaque();
    const meta = this.#byTarget.get(target)!;
    for (const last of meta.last) last.clear();
    meta.fast.clear();
    meta.keys = undefined;
  }

  /**
   * Records a read in the current recording, if any; `found` undefined makes it unrecordable. `steps`: the read's
   * first steps (root and two properties), its group, when the path's JSON is not to be parsed for them.
   */
  #record(kind: string, path: string, found: string | undefined, steps?: Meta['steps']): number | undefined {
    const recording = this.#recording!;
    if (found === undefined) {
      recording.opaque = true;
      return undefined;
    }
    const read = kind + path + SEPARATOR + found;
    let id = this.#ids.get(read);
    if (id === undefined) {
      id = this.reads.length;
      this.reads.push(read);
      this.#ids.set(read, id);
      const group = JSON.stringify((steps ?? (JSON.parse(path) as unknown[])).slice(0, 3));
      let groupId = this.#groups.get(group);
      if (groupId === undefined) this.#groups.set(group, (groupId = this.#groups.size));
      this.#groupOf[id] = groupId;
    }
    this.#add(recording, id);
    return id;
  }

  #add(recording: Recording, id: number): void {
    if (this.#mark[id] === recording.serial) return;
    this.#mark[id] = recording.serial;
    recording.ids.push(id);
  }

  /**
   * A read of property `prop` that found `value` (`found` tells it as text, made only when this property was last
   * read to something else: see Meta.last).
   */
  #propertyRead(
    kind: keyof typeof PROPERTY_KINDS,
    meta: Meta,
    prop: PropertyKey,
    value: unknown,
    found: (path: string) => string | undefined,
    flags = '',
  ): number | undefined {
    const recording = this.#recording;
    if (!recording) return undefined;
    const last = meta.last[PROPERTY_KINDS[kind]]!;
    const known = last.get(prop);
    if (known && Object.is(known.value, value) && known.flags === flags) {
      this.#add(recording, known.id);
      return known.id;
    }
    const part = step(prop);
    if (part === undefined) {
      this.#opaque();
      return undefined;
    }
    const path = `${meta.open},${JSON.stringify(part)}]`;
    const id = this.#record(kind, path, found(path), [...meta.steps, part]);
    if (id !== undefined) last.set(prop, { value, flags, id });
    return id;
  }

  /** A data property's read: its wrapped value (see #child), recorded as `kind` (`g` its value, `d` its descriptor). */
  #dataRead(kind: 'g' | 'd', meta: Meta, prop: PropertyKey, own: PropertyDescriptor): unknown {
    const value = own.value as unknown;
    const part = step(prop);
    if (part === undefined) {
      this.#opaque();
      return value;
    }
    const wrapped = this.#child(meta, part, value);
    if (kind === 'g') {
      const id = this.#propertyRead('g', meta, prop, value, (path) => describe(value, this.#labelOf(value), path));
      const frozen = wrapped !== value && !own.configurable && !own.writable;
      if (id !== undefined && !frozen) meta.fast.set(prop, { value, wrapped, id });
    } else if (this.#recording) {
      const attributes = flags(own);
      this.#propertyRead(
        'd',
        meta,
        prop,
        value,
        (path) => {
          const found = describe(value, this.#labelOf(value), path);
          return found === undefined ? found : attributes + found;
        },
        attributes,
      );
    }
    if (wrapped !== value && !own.configurable && !own.writable) {
      // A frozen property must read as its own value: the object behind it goes unwatched.
      this.#opaque();
      return value;
    }
    return wrapped;
  }

  /** A read of whether property `prop` is there: `g` or `d` of a missing one (`-`), `h` (`T` or `F`). */
  #presence(kind: 'g' | 'd' | 'h', meta: Meta, prop: PropertyKey, found: string): void {
    this.#propertyRead(kind, meta, prop, found === '-' ? ABSENT : found, () => found);
  }

  readonly #handler: ProxyHandler<object> = {
    get: (target, prop, receiver) => {
      const meta = this.#byTarget.get(target)!;
      const recording = this.#recording;
      const fast = recording && meta.fast.get(prop);
      if (fast) {
        // The read this render's layout made for the last page, most of the time: the same value, the same read.
        if (fast.value === ABSENT) {
          if (!Object.hasOwn(target, prop)) {
            this.#add(recording, fast.id);
            return Reflect.get(target, prop, receiver);
          }
        } else if (Object.is((target as Record<PropertyKey, unknown>)[prop], fast.value)) {
          this.#add(recording, fast.id);
          return fast.wrapped;
        }
      }
      const own = Reflect.getOwnPropertyDescriptor(target, prop);
      if (!own) {
        const id = this.#propertyRead('g', meta, prop, ABSENT, () => '-');
        if (id !== undefined) meta.fast.set(prop, { value: ABSENT, wrapped: undefined, id });
        return Reflect.get(target, prop, receiver);
      }
      if (!('value' in own)) {
        // A getter runs code: what it returns is not a value the content holds.
        this.#opaque();
        return Reflect.get(target, prop, receiver);
      }
      return this.#dataRead('g', meta, prop, own);
    },
    has: (target, prop) => {
      this.#presence('h', this.#byTarget.get(target)!, prop, Object.hasOwn(target, prop) ? 'T' : 'F');
      return Reflect.has(target, prop);
    },
    ownKeys: (target) => {
      const keys = Reflect.ownKeys(target);
      const recording = this.#recording;
      if (recording) {
        const meta = this.#byTarget.get(target)!;
        const known = meta.keys;
        if (known && known.keys.length === keys.length && known.keys.every((key, i) => key === keys[i]))
          this.#add(recording, known.id);
        else {
          const parts = keys.map(step);
          const id = parts.includes(undefined)
            ? this.#record('k', meta.label, undefined)
            : this.#record('k', meta.label, text('s', JSON.stringify(parts)));
          if (id !== undefined) meta.keys = { keys, id };
        }
      }
      return keys;
    },
    getOwnPropertyDescriptor: (target, prop) => {
      const own = Reflect.getOwnPropertyDescriptor(target, prop);
      const meta = this.#byTarget.get(target)!;
      if (!own) {
        this.#presence('d', meta, prop, '-');
        return own;
      }
      if (!('value' in own)) {
        this.#opaque();
        return own;
      }
      const wrapped = this.#dataRead('d', meta, prop, own);
      // A non-configurable property's descriptor must be the target's own.
      if (wrapped === own.value) return own;
      if (!own.configurable) {
        this.#opaque();
        return own;
      }
      return { ...own, value: wrapped };
    },
    getPrototypeOf: (target) => {
      if (this.#recording) this.#record('p', this.#byTarget.get(target)!.label, kindOf(target));
      return Reflect.getPrototypeOf(target);
    },
    isExtensible: (target) => {
      const extensible = Reflect.isExtensible(target);
      if (this.#recording) this.#record('x', this.#byTarget.get(target)!.label, extensible ? 'T' : 'F');
      return extensible;
    },
    set: (target, prop, value) => {
      this.#written(target);
      return Reflect.set(target, prop, this.#raw(value));
    },
    defineProperty: (target, prop, descriptor) => {
      this.#written(target);
      const raw = 'value' in descriptor ? { ...descriptor, value: this.#raw(descriptor.value) } : descriptor;
      return Reflect.defineProperty(target, prop, raw);
    },
    deleteProperty: (target, prop) => {
      this.#written(target);
      return Reflect.deleteProperty(target, prop);
    },
    setPrototypeOf: (target, proto) => {
      this.#written(target);
      return Reflect.setPrototypeOf(target, proto);
    },
    preventExtensions: (target) => {
      this.#written(target);
      return Reflect.preventExtensions(target);
    },
  };
}

function sameIds(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A data property's attributes, as three letters. */
function flags(own: PropertyDescriptor): string {
  return `${own.writable ? 'w' : '-'}${own.enumerable ? 'e' : '-'}${own.configurable ? 'c' : '-'}`;
}

/**
 * Reads as stored between builds: each read's text (see SEPARATOR), the groups (a sorted list of reads: see
 * ContentReads.groupOf) and, by render key, each kept render's groups, render hash and HTML's hash. Pages share groups:
 * every page of one layout reads the same navigation and copy, stored once.
 */
export interface StoredReads {
  reads: string[];
  groups: number[][];
  pages: Array<[key: string, hash: string, html: string, groups: number[]]>;
}

/** A kept render's hashes: its render hash when it was made (see renderHash) and its HTML's. */
export interface KeptHashes {
  hash: string;
  html: string;
}

/**
 * Which kept renders read content that is still the same, from the last build's stored reads evaluated against this
 * build's content; and this build's reads, to store. Exact rather than clever: a read whose value cannot be found again
 * the same way (a path that no longer leads to plain data, an object now reached by two labels) counts as changed.
 */
export class ReadRecords {
  readonly #tracker: ContentReads;
  readonly #last: StoredReads | undefined;
  readonly #lastPages: Map<string, KeptHashes & { groups: number[] }>;
  /** Whether each of the last build's groups reads the same now (evaluated when first asked). */
  #unchanged: boolean[] | undefined;
  /** This build's pages: a kept page's last groups (`last`), or a rendered page's groups of this build (`made`). */
  readonly #next = new Map<string, KeptHashes & ({ last: number[] } | { made: number[] })>();
  /**
   * This build's groups, each a sorted list of the tracker's read ids, made as pages are rendered (a page keeps a
   * dozen group ids, not its hundreds of reads), by their ids' list.
   */
  readonly #groups: Int32Array[] = [];
  readonly #groupIds = new Map<number, number[]>();
  #siteGroup: number | undefined;

  constructor(tracker: ContentReads, last: StoredReads | undefined) {
    this.#tracker = tracker;
    this.#last = last;
    this.#lastPages = new Map(last?.pages.map(([key, hash, html, groups]) => [key, { hash, html, groups }]));
  }

  /** The hashes of the render kept under `key`, if every read it made finds the same now. */
  unchanged(key: string): KeptHashes | undefined {
    const page = this.#lastPages.get(key);
    if (!page) return undefined;
    this.#unchanged ??= this.#evaluate();
    const same = this.#unchanged;
    return page.groups.every((group) => same[group]) ? page : undefined;
  }

  /** The render hash stored with the page under `key` in the last build, whether or not it reads the same now. */
  lastHash(key: string): string | undefined {
    return this.#lastPages.get(key)?.hash;
  }

  /** The page under `key` is kept as it was: its reads from the last build stay its reads. */
  keep(key: string): void {
    const page = this.#lastPages.get(key)!;
    this.#next.set(key, { hash: page.hash, html: page.html, last: page.groups });
  }

  /** The page under `key` was rendered (see KeptHashes) having read `reads` (an opaque record is never stored). */
  set(key: string, hashes: KeptHashes, reads: PageReads): void {
    if (!this.recordable(reads)) return;
    const tracker = this.#tracker;
    const byGroup = new Map<number, number[]>();
    for (const id of reads.ids) {
      const group = tracker.groupOf(id);
      let members = byGroup.get(group);
      if (!members) byGroup.set(group, (members = []));
      members.push(id);
    }
    // The site's reads are one group, every page's: made once.
    this.#siteGroup ??= this.#group(tracker.site.ids);
    const made = [this.#siteGroup, ...[...byGroup.values()].map((members) => this.#group(members))];
    this.#next.set(key, { ...hashes, made: [...new Set(made)] });
  }

  /** The id of the group of these reads (interned by a hash of the sorted ids, compared whole on a match). */
  #group(members: number[]): number {
    const sorted = Int32Array.from(members).sort();
    let key = sorted.length;
    for (const id of sorted) key = (Math.imul(key, 31) + id) | 0;
    const candidates = this.#groupIds.get(key);
    const same = candidates?.find((group) => sameIds(this.#groups[group]!, sorted));
    if (same !== undefined) return same;
    const id = this.#groups.push(sorted) - 1;
    if (candidates) candidates.push(id);
    else this.#groupIds.set(key, [id]);
    return id;
  }

  /** Whether a render with these reads can be reused by a later build (see set). */
  recordable(reads: PageReads): boolean {
    return !reads.opaque && !this.#tracker.site.opaque;
  }

  /** This build's pages' reads, in the stored form. */
  stored(): StoredReads {
    const tracker = this.#tracker;
    const reads: string[] = [];
    const readIds = new Map<string, number>();
    const readId = (read: string) => {
      let id = readIds.get(read);
      if (id === undefined) readIds.set(read, (id = reads.push(read) - 1));
      return id;
    };
    const groups: number[][] = [];
    const groupIds = new Map<string, number>();
    const groupId = (members: number[]) => {
      const key = members.join(',');
      let id = groupIds.get(key);
      if (id === undefined) groupIds.set(key, (id = groups.push(members) - 1));
      return id;
    };
    const fromLast = new Map<number, number>();
    const lastGroup = (group: number) => {
      let id = fromLast.get(group);
      if (id === undefined) {
        const members = this.#last!.groups[group]!.map((read) => readId(this.#last!.reads[read]!));
        fromLast.set(group, (id = groupId(members.sort((a, b) => a - b))));
      }
      return id;
    };
    // This build's groups, each translated once.
    const fromMade = new Map<number, number>();
    const madeGroup = (group: number) => {
      let id = fromMade.get(group);
      if (id === undefined) {
        const members = Array.from(this.#groups[group]!, (read) => readId(tracker.reads[read]!));
        fromMade.set(group, (id = groupId(members.sort((a, b) => a - b))));
      }
      return id;
    };
    const pages: StoredReads['pages'] = [];
    for (const [key, page] of this.#next) {
      const ids = 'last' in page ? page.last.map(lastGroup) : page.made.map(madeGroup);
      pages.push([key, page.hash, page.html, [...new Set(ids)].sort((a, b) => a - b)]);
    }
    return { reads, groups, pages };
  }

  /** Whether each of the last build's groups reads the same against this build's content. */
  #evaluate(): boolean[] {
    const last = this.#last!;
    const roots = this.#tracker.roots;
    const walked = new Map<string, { value: unknown } | undefined>();
    // The value at a path of plain data from a root, or undefined when the path does not lead there the same way.
    const walk = (path: string): { value: unknown } | undefined => {
      if (walked.has(path)) return walked.get(path);
      const split = splitPath(path);
      let found: { value: unknown } | undefined;
      if (!split) {
        const root = (JSON.parse(path) as string[])[0]!;
        found = roots.has(root) ? { value: roots.get(root) } : undefined;
      } else {
        const parent = walk(split.parent);
        const own = parent && ownOf(parent.value, split.last);
        found = own && 'value' in own ? { value: own.value } : undefined;
      }
      walked.set(path, found);
      return found;
    };
    // The label of each object read, and the object now found by each label: two labels on one object now (the
    // content shares an object it did not) change every read of either.
    const labelled = new Map<unknown, string>();
    const shared = new Set<string>();
    const readSame = last.reads.map((read) => {
      const at = read.indexOf(SEPARATOR);
      const kind = read[0]!;
      const path = read.slice(1, at);
      const was = read.slice(at + 1);
      const now = evaluateRead(kind, path, was, walk);
      if (now === undefined) return false;
      if (isObject(was)) {
        const label = was.length > 1 ? was.slice(2) : path;
        const object = walk(label)?.value;
        const other = labelled.get(object);
        if (other !== undefined && other !== label) shared.add(other).add(label);
        labelled.set(object, label);
      }
      return now === was;
    });
    last.reads.forEach((read, index) => {
      const was = read.slice(read.indexOf(SEPARATOR) + 1);
      if (isObject(was) && shared.has(was.length > 1 ? was.slice(2) : read.slice(1, read.indexOf(SEPARATOR))))
        readSame[index] = false;
    });
    return last.groups.map((group) => group.every((read) => readSame[read]));
  }
}

/** The own property `part` of `parent` if `parent` is plain data (a module's namespace is: no prototype). */
function ownOf(parent: unknown, part: string | { symbol: string }): PropertyDescriptor | undefined {
  if (typeof parent !== 'object' || parent === null || !kindOf(parent)) return undefined;
  const prop = propertyOf(part);
  return prop === undefined ? undefined : Reflect.getOwnPropertyDescriptor(parent, prop);
}

/** Whether a read's stored value is a plain-data object (see describe). */
function isObject(was: string): boolean {
  return was[0] === 'o' || was[0] === 'a' || was[0] === 'n';
}

/**
 * A path's parent path and last step, or undefined for a root's. Without parsing it: in a JSON array of strings and
 * `{"symbol":...}` steps, `,"` and `,{"` are found only between steps (a string's own `"` is escaped).
 */
function splitPath(path: string): { parent: string; last: string | { symbol: string } } | undefined {
  const at = Math.max(path.lastIndexOf(',"'), path.lastIndexOf(',{"'));
  if (at < 0) return undefined;
  return { parent: `${path.slice(0, at)}]`, last: JSON.parse(path.slice(at + 1, -1)) as string | { symbol: string } };
}

/** What a stored read finds now, as its stored text would say it; undefined when it cannot be told. */
function evaluateRead(
  kind: string,
  path: string,
  was: string,
  walk: (path: string) => { value: unknown } | undefined,
): string | undefined {
  const split = splitPath(path);
  const valueText = (value: unknown) => {
    // An object read by another label is the same object as the one at that label, or not the same read.
    const alias = isObject(was) && was[1] === '@' ? was.slice(2) : undefined;
    if (alias !== undefined && walk(alias)?.value !== value) return undefined;
    return describe(value, alias ?? path, path);
  };
  switch (kind) {
    case 'g':
    case 'd': {
      if (!split) {
        const root = walk(path);
        return root && kind === 'g' ? valueText(root.value) : undefined;
      }
      const parent = walk(split.parent)?.value;
      const prop = propertyOf(split.last);
      if (typeof parent !== 'object' || parent === null || !kindOf(parent) || prop === undefined) return undefined;
      const own = Reflect.getOwnPropertyDescriptor(parent, prop);
      if (!own) return '-';
      if (!('value' in own)) return undefined;
      const found = valueText(own.value);
      if (found === undefined) return undefined;
      return kind === 'g' ? found : flags(own) + found;
    }
    case 'h': {
      if (!split) return undefined;
      const object = walk(split.parent)?.value;
      const prop = propertyOf(split.last);
      if (typeof object !== 'object' || object === null || !kindOf(object) || prop === undefined) return undefined;
      return Object.hasOwn(object, prop) ? 'T' : 'F';
    }
    case 'k': {
      const object = walk(path)?.value;
      if (typeof object !== 'object' || object === null || !kindOf(object)) return undefined;
      const keys = Reflect.ownKeys(object).map(step);
      return keys.includes(undefined) ? undefined : text('s', JSON.stringify(keys));
    }
    case 'p': {
      const object = walk(path)?.value;
      return typeof object === 'object' && object !== null ? kindOf(object) : undefined;
    }
    case 'x': {
      const object = walk(path)?.value;
      if (typeof object !== 'object' || object === null || !kindOf(object)) return undefined;
      return Reflect.isExtensible(object) ? 'T' : 'F';
    }
    default:
      return undefined;
  }
}
