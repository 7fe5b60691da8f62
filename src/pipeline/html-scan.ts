// One pass over a page's HTML for every reader of it: its links and ids (render.tsx), its critical-CSS shape (critical/shape.ts).
import { decodeHTML, decodeHTMLAttribute } from 'entities';
import { Tokenizer } from 'htmlparser2';

/**
 * What reads a page as it is scanned: its tags as written, and its text. The scan tells tokens, not a tree: the closes
 * a browser implies (a `<p>` that ends the one before, a void element) are not told, since the tokens are enough to
 * tell the tree.
 */
export interface HtmlReader {
  /**
   * A start tag, its name lower-cased; `selfClosing` when it ends in `/>`, which closes it only inside `<svg>` and
   * `<math>`. `attributes` is made again for the next tag: what is kept of it is copied out.
   */
  open?(name: string, attributes: Attributes, selfClosing: boolean): void;
  /** A run of text between two tags, entities decoded (a comment does not end it; CDATA is text). */
  text?(data: string): void;
  /** An end tag, its name lower-cased. */
  close?(name: string): void;
}

/** A start tag's attributes: names lower-cased, values decoded, the first of a repeated name kept (as a browser does). */
export class Attributes {
  readonly names: string[] = [];
  readonly values: string[] = [];
  length = 0;

  get(name: string): string | undefined {
    for (let i = 0; i < this.length; i++) if (this.names[i] === name) return this.values[i];
    return undefined;
  }

  add(name: string, value: string): void {
    if (this.get(name) !== undefined) return;
    this.names[this.length] = name;
    this.values[this.length] = value;
    this.length += 1;
  }
}

/**
 * Scans `html` once, giving each tag and run of text to every reader in turn: a build reads each page for its links
 * and for its shape, and the scan is most of the cost of either.
 *
 * Pages are mostly React's output, which is regular: quoted attributes, comments, no CDATA. A fast scan takes that
 * much by `indexOf`; at the first thing it does not take (a doctype, CDATA, an odd tag or attribute), htmlparser2's
 * tokenizer, which follows the HTML standard's states one character at a time at about four times the cost, scans
 * the rest. Both tell the readers the same events (test/unit/html-scan.test.ts checks one against the other).
 * Returns how much of `html` the fast scan read.
 */
export function scanHtml(html: string, readers: readonly HtmlReader[]): number {
  const events = new Events(readers);
  const stopped = fastScan(html, events);
  if (stopped < html.length) tokenize(stopped === 0 ? html : html.slice(stopped), events);
  events.flush();
  return stopped;
}

/** What both scans tell: text gathered into runs, each tag's attributes gathered, then handed to the readers. */
class Events {
  readonly #open: NonNullable<HtmlReader['open']>[];
  readonly #text: NonNullable<HtmlReader['text']>[];
  readonly #close: NonNullable<HtmlReader['close']>[];
  #run = '';
  attributes = new Attributes();

  constructor(readers: readonly HtmlReader[]) {
    this.#open = readers.flatMap((reader) => (reader.open ? [reader.open.bind(reader)] : []));
    this.#text = readers.flatMap((reader) => (reader.text ? [reader.text.bind(reader)] : []));
    this.#close = readers.flatMap((reader) => (reader.close ? [reader.close.bind(reader)] : []));
  }

  text(data: string): void {
    this.#run += data;
  }

