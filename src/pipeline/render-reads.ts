// Records what of the content each page's render reads, so that a build renders again only the pages whose reads changed.
import { digest, digestHex, shortHex } from '../core/digest.ts';

/**
 * One read, as a string: its kind, the path read (a JSON array: the root, then each property), then after a
 * separator what was found. Kinds: `g` a property's value, `h` whether a property is the object's own (`in`), `k` the
 * object's own keys, `d` a property's descriptor, `p` the object's prototype, `x` whether it is extensible; and `S`,
 * with no path, every read the site made as it loaded, as a hash (see ContentReads.recordSite).
 */
export const SEPARATOR = '\u0001';

/** The well-known symbols (Symbol.iterator...) by name: the only symbols a read can name across builds. */
const WELL_KNOWN = new Map<symbol, string>(
  Object.getOwnPropertyNames(Symbol)
    .filter((name) => typeof (Symbol as unknown as Record<string, unknown>)[name] === 'symbol')
    .map((name) => [(Symbol as unknown as Record<string, symbol>)[name]!, name]),
);
const BY_NAME = new Map([...WELL_KNOWN].map(([symbol, name]) => [name, symbol]));

/** A property as a path step: its name, or a well-known symbol as `{ "symbol": name }`; undefined for other symbols. */
export function step(prop: PropertyKey): string | { symbol: string } | undefined {
  if (typeof prop !== 'symbol') return String(prop);
  const name = WELL_KNOWN.get(prop);
  return name === undefined ? undefined : { symbol: name };
}

export function propertyOf(part: string | { symbol: string }): PropertyKey | undefined {
  return typeof part === 'string' ? part : BY_NAME.get(part.symbol);
}

/** What kind of object the tracker follows reads into (plain data), or undefined for any other object. */
export function kindOf(value: object): 'o' | 'a' | 'n' | undefined {
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) return proto === Array.prototype ? 'a' : undefined;
  return proto === Object.prototype ? 'o' : proto === null ? 'n' : undefined;
}

/** Long strings are kept by hash: a Markdown body read once should not sit in the record whole. */
export function text(prefix: string, value: string): string {
  return value.length <= 64 ? prefix + value : `h${prefix}${digestHex(value)}`;
}

/**
 * What a read found, as a string; undefined when it cannot be told again in another build (a function, a symbol, a
 * Map or any object not plain data): the page is then never reused. An object of plain data is its kind, and when it
 * was first reached by another path than this one (the same object twice in the content), `@` and that path.
 */
export function describe(value: unknown, label?: string, path?: string): string | undefined {
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
  /**
   * The `g` reads this render made of objects no other render has read yet (see Meta.readBy), by object and property:
   * what a page reads again (an index sorting thousands of entries reads each one's date at every comparison) takes
   * the quick way, as Meta.fast gives it for objects read by many pages. Let go with the recording.
   */
  again?: Map<Meta, Map<PropertyKey, Remembered>>;
}

/** A `g` read remembered: the value found, what the render was given for it (its Proxy, for an object), its id. */
interface Remembered {
  value: unknown;
  wrapped: unknown;
  id: number;
}

