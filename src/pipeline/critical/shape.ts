// The page as critical CSS sees it: pages with the same shape get the same critical CSS, so it is derived once for them.
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';

/** Attributes whose value always takes part in matching: selectors and pseudo-classes read them. */
const MATCHED_ATTRIBUTES = ['id', 'class', 'lang', 'dir', 'type'];

/**
 * What of a page can change which rules match: the elements and their nesting, every attribute's presence, the values of
 * `id`, `class` and the attributes the stylesheet's selectors name (`[aria-expanded="true"]`), and whether each run
 * of text is empty, blank or has words (`:empty`). Text and other attribute values (hrefs, labels, island props) are
 * left out: two pages of one template differ only there. Returns a hash of that.
 */
export function pageShape(html: string, matched: ReadonlySet<string>): string {
  // One string hashed once: many small hash updates cost more than the parse.
  let shape = '';
  let text = '';
  const flush = () => {
    shape += text;
    text = '';
  };
  const parser = new Parser({
    onopentag(name, attributes) {
      flush();
      shape += `<${name}`;
      for (const key in attributes)
        shape += matched.has(key) ? ` ${key}=${JSON.stringify(attributes[key])}` : ` ${key}`;
      shape += '>';
    },
    ontext(data) {
      if (text !== 'x') text = /\S/.test(data) ? 'x' : data ? ' ' : text;
    },
    onclosetag(name) {
      flush();
      shape += `</${name}>`;
    },
  });
  parser.end(html);
  flush();
  return createHash('sha256').update(shape).digest('hex');
}

/**
 * The attribute names a stylesheet's selectors may read: every `[name` in it, with the ones pseudo-classes read.
 * Reading too many (a `[` inside a value) only makes shapes more distinct; never too few.
 */
export function matchedAttributes(css: string): Set<string> {
  const names = new Set(MATCHED_ATTRIBUTES);
  for (const match of css.matchAll(/\[\s*(?:[\w-]*\|)?([\w-]+)/g)) names.add(match[1]!.toLowerCase());
  return names;
}
