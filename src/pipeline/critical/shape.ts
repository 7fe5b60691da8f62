// The page as critical CSS sees it: pages with the same shape get the same critical CSS, so it is derived once for them.
import { digestHex } from '../../core/digest.ts';
import { type HtmlReader, scanHtml } from '../html-scan.ts';
import { readIdentifier, unescapeIdentifier } from './selectors.ts';

/** Attributes whose value always takes part in matching: pseudo-classes read them (`:lang()`, `:dir()`, inputs' type). */
const MATCHED_ATTRIBUTES = ['lang', 'dir', 'type'];

/**
 * What of a page can change which rules match: the elements and their nesting, every attribute's presence, the ids and
 * classes the stylesheet names (`#menu`, `.card`), the values of the attributes its selectors read
 * (`[aria-expanded="true"]`; every id or class when one reads `[id]` or `[class]`), and whether each run of text is
 * empty, blank or has words (`:empty`). Text and other values (hrefs, labels, island props, the ids of a Markdown
 * entry's headings) are left out: two pages of one template differ only there. `matched` comes from
 * `matchedAttributes`. Returns a hash of that.
 */
export function pageShape(html: string, matched: ReadonlySet<string>): string {
  const read = shapeReader(matched);
  scanHtml(html, [read.reader]);
  return read.shape();
}

/**
 * What reads a page's shape (see pageShape) as it is scanned (see scanHtml), beside other readers of the same scan;
 * `shape()` gives its hash once the scan has ended. The tags are read as written, self-closing or not, which tells
 * the tree as well as the tree would.
 */
export function shapeReader(matched: ReadonlySet<string>): { reader: HtmlReader; shape: () => string } {
  // One string hashed once: many small hash updates cost more than the scan.
  let shape = '';
  let text = '';
  const flush = () => {
    shape += text;
    text = '';
  };
  const classes = namedClassesOf(matched);
  return {
    reader: {
      open(name, attributes, selfClosing) {
        flush();
        shape += `<${name}`;
        for (let i = 0; i < attributes.length; i++) {
          const key = attributes.names[i]!;
          const value = attributes.values[i]!;
          if (matched.has(key)) shape += ` ${key}=${JSON.stringify(value)}`;
          else if (key === 'id') shape += matched.has(`#${value}`) ? ` id=${JSON.stringify(value)}` : ' id';
          else if (key === 'class') shape += ` class=${JSON.stringify(classes(value))}`;
          else shape += ` ${key}`;
        }
        shape += selfClosing ? '/>' : '>';
      },
      text(data) {
        if (text !== 'x') text = /\S/.test(data) ? 'x' : ' ';
      },
      close(name) {
        flush();
        shape += `</${name}>`;
      },
    },
    shape() {
      flush();
      return digestHex(shape);
    },
  };
}

/** At most this many `class` values are remembered per stylesheet (see namedClassesOf). */
const CLASS_VALUES_KEPT = 10_000;
const namedClassesBySheet = new WeakMap<ReadonlySet<string>, Map<string, string>>();

/**
 * The classes of a `class` attribute that the stylesheet names, in their order. Pages of one template repeat the same
 * `class` values, so each value's answer is remembered for the stylesheet's names (`matched`).
 */
function namedClassesOf(matched: ReadonlySet<string>): (value: string) => string {
  let known = namedClassesBySheet.get(matched);
  if (!known) namedClassesBySheet.set(matched, (known = new Map()));
  const remembered = known;
  return (value) => {
    let named = remembered.get(value);
    if (named === undefined) {
      named = '';
      for (const name of value.split(/[ \t\n\f\r]+/)) if (name && matched.has(`.${name}`)) named += ` ${name}`;
      if (remembered.size >= CLASS_VALUES_KEPT) remembered.clear();
      remembered.set(value, named);
    }
    return named;
  };
}

/**
 * What of a page the stylesheet's selectors may read: the names of the attributes whose value counts (every `[name`
 * in it, with the ones pseudo-classes read), and every `#id` and `.class` it names, unescaped (`.md\:flex` is the class
 * `md:flex`). Read from the whole text, values included: reading too many (a colour `#fff`, a `[` or `.` inside a
 * value) only makes shapes more distinct; never too few.
 */
export function matchedAttributes(css: string): Set<string> {
  const names = new Set(MATCHED_ATTRIBUTES);
  for (const match of css.matchAll(/\[\s*(?:[\w-]*\|)?([\w-]+)/g)) names.add(match[1]!.toLowerCase());
  const marks = /[.#]/g;
  for (let mark = marks.exec(css); mark; mark = marks.exec(css)) {
    const end = readIdentifier(css, mark.index + 1);
    if (end > mark.index + 1) names.add(mark[0] + unescapeIdentifier(css.slice(mark.index + 1, end)));
    marks.lastIndex = Math.max(end, mark.index + 1);
  }
  return names;
}