interface Meta {
  target: object;
  proxy: object;
  /** The path it was first reached by: a JSON array. */
  label: string;
  /**
   * The label's steps while it has fewer than three, for grouping (see groupOf); undefined from three on: its group is
   * then its label's first three, read from the label when first needed (see stepsOf). An array each cost about 80 B
   * for every entry of a list (100,000 at 100,003 pages) to the build's end.
   */
  steps?: Steps;
  /** The group of the reads of this object and, when `steps` has all three, of its properties (made when first read). */
  group?: number;
  /**
   * The last `h` and `d` read of each property (by kind and property) and what it found: the same value read again (by
   * the next page, through the same layout) is the same read, found without making its text again. Each made when
   * first needed: most objects (an entry of thousands) are read by one page, and only by `g` reads (kept in `fast`).
   */
  last?: Array<Map<PropertyKey, { value: unknown; flags: string; id: number }> | undefined>;
  /** The last read of its own keys, likewise. */
  keys?: { keys: PropertyKey[]; id: number };
  /**
   * The last `g` read of each property, as a render repeats it: what the property held (ABSENT: not its own) and gave,
   * and the read's id. A write through the Proxy forgets them all (nothing else can write: the site's code holds only
   * Proxies). One memo for `g` reads, not one here and one in `last`: at 100,000 entries read by the site as it loads
   * and by a page each, a second cost about 50 MB. Made once a third recording reads the object (see `readBy`).
   */
  fast?: Map<PropertyKey, Remembered>;
  /**
   * The recording that first made a `g` read of it (its serial), then the second (negated), until `fast` is made by a
   * third: most objects (an entry of thousands) are read by one page, or by two (an index, then the entry's own page),
   * which gain nothing from a memo of them (a Map and an entry per property: about 30 MB at 100,003 pages, and its making
   * for the second reader about 7% of the time of 4,000 entries' pages, an index then each). A read again by the same page takes
   * the recording's own memo (Recording.again).
   */
  readBy?: number;
}

/** A path's steps: each a property (a string) or a symbol's description. */
type Steps = Array<string | { symbol: string }>;

/** Kinds of read remembered per property in Meta.last (`g` reads are remembered in Meta.fast). */
const PROPERTY_KINDS = { h: 0, d: 1 } as const;

