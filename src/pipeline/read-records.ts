// What each kept render read of the content, kept between builds: which kept renders still read the same.
import { grown } from '../core/columns.ts';
import { detached } from '../core/strings.ts';
import type { ListItem } from './list-codec.ts';
import {
  type ContentReads,
  describe,
  flags,
  kindOf,
  type PageReads,
  propertyOf,
  SEPARATOR,
  step,
  text,
} from './render-reads.ts';

/** Whether two sorted lists of read ids are the same. */
function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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

/**
 * The last build's reads as this build asks for them: its groups and page records whole, its read texts (most of the
 * stored bytes: 600,000 at 100,003 pages) a part at a time, each time they are asked for. A part that cannot be read
 * is undefined: every read is then taken as changed.
 */
export interface LastReads {
  texts(): Iterable<readonly string[] | undefined>;
  groups: number[][];
  pages: StoredReads['pages'];
}

/** Stored reads held whole (a test's, or another build's in memory), as LastReads. */
export function lastReadsOf(stored: StoredReads): LastReads {
  return { texts: () => [stored.reads], groups: stored.groups, pages: stored.pages };
}

/**
 * Where a build's reads go as they are made (see ReadRecords): each list of StoredReads in parts, each part the items
 * after the last, in order. Joined again, the parts of each list are that list.
 */
export interface ReadsSink {
  part(list: keyof StoredReads, items: readonly ListItem[]): void;
}

/**
 * A part is handed to the sink once this many items of a list are held: at 100,003 pages a build made about 600,000
 * reads, 100,000 groups and 100,000 page records (some 1.1 KB a page), which it held to the last page and stored then,
 * at the top of its memory. A part is a few MB.
 */
export const ITEMS_PER_PART = { reads: 50_000, groups: 20_000, pages: 10_000 } as const;

/** A kept render's hashes: its render hash when it was made (see renderHash) and its HTML's. */
export interface KeptHashes {
  hash: string;
  html: string;
}

/**
 * The last build's groups as a build holds them from its first page to its last: each group's reads one after another
 * in one Int32Array, and where each group starts in another. As lists (an array a group), those of a one-page build at
 * 100,003 pages took about 300 B a page to the end of its render.
 */
class PackedGroups {
  readonly #starts: Int32Array;
  readonly #reads: Int32Array;

  constructor(groups: readonly (readonly number[])[]) {
    this.#starts = new Int32Array(groups.length + 1);
    let total = 0;
    groups.forEach((group, index) => {
      this.#starts[index] = total;
      total += group.length;
    });
    this.#starts[groups.length] = total;
    this.#reads = new Int32Array(total);
    groups.forEach((group, index) => this.#reads.set(group, this.#starts[index]!));
  }

  get length(): number {
    return this.#starts.length - 1;
  }

  /** The reads of group `group` (a view, not a copy). */
  reads(group: number): Int32Array {
    return this.#reads.subarray(this.#starts[group]!, this.#starts[group + 1]!);
  }
}

/**
 * Which kept renders read content that is still the same, from the last build's stored reads evaluated against this
 * build's content; and this build's reads, to store. Exact rather than clever: a read whose value cannot be found again
 * the same way (a path that no longer leads to plain data, an object now reached by two labels) counts as changed.
 */
export class ReadRecords {
  readonly #tracker: ContentReads;
  /** The last build's groups and texts (its page records are in #lastPages). */
  readonly #last: { texts: LastReads['texts']; groups: PackedGroups } | undefined;
  readonly #lastPages: Map<string, KeptHashes & { groups: number[] }>;
  /** Whether each of the last build's groups reads the same now (evaluated when first asked). */
  #unchanged: boolean[] | undefined;
  /**
   * This build's pages: a kept page's hashes and last groups (`last`), or a rendered page's record as it is stored (its
   * groups are this build's: see stored).
   */
  readonly #kept = new Map<string, KeptHashes & { last: number[] }>();
  /** The records of this build's rendered pages since the last part (see ReadsSink). */
  #pages: Array<StoredReads['pages'][number]> = [];
  /**
   * This build's groups since the last part, each a sorted list of the tracker's read ids, made as pages are rendered
   * (a page keeps a dozen group ids, not its hundreds of reads); the first is group `#groupsFrom`.
   */
  #groups: number[][] = [];
  #groupsFrom = 0;
  /**
   * The groups held, by a hash of their ids: a group's id, or the ids of the groups with that hash when two have it.
   * Plain arrays and numbers: most groups are one page's own entry, made once each (an Int32Array and a list per group
   * cost about 180 bytes a page more at 10,003 pages). A group made again after its part was handed on is made anew,
   * under another id: the same reads either way.
   */
  #groupIds = new Map<number, number | number[]>();
  #siteGroup: number | undefined;
  readonly #sink: ReadsSink | undefined;
  readonly #perPart: Record<keyof StoredReads, number>;