  /** Ends the run of text, if any: told before the next tag, and at the end. */
  flush(): void {
    if (this.#run === '') return;
    for (const each of this.#text) each(this.#run);
    this.#run = '';
  }

  open(name: string, selfClosing: boolean): void {
    this.flush();
    for (const each of this.#open) each(name, this.attributes, selfClosing);
    this.attributes = new Attributes();
  }

  /** Forgets the attributes of a tag read in part (the fast scan leaves it to the tokenizer). */
  discard(): void {
    this.attributes = new Attributes();
  }

  close(name: string): void {
    this.flush();
    for (const each of this.#close) each(name);
  }
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const BANG = 0x21;
const DOUBLE = 0x22;
const SINGLE = 0x27;
const BACKTICK = 0x60;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
const isLetter = (c: number) => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;

/**
 * Elements whose content is text up to their end tag, and whether its entities are decoded: as htmlparser2's tokenizer
 * reads them (the standard decodes a `<textarea>`'s too), so that both scans tell the same text.
 */
const RAW_TEXT = new Map([
  ['script', false],
  ['style', false],
  ['xmp', false],
  ['title', true],
  ['textarea', false],
]);

/** Text as the page holds it, entities decoded (none to decode in most runs). */
function decodedText(html: string, start: number, end: number): string {
  const text = html.slice(start, end);
  return text.includes('&') ? decodeHTML(text) : text;
}

/**
 * Scans as much of `html` as is regular (see scanHtml), telling `events`; returns where it stopped: `html.length`,
 * or the `<` of the first token it leaves to the tokenizer. It stops only between tokens, with nothing of the next one
 * told.
 */
function fastScan(html: string, events: Events): number {
  const length = html.length;
  let pos = 0;
  // Where the text being read began: a `<` that starts no token is text.
  let textStart = 0;
  while (pos < length) {
    const lt = html.indexOf('<', pos);
    if (lt === -1) break;
    const next = html.charCodeAt(lt + 1);
    let end: number;
    if (isLetter(next)) {
      end = startTag(html, lt, events, textStart);
    } else if (next === SLASH) {
      end = endTag(html, lt, events, textStart);
    } else if (next === BANG && html.startsWith('--', lt + 2)) {
      end = comment(html, lt);
      if (end !== -1 && lt > textStart) events.text(decodedText(html, textStart, lt));
    } else if (next !== BANG && next !== 0x3f && lt + 1 < length) {
      // `<` and not a tag (`a < b`): text.
      pos = lt + 1;
      continue;
    } else {
      end = -1;
    }
    if (end === -1) {
      events.discard();
      if (lt > textStart) events.text(decodedText(html, textStart, lt));
      return lt;
    }
    pos = textStart = end;
  }
  if (length > textStart) events.text(decodedText(html, textStart, length));
  return length;
}

/**
 * The end of the comment at `lt` (`<!--`): after the first `-->` past its opening; -1 when it has none, or is `<!-->`
 * or `<!--->` (which end there: the tokenizer's).
 */
function comment(html: string, lt: number): number {
  const close = html.indexOf('-->', lt + 2);
  return close < lt + 4 ? -1 : close + 3;
}

/** The end of the name that starts at `start`: a tag's, up to a space, `/` or `>`; an attribute's, also `=`. */
function nameEnd(html: string, start: number, attribute: boolean): number {
  let i = start;
  for (; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (isSpace(c) || c === SLASH || c === GT || (attribute && c === EQUALS)) return i;
    // Quotes or `<` in a name are the page's mistake: left to the tokenizer, which recovers as the standard says.
    if (attribute && (c === DOUBLE || c === SINGLE || c === LT)) return -1;
  }
  return -1;
}

function lowerName(html: string, start: number, end: number): string {
  const name = html.slice(start, end);
  for (let i = start; i < end; i++) if (isUpper(html.charCodeAt(i))) return name.toLowerCase();
  return name;
}

function skipSpace(html: string, i: number): number {
  while (i < html.length && isSpace(html.charCodeAt(i))) i++;
  return i;
}

/**
 * The start tag at `lt`: read whole (attributes, and a raw-text element's content up to its end tag) before anything
 * is told, so that -1 (left to the tokenizer) leaves nothing half told. Returns where the scan goes on.
 */
function startTag(html: string, lt: number, events: Events, textStart: number): number {
  const nameStop = nameEnd(html, lt + 1, false);
  if (nameStop === -1) return -1;
  const name = lowerName(html, lt + 1, nameStop);
  const attributes = events.attributes;
  let i = nameStop;
  let selfClosing = false;
  for (;;) {
    i = skipSpace(html, i);
    if (i >= html.length) return -1;
    const c = html.charCodeAt(i);
    if (c === GT) {
      i += 1;
      break;
    }
    if (c === SLASH) {
      const after = html.charCodeAt(i + 1);
      if (after === GT) {
        selfClosing = true;
        i += 2;
        break;
      }
      // `/ >`: self-closing to htmlparser2, not to the standard.
      if (isSpace(after)) return -1;
      i += 1;
      continue;
    }
    if (c === EQUALS) return -1;
    const attributeEnd = nameEnd(html, i, true);
    if (attributeEnd === -1) return -1;
    const attribute = lowerName(html, i, attributeEnd);
    let value = '';
    i = skipSpace(html, attributeEnd);
    if (html.charCodeAt(i) === EQUALS) {
      i = skipSpace(html, i + 1);
      const quote = html.charCodeAt(i);
      if (quote === DOUBLE || quote === SINGLE) {
        const close = html.indexOf(quote === DOUBLE ? '"' : "'", i + 1);
        if (close === -1) return -1;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else if (quote !== GT) {
        const start = i;
        for (; i < html.length; i++) {
          const v = html.charCodeAt(i);
          if (isSpace(v) || v === GT) break;
          if (v === DOUBLE || v === SINGLE || v === LT || v === EQUALS || v === BACKTICK) return -1;
        }
        value = html.slice(start, i);
      }
      if (value.includes('&')) value = decodeHTMLAttribute(value);
    }
    attributes.add(attribute, value);
  }
  const raw = RAW_TEXT.get(name);
  let contentEnd = i;
  if (raw !== undefined) {
    // htmlparser2 reads `<script/>` as closed, a browser as open: neither guess is taken here.
    if (selfClosing) return -1;
    contentEnd = rawTextEnd(html, i, name);
    if (contentEnd === -1) return -1;
  }
  if (lt > textStart) events.text(decodedText(html, textStart, lt));
  events.open(name, selfClosing);
  if (contentEnd > i) events.text(raw ? decodedText(html, i, contentEnd) : html.slice(i, contentEnd));
  return contentEnd;
}

/**
 * Where a raw-text element's content ends: at its end tag's `</` (any case, then a space or `>`); -1 when it has none,
 * or may end at `</name/` (the standard's end, not htmlparser2's).
 */
function rawTextEnd(html: string, from: number, name: string): number {
  for (let at = html.indexOf('</', from); at !== -1; at = html.indexOf('</', at + 2)) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() !== name) continue;
    const after = html.charCodeAt(at + 2 + name.length);
    if (isSpace(after) || after === GT) return at;
    if (after === SLASH) return -1;
  }
  return -1;
}

/** The end tag at `lt` (`</name>`); -1 for anything else there (`</>`, `</ x>`, attributes), left to the tokenizer. */
function endTag(html: string, lt: number, events: Events, textStart: number): number {
  if (!isLetter(html.charCodeAt(lt + 2))) return -1;
  const stop = nameEnd(html, lt + 2, false);
  if (stop === -1) return -1;
  const gt = skipSpace(html, stop);
  if (html.charCodeAt(gt) !== GT) return -1;
  if (lt > textStart) events.text(decodedText(html, textStart, lt));
  events.close(lowerName(html, lt + 2, stop));
  return gt + 1;
}

/** htmlparser2's tokenizer over `html`, telling `events` what the fast scan would (see scanHtml). */
function tokenize(html: string, events: Events): void {
  let name = '';
  let attribute = '';
  let value = '';
  const slice = (start: number, end: number) => html.slice(start, end);
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      ontext: (start, end) => events.text(slice(start, end)),
      ontextentity: (codepoint) => events.text(String.fromCodePoint(codepoint)),
      oncdata: (start, end, offset) => events.text(slice(start, end - offset)),
      onopentagname: (start, end) => {
        name = slice(start, end).toLowerCase();
      },
      onattribname: (start, end) => {
        attribute = slice(start, end).toLowerCase();
        value = '';
      },
      onattribdata: (start, end) => {
        value += slice(start, end);
      },
      onattribentity: (codepoint) => {
        value += String.fromCodePoint(codepoint);
      },
      onattribend: () => events.attributes.add(attribute, value),
      onopentagend: () => events.open(name, false),
      onselfclosingtag: () => events.open(name, true),
      onclosetag: (start, end) => events.close(slice(start, end).toLowerCase()),
      oncomment: () => {},
      ondeclaration: () => {},
      onprocessinginstruction: () => {},
      onend: () => {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}

/** The tokenizer's reading of the whole page, as scanHtml would tell it without its fast scan: what tests hold it to. */
export function scanHtmlByTokenizer(html: string, readers: readonly HtmlReader[]): void {
  const events = new Events(readers);
  tokenize(html, events);
  events.flush();
}