/** What a `g` read of a missing property found, as remembered (see Meta.fast): no value can be it. */
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
  /**
   * The id of each read's text (path and value), for the texts still held (see spill); a text no longer held is made
   * again under a new id when read again, which stands for the same read (each id's text is evaluated on its own).
   */
  #ids = new Map<string, number>();
  /** The texts of reads `#textsFrom` on, by id; those before were handed on by `spill`. */
  #texts: string[] = [];
  #textsFrom = 0;
  /** The group (see groupOf) of each read, by id. */
  readonly #groupOf: number[] = [];
  readonly #groups = new Map<string, number>();
  /** The recording each id was last added to (so a page lists each read once). */
  readonly #mark: number[] = [];
  #recording: Recording | undefined;
  #serial = 0;
  /** Counts the writes through the Proxies: a result kept by `memo` stands while it is the same. */
  #writes = 0;
  readonly #memos = new WeakMap<object, { result: unknown; writes: number; reads: PageReads }>();
  /** The reads made as the site loaded: its one `S` read (see recordSite). */
  #site: PageReads = { ids: [], opaque: false };
  /** Below this id, every read was made as the site loaded, and stands for the site's `S` read (see recordSite). */
  #siteEnd = 0;
  #siteRead = -1;
  #siteText: string | undefined;
  /**
   * The site's recording while it loads: its reads keep no memo (Meta.fast, Meta.last), whose ids would stand for one
   * read each; a page that reads the same again makes its read anew.
   */
  #loading: Recording | undefined;
  /** Whether its reads were let go (see done). */
  #done = false;

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

  /**
   * Lets go of the reads recorded, their texts, ids and groups (about 50 MB at 100,003 pages), once the build has
   * stored them (see ReadRecords.stored): a build renders its pages once, and its memory is highest as it writes the
   * last. Recording after it is a bug.
   */
  done(): void {
    this.#done = true;
    this.#ids = new Map();
    this.#texts = [];
    this.#groupOf.length = 0;
    this.#mark.length = 0;
    this.#groups.clear();
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

  /**
   * Runs the site's load (async: its modules are imported); every read made until it settles is the site's. They are
   * then one read, `S`, found to be a hash of them all: every page reads what the site read, so one changed read among
   * them changes every page whether it is one read or many; and a site whose routes come from 100,000 entries reads
   * each as it loads (300,000 reads, about 60 MB of texts, ids and groups), which as one read it does not hold.
   * A page that reads again what the site read is given the `S` read (see #add). The site's own code makes the same
   * reads in the same order from the same content, so the same hash is the same reads.
   */
  async recordSite<T>(load: () => Promise<T>): Promise<T> {
    this.#assertRecording();
    const recording: Recording = { ids: [], opaque: false, serial: ++this.#serial };
    this.#recording = recording;
    this.#loading = recording;
    try {
      return await load();
    } finally {
      this.#recording = undefined;
      this.#loading = undefined;
      this.#site = { ids: [this.#siteOnce()], opaque: recording.opaque };
    }
  }

  /** Every read made so far (the site's: see recordSite) as one `S` read, their texts let go; its id. */
  #siteOnce(): number {
    const hashed = digest();
    // Each text with its length: no two lists of texts hash as one.
    for (const read of this.#texts) hashed.update(`${read.length}:`).update(read);
    const end = this.made;
    this.#texts.fill('');
    this.#ids = new Map();
    const read = ['S', SEPARATOR, 'S', shortHex(hashed)].join('');
    const id = this.made;
    this.#texts.push(read);
    this.#siteText = read;
    this.#ids.set(read, id);
    let group = this.#groups.get('S');
    if (group === undefined) this.#groups.set('S', (group = this.#groups.size));
    this.#groupOf[id] = group;
    this.#siteEnd = end;
    this.#siteRead = id;
    return id;
  }

  /** What the site's `S` read found in this build (see recordSite), once the site has loaded. */
  get siteFound(): string | undefined {
    return this.#siteText?.slice(2);
  }

  /** How many reads were made: the next read's id. */
  get made(): number {
    return this.#textsFrom + this.#texts.length;
  }

  /** The text of read `id` (see SEPARATOR), while it is held (see spill). */
  readAt(id: number): string | undefined {
    return this.#texts[id - this.#textsFrom];
  }

  /**
   * Hands on the texts of the reads made since the last spill, in the order of their ids, and lets go of them: a build
   * stores them as it goes (see ReadRecords), rather than holding every page's to the last (about 60 bytes of text a
   * read, six reads a page of their own on this site's pages). Between renders only.
   */
  spill(): string[] {
    const texts = this.#texts;
    this.#textsFrom += texts.length;
    this.#texts = [];
    this.#ids = new Map();
    return texts;
  }

  /** How many reads' texts are held (see spill). */
  get held(): number {
    return this.#texts.length;
  }

  /** Runs one page's render, synchronously; returns what it made and what it read. */
  record<T>(render: () => T): { value: T; reads: PageReads } {
    this.#assertRecording();
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
   * What `compute` makes of `value`, a content object it reads and nothing else, made once while nothing is written to
   * the content: each later page's recording is given the reads the first made, as if it had read them itself. Island
   * props are the same content objects on every page, and reading them whole through the Proxies cost as much as
   * rendering. Anything not one of this tracker's Proxies is computed every time.
   */
  memo<T>(value: object, compute: () => T): T {
    if (!this.#byProxy.has(value)) return compute();
    let kept = this.#memos.get(value);
    const recording = this.#recording;
    let made = false;
    if (!kept || kept.writes !== this.#writes) {
      const writes = this.#writes;
      const { value: result, reads } = this.record(compute);
      kept = { result, writes, reads };
      made = true;
      // A compute that wrote to the content read it as it was before: kept for no one.
      if (writes === this.#writes) this.#memos.set(value, kept);
    }
    if (recording) {
      for (const id of kept.reads.ids) this.#add(recording, id);
      if (kept.reads.opaque) recording.opaque = true;
      // The compute's own recording marked the reads as its own: one this recording had made already was added again.
      if (made) recording.ids = [...new Set(recording.ids)];
    }
    return kept.result as T;
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

  #assertRecording(): void {
    if (this.#done)
      throw new Error('site-gen: content reads were recorded after the build let them go; this is a bug.');
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
    return this.#made(value, JSON.stringify(path), path.length < 3 ? path.slice() : undefined);
  }

  /** The Proxy of `value`, read as property `part` of the object `meta` stands for. */
  #child(meta: Meta, part: string | { symbol: string }, value: unknown): unknown {
    if (typeof value !== 'object' || value === null) return value;
    const known = this.#byTarget.get(value);
    if (known) return known.proxy;
    if (!kindOf(value)) return value;
    const steps = meta.steps && meta.steps.length < 2 ? [...meta.steps, part] : undefined;
    return this.#made(value, propertyPath(meta, part), steps);
  }

  #made(target: object, label: string, steps: Steps | undefined): object {
    const proxy = new Proxy(target, this.#handler);
    const meta: Meta = {
      target,
      proxy,
      label,
      steps,
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
    this.#writes += 1;
    const meta = this.#byTarget.get(target)!;
    meta.last = undefined;
    meta.fast = undefined;
    meta.keys = undefined;
    if (this.#recording) this.#recording.again = undefined;
  }

  /**
   * Records a read in the current recording, if any; `found` undefined makes it unrecordable. `meta`: the object read
   * (`part` undefined) or whose property `part` is read, which tells the read's group without parsing the path.
   */
  #record(
    kind: string,
    path: string,
    found: string | undefined,
    meta?: Meta,
    part?: string | { symbol: string },
  ): number | undefined {
    const recording = this.#recording!;
    if (found === undefined) {
      recording.opaque = true;
      return undefined;
    }
    // Joined, not added: `+` makes a tree of string pieces (the path's too) that the reads list would keep for the whole
    // build; join makes one flat string. A third of the memory for a site's thousands of distinct reads, and quicker.
    const read = [kind, path, SEPARATOR, found].join('');
    let id = this.#ids.get(read);
    if (id === undefined) {
      id = this.made;
      this.#texts.push(read);
      this.#ids.set(read, id);
      this.#groupOf[id] = meta ? this.#groupAt(meta, part) : this.#groupId(JSON.parse(path) as Steps);
    }
    this.#add(recording, id);
    return id;
  }

  /** The group of the reads of `meta`'s object (`part` undefined) or of its property `part`. */
  #groupAt(meta: Meta, part: string | { symbol: string } | undefined): number {
    // Below the third step, every read of an object and of its properties is in the object's group.
    const steps = meta.steps;
    if (part === undefined || !steps) return (meta.group ??= this.#groupId(steps ?? stepsOf(meta.label), meta.label));
    return this.#groupId([...steps, part]);
  }

  /**
   * The id of the group of reads whose path starts with `steps`' first three. `label`: the path of the object read,
   * which names the group itself when it is three steps long (an entry of a list: one group each, 100,000 at 100,003
   * pages), kept once rather than made again.
   */
  #groupId(steps: Steps, label?: string): number {
    const group = JSON.stringify(steps.slice(0, 3));
    let id = this.#groups.get(group);
    if (id === undefined) this.#groups.set(label === group ? label : group, (id = this.#groups.size));
    return id;
  }

  #add(recording: Recording, id: number): void {
    // A read the site made as it loaded is the site's `S` read (see recordSite).
    if (id < this.#siteEnd) id = this.#siteRead;
    if (this.#mark[id] === recording.serial) return;
    this.#mark[id] = recording.serial;
    recording.ids.push(id);
  }

  /**
   * A read of property `prop` that found `value` (`found` tells it as text). An `h` or `d` read is made only when this
   * property was last read to something else (see Meta.last); a `g` read's memo is its caller's (Meta.fast).
   */
  #propertyRead(
    kind: 'g' | keyof typeof PROPERTY_KINDS,
    meta: Meta,
    prop: PropertyKey,
    value: unknown,
    found: (path: string) => string | undefined,
    flags = '',
  ): number | undefined {
    const recording = this.#recording;
    if (!recording) return undefined;
    const last =
      kind === 'g' || recording === this.#loading
        ? undefined
        : ((meta.last ??= [])[PROPERTY_KINDS[kind]] ??= new Map());
    const known = last?.get(prop);
    if (known && Object.is(known.value, value) && known.flags === flags) {
      this.#add(recording, known.id);
      return known.id;
    }
    const part = step(prop);
    if (part === undefined) {
      this.#opaque();
      return undefined;
    }
    const path = propertyPath(meta, part);
    const id = this.#record(kind, path, found(path), meta, part);
    if (id !== undefined) last?.set(prop, { value, flags, id });
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
      const made = this.#recording?.ids.length;
      const id = this.#propertyRead('g', meta, prop, value, (path) => describe(value, this.#labelOf(value), path));
      const frozen = wrapped !== value && !own.configurable && !own.writable;
      if (id !== undefined && !frozen)
        this.#remember(meta, prop, value, wrapped, id, this.#recording?.ids.length === made);
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

  /**
   * Remembers the `g` read `id` of `prop` in `meta.fast` (see Meta.fast): from the third page that reads the object
   * on (see Meta.readBy), and for the first two in their recordings alone (Recording.again) once it reads it `again`; none for
   * the site's own reads as it loads, and at once for a memo made as it loads, whose reads (the site's) every page is
   * then given as the site's one read.
   */
  #remember(meta: Meta, prop: PropertyKey, value: unknown, wrapped: unknown, id: number, again: boolean): void {
    const recording = this.#recording;
    if (!recording || recording === this.#loading) return;
    if (!meta.fast && !this.#loading) {
      const by = meta.readBy;
      // The first reader as it is, the second negated, the third makes the memo every later page takes.
      if (by === undefined) meta.readBy = recording.serial;
      else if (by !== recording.serial && by !== -recording.serial)
        meta.readBy = by > 0 ? -recording.serial : undefined;
      if (meta.readBy !== undefined) {
        // Remembered once read again: most properties a page reads once (its own entry's fields).
        if (!again) return;
        let props = (recording.again ??= new Map()).get(meta);
        if (!props) recording.again.set(meta, (props = new Map()));
        props.set(prop, { value, wrapped, id });
        return;
      }
    }
    (meta.fast ??= new Map()).set(prop, { value, wrapped, id });
  }

  /** A read of whether property `prop` is there: `g` or `d` of a missing one (`-`), `h` (`T` or `F`). */
  #presence(kind: 'g' | 'd' | 'h', meta: Meta, prop: PropertyKey, found: string): void {
    this.#propertyRead(kind, meta, prop, found === '-' ? ABSENT : found, () => found);
  }

  readonly #handler: ProxyHandler<object> = {
    get: (target, prop, receiver) => {
      const meta = this.#byTarget.get(target)!;
      const recording = this.#recording;
      const fast = recording && (meta.fast?.get(prop) ?? recording.again?.get(meta)?.get(prop));
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
        const made = recording?.ids.length;
        const id = this.#propertyRead('g', meta, prop, ABSENT, () => '-');
        if (id !== undefined) this.#remember(meta, prop, ABSENT, undefined, id, recording?.ids.length === made);
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
            : this.#record('k', meta.label, text('s', JSON.stringify(parts)), meta);
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
      if (this.#recording) {
        const meta = this.#byTarget.get(target)!;
        this.#record('p', meta.label, kindOf(target), meta);
      }
      return Reflect.getPrototypeOf(target);
    },
    isExtensible: (target) => {
      const extensible = Reflect.isExtensible(target);
      if (this.#recording) {
        const meta = this.#byTarget.get(target)!;
        this.#record('x', meta.label, extensible ? 'T' : 'F', meta);
      }
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

/**
 * The path of property `part` of the object `meta` stands for: its label with the property appended. Joined, not added
 * (see #record): the label of an object reached by it is kept to the build's end, 44 B flat against 152 B as the tree
 * of pieces a template literal makes.
 */
function propertyPath(meta: Meta, part: string | { symbol: string }): string {
  return [meta.label.slice(0, -1), ',', JSON.stringify(part), ']'].join('');
}

/** The first three steps of a label (a path of three steps or more: see Meta.steps). */
function stepsOf(label: string): Steps {
  return (JSON.parse(label) as Steps).slice(0, 3);
}

/** A data property's attributes, as three letters. */
export function flags(own: PropertyDescriptor): string {
  return `${own.writable ? 'w' : '-'}${own.enumerable ? 'e' : '-'}${own.configurable ? 'c' : '-'}`;
}