  /**
   * `sink`: where the reads go as they are made, `perPart` items of a list at a time (see ReadsSink); without one,
   * `stored` gives them all at the end.
   */
  constructor(
    tracker: ContentReads,
    last: LastReads | undefined,
    sink?: ReadsSink,
    perPart: Record<keyof StoredReads, number> = ITEMS_PER_PART,
  ) {
    this.#tracker = tracker;
    this.#last = last && { texts: last.texts, groups: new PackedGroups(last.groups) };
    this.#sink = sink;
    this.#perPart = perPart;
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
    this.#kept.set(key, { hash: page.hash, html: page.html, last: page.groups });
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
    this.#pages.push([key, hashes.hash, hashes.html, [...new Set(made)].sort((a, b) => a - b)]);
    this.#spill();
  }

  /** Hands the sink each list whose held items reach a part. Between renders: a render's reads are being made. */
  #spill(): void {
    const sink = this.#sink;
    if (!sink) return;
    const tracker = this.#tracker;
    if (tracker.held >= this.#perPart.reads) sink.part('reads', tracker.spill());
    if (this.#groups.length >= this.#perPart.groups) {
      sink.part('groups', this.#groups);
      this.#groupsFrom += this.#groups.length;
      this.#groups = [];
      this.#groupIds = new Map();
    }
    if (this.#pages.length >= this.#perPart.pages) {
      sink.part('pages', this.#pages);
      this.#pages = [];
    }
  }

  /** The id of the group of these reads (interned by a hash of the sorted ids, compared whole on a match). */
  #group(members: number[]): number {
    const sorted = members.slice().sort((a, b) => a - b);
    let key = sorted.length;
    for (const id of sorted) key = (Math.imul(key, 31) + id) | 0;
    const found = this.#groupIds.get(key);
    const candidates = found === undefined ? [] : typeof found === 'number' ? [found] : found;
    const same = candidates.find((group) => sameIds(this.#groups[group - this.#groupsFrom]!, sorted));
    if (same !== undefined) return same;
    const id = this.#groupsFrom + this.#groups.push(sorted) - 1;
    this.#groupIds.set(key, found === undefined ? id : [...candidates, id]);
    return id;
  }

  /** Whether a render with these reads can be reused by a later build (see set). */
  recordable(reads: PageReads): boolean {
    return !reads.opaque && !this.#tracker.site.opaque;
  }

  /** Without a sink: this build's pages' reads, in the stored form. With one, `finish` instead. */
  stored(): StoredReads {
    if (this.#sink) throw new Error('site-gen: stored() asked of reads that go to a sink; this is a bug.');
    const whole: StoredReads = { reads: [], groups: [], pages: [] };
    this.#rest((list, items) => {
      for (const item of items) (whole[list] as ListItem[]).push(item);
    });
    return whole;
  }

  /** Hands the sink what it was not given yet (see #rest): after it, the sink's parts are this build's reads whole. */
  finish(): void {
    const sink = this.#sink!;
    this.#rest((list, items) => sink.part(list, items));
  }

  /**
   * Hands on what is left to store, in order: the tracker's reads since the last part, then the reads of the kept
   * pages (those of their last build's groups), read again from the last build's parts as they are handed on, each
   * under an id of its own after this build's (a text this build also made is stored twice: the same read either way);
   * this build's groups since the last part, then the kept pages' groups in this build's ids; the rendered pages'
   * records since the last part, then the kept pages'. Never more of the last build's texts in memory than a part.
   */
  #rest(hand: (list: keyof StoredReads, items: readonly ListItem[]) => void): void {
    const tracker = this.#tracker;
    const last = this.#last;
    const made = tracker.made;
    hand('reads', tracker.spill());
    // The last build's groups and reads that a kept page has: each read's id in this build's list, by its last id.
    const groupId = new Int32Array(last?.groups.length ?? 0).fill(-1);
    let ids = new Int32Array(0);
    const keptGroups: number[] = [];
    for (const page of this.#kept.values())
      for (const group of page.last)
        if (groupId[group] === -1) {
          groupId[group] = 0;
          keptGroups.push(group);
        }
    let next = made;
    if (keptGroups.length > 0) {
      let lastReads = 0;
      for (const group of keptGroups)
        for (const read of last!.groups.reads(group)) lastReads = Math.max(lastReads, read + 1);
      ids = new Int32Array(lastReads).fill(-1);
      for (const group of keptGroups) for (const read of last!.groups.reads(group)) ids[read] = 0;
      // In the last build's order, a part at a time: this build's ids are given in the order the texts are stored.
      let at = 0;
      let complete = true;
      for (const part of last!.texts()) {
        if (!part) {
          complete = false;
          break;
        }
        const texts: string[] = [];
        for (let i = 0; i < part.length && at < ids.length; i += 1, at += 1)
          if (ids[at] === 0) {
            ids[at] = next++;
            texts.push(part[i]!);
          }
        if (texts.length > 0) hand('reads', texts);
        if (at >= ids.length) break;
      }
      // The last build's texts could not all be read again: its kept pages are not stored (they render next time).
      if (!complete || at < ids.length) this.#kept.clear();
    }
    const groups = this.#groups;
    const groupsEnd = this.#groupsFrom + groups.length;
    let groupsMade = 0;
    for (const group of keptGroups) {
      if (this.#kept.size === 0) break;
      groupId[group] = groupsEnd + groupsMade++;
      groups.push(Array.from(last!.groups.reads(group), (read) => ids[read]!).sort((a, b) => a - b));
    }
    hand('groups', groups);
    const pages = this.#pages;
    for (const [key, page] of this.#kept)
      pages.push([
        key,
        page.hash,
        page.html,
        [...new Set(page.last.map((group) => groupId[group]!))].sort((a, b) => a - b),
      ]);
    hand('pages', pages);
    this.#pages = [];
    this.#kept.clear();
    this.#groups = [];
    this.#groupsFrom = groupsEnd + groupsMade;
    this.#groupIds = new Map();
  }

  /**
   * Whether each of the last build's groups reads the same against this build's content. The texts a part at a time:
   * what is kept across parts (each object's label) is copied out of them, so a part is let go once evaluated.
   */
  #evaluate(): boolean[] {
    const last = this.#last!;
    const roots = this.#tracker.roots;
    let walked = new Map<string, { value: unknown } | undefined>();
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
    const seen = (object: unknown, label: string) => {
      const other = labelled.get(object);
      if (other !== undefined && other !== label) shared.add(other).add(detached(label));
      if (other === undefined) labelled.set(object, detached(label));
    };
    let same = new Uint8Array(1024);
    let count = 0;
    const changed = () => new Array<boolean>(last.groups.length).fill(false);
    for (const part of last.texts()) {
      if (!part) return changed();
      // Paths are looked up again mostly within a part (a page's reads are made together): the walks are let go with it.
      walked = new Map();
      for (const read of part) {
        if (count === same.length) same = grown(same, same.length * 2);
        same[count++] = this.#readsSame(read, walk, seen) ? 1 : 0;
      }
    }
    if (shared.size > 0) {
      // A read of an object now shared with another label: read the texts again for those (a rare change).
      let index = 0;
      for (const part of last.texts()) {
        if (!part) return changed();
        for (const read of part) {
          const at = read.indexOf(SEPARATOR);
          const was = read.slice(at + 1);
          if (read !== '' && read[0] !== 'S' && isObject(was) && shared.has(labelOf(read, at, was))) same[index] = 0;
          index += 1;
        }
      }
    }
    return Array.from({ length: last.groups.length }, (_, group) =>
      last.groups.reads(group).every((read) => same[read] === 1),
    );
  }

  /** Whether a stored read finds the same now; `seen` is told each object it finds, by its label. */
  #readsSame(
    read: string,
    walk: (path: string) => { value: unknown } | undefined,
    seen: (object: unknown, label: string) => void,
  ): boolean {
    // A read no group has (see #rest).
    if (read === '') return false;
    const at = read.indexOf(SEPARATOR);
    const kind = read[0]!;
    // The site's reads as it loaded, as one (see ContentReads.recordSite): this build's load made the same, or not.
    if (kind === 'S') return read.slice(at + 1) === this.#tracker.siteFound;
    const path = read.slice(1, at);
    const was = read.slice(at + 1);
    const now = evaluateRead(kind, path, was, walk);
    if (now === undefined) return false;
    if (isObject(was)) {
      const label = labelOf(read, at, was);
      seen(walk(label)?.value, label);
    }
    return now === was;
  }
}

/** The label of an object read (its stored value `was`): the path it was first reached by. */
function labelOf(read: string, at: number, was: string): string {
  return was.length > 1 ? was.slice(2) : read.slice(1, at);
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
