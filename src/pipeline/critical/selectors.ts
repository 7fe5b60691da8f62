// Reads selector text: the selectors of a list, the compounds of a selector and what each requires, dynamic states removed.
/** Pseudo-classes that depend on what the visitor does or on state that changes after load: removed before matching. */
const DYNAMIC_PSEUDO_CLASSES = new Set([
  'hover',
  'focus',
  'focus-visible',
  'focus-within',
  'focus-ring',
  'active',
  'visited',
  'target',
  'target-within',
  'checked',
  'indeterminate',
  'disabled',
  'enabled',
  'placeholder-shown',
  'autofill',
  'invalid',
  'valid',
  'user-invalid',
  'user-valid',
  'in-range',
  'out-of-range',
  'open',
  'closed',
  'popover-open',
  'modal',
  'fullscreen',
  'picture-in-picture',
  'playing',
  'paused',
  'seeking',
  'buffering',
  'stalled',
  'muted',
  'volume-locked',
  'current',
  'past',
  'future',
  'state',
  'scope',
  'hover-within',
  'drop',
  'local-link',
]);
/** Pseudo-elements that CSS2 wrote with one colon. */
const LEGACY_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-line', 'first-letter']);
/** Functional pseudo-classes whose argument is a selector list that is stripped in turn. */
const SELECTOR_LIST_PSEUDO_CLASSES = new Set(['is', 'where', 'has', 'matches', '-webkit-any', '-moz-any']);

/**
 * The selector as it must be matched against server-rendered HTML: pseudo-elements and dynamic pseudo-classes
 * removed (a compound left empty becomes `*`), `:not()` around a dynamic state dropped, `:matches()` spelled `:is()`.
 */
export function stripDynamic(selector: string): string {
  let out = '';
  let compoundEmpty = true;
  let index = 0;
  const keepCompound = () => {
    if (compoundEmpty) out += '*';
    compoundEmpty = false;
  };
  while (index < selector.length) {
    const char = selector[index]!;
    if (char === ':') {
      const pseudoElement = selector[index + 1] === ':';
      const nameStart = index + (pseudoElement ? 2 : 1);
      const nameEnd = readIdentifier(selector, nameStart);
      const name = selector.slice(nameStart, nameEnd).toLowerCase();
      let end = nameEnd;
      let argument: string | undefined;
      if (selector[end] === '(') {
        end = findClose(selector, end);
        argument = selector.slice(nameEnd + 1, end - 1);
      }
      index = end;
      if (pseudoElement || LEGACY_PSEUDO_ELEMENTS.has(name) || isDynamicPseudoClass(name)) {
        keepCompound();
      } else if (argument !== undefined && SELECTOR_LIST_PSEUDO_CLASSES.has(name)) {
        const inner = splitTopLevel(argument, ',').map((part) => stripDynamic(part.trim()));
        out += `:${name === 'where' || name === 'has' ? name : 'is'}(${inner.join(',')})`;
        compoundEmpty = false;
      } else if (argument !== undefined && name === 'not') {
        const parts = splitTopLevel(argument, ',').map((part) => part.trim());
        // :not(:hover) holds in some state; dropping the whole :not() keeps the match a superset.
        if (parts.some((part) => stripDynamic(part) !== part)) keepCompound();
        else {
          out += selector.slice(nameStart - 1, end);
          compoundEmpty = false;
        }
      } else {
        out += selector.slice(nameStart - 1, end);
        compoundEmpty = false;
      }
    } else if (char === '[') {
      const end = findClose(selector, index);
      out += selector.slice(index, end);
      index = end;
      compoundEmpty = false;
    } else if (char === '\\') {
      const end = escapeEnd(selector, index);
      out += selector.slice(index, end);
      index = end;
      compoundEmpty = false;
    } else if (/[\s>+~,]/.test(char)) {
      out += char;
      index += 1;
      compoundEmpty = true;
    } else {
      out += char;
      index += 1;
      compoundEmpty = false;
    }
  }
  return out.trim();
}

function isDynamicPseudoClass(name: string): boolean {
  if (DYNAMIC_PSEUDO_CLASSES.has(name)) return true;
  // Vendor-prefixed pseudo-classes (:-webkit-autofill, :-moz-focusring, :-moz-ui-invalid) are all states.
  return name.startsWith('-') && !SELECTOR_LIST_PSEUDO_CLASSES.has(name);
}

/** What a compound selector requires of its element, and the combinator to the next compound. */
export interface Compound {
  classes: string[];
  ids: string[];
  tags: string[];
  /** Only names, classes, ids or `*`: matched without css-select. */
  simple: boolean;
  next?: ' ' | '>' | '+' | '~';
}

const compoundCache = new Map<string, Compound[] | undefined>();

/**
 * The compounds of a selector with the classes, ids and element names each requires, read outside parentheses
 * and brackets (so `:not(.x)` and `:is(.a, .b)` require nothing). Undefined for a selector this cannot read.
 */
export function compoundsOf(selector: string): Compound[] | undefined {
  if (compoundCache.has(selector)) return compoundCache.get(selector);
  const compounds: Compound[] = [];
  let current: Compound = { classes: [], ids: [], tags: [], simple: true };
  let atCompoundStart = true;
  let readable = true;
  let index = 0;
  while (index < selector.length && readable) {
    const code = selector.charCodeAt(index);
    if (code === DOT || code === HASH) {
      const end = readIdentifier(selector, index + 1);
      (code === DOT ? current.classes : current.ids).push(unescapeIdentifier(selector.slice(index + 1, end)));
      index = end;
      atCompoundStart = false;
    } else if (code === COLON) {
      let end = readIdentifier(selector, index + (selector.charCodeAt(index + 1) === COLON ? 2 : 1));
      if (selector[end] === '(') end = findClose(selector, end);
      index = end;
      atCompoundStart = false;
      current.simple = false;
    } else if (code === OPEN_BRACKET) {
      index = findClose(selector, index);
      atCompoundStart = false;
      current.simple = false;
    } else if (isCombinatorOrSpace(code)) {
      if (!atCompoundStart) {
        current.next = ' ';
        compounds.push(current);
        current = { classes: [], ids: [], tags: [], simple: true };
      }
      const previous = compounds[compounds.length - 1];
      if (previous && code !== 32 && code !== 9 && code !== 10 && code !== 12 && code !== 13) {
        previous.next = selector[index] as Compound['next'];
      }
      index += 1;
      atCompoundStart = true;
    } else if (atCompoundStart && code !== STAR && code !== PIPE && code !== AMPERSAND) {
      const end = readIdentifier(selector, index);
      if (end === index) readable = false;
      else if (selector[end] === '|') {
        index = end + 1; // a namespace prefix; the name after it is read next
        current.simple = false;
      } else {
        current.tags.push(unescapeIdentifier(selector.slice(index, end)).toLowerCase());
        index = end;
        atCompoundStart = false;
      }
    } else {
      if (code !== STAR) current.simple = false; // `|`, `&` or anything unexpected
      index += 1;
      atCompoundStart = false;
    }
  }
  if (!atCompoundStart) compounds.push(current);
  const result = readable && compounds.length > 0 ? compounds : undefined;
  if (compoundCache.size > 50_000) compoundCache.clear(); // a long watch session edits many selectors
  compoundCache.set(selector, result);
  return result;
}

const DOT = 46;
const HASH = 35;
const COLON = 58;
const OPEN_BRACKET = 91;
const STAR = 42;
const PIPE = 124;
const AMPERSAND = 38;

/** Whitespace, `>`, `+`, `~` or `,`: the end of a compound. */
function isCombinatorOrSpace(code: number): boolean {
  return (
    code === 32 ||
    code === 9 ||
    code === 10 ||
    code === 12 ||
    code === 13 ||
    code === 62 ||
    code === 43 ||
    code === 126 ||
    code === 44
  );
}

/** The end (exclusive) of a CSS identifier starting at `start`, escapes included. */
export function readIdentifier(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 92) index = escapeEnd(text, index);
    else if (
      (code >= 97 && code <= 122) ||
      (code >= 65 && code <= 90) ||
      (code >= 48 && code <= 57) ||
      code === 45 ||
      code === 95 ||
      code >= 0x80
    )
      index += 1;
    else break;
  }
  return Math.min(index, text.length);
}

/** The end of the escape at `start` (a backslash): up to six hex digits and one whitespace, or one character. */
export function escapeEnd(text: string, start: number): number {
  const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(text.slice(start + 1, start + 8));
  return Math.min(text.length, start + 1 + (hex ? hex[0].length : 1));
}

export function unescapeIdentifier(identifier: string): string {
  return identifier.replace(
    /\\(?:([0-9a-fA-F]{1,6})\s?|([\s\S]))/g,
    (_match, hex: string | undefined, char: string | undefined) =>
      hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (char ?? ''),
  );
}

/** The index just past the bracket that closes the one at `open`, skipping strings and escapes. */
export function findClose(text: string, open: number): number {
  const closing: Record<string, string> = { '(': ')', '[': ']' };
  const stack = [closing[text[open]!]!];
  let index = open + 1;
  while (index < text.length && stack.length > 0) {
    const char = text[index]!;
    if (char === '\\') index += 1;
    else if (char === '"' || char === "'") index = skipString(text, index);
    else if (char === '(' || char === '[') stack.push(closing[char]!);
    else if (char === stack[stack.length - 1]) stack.pop();
    index += 1;
  }
  return Math.min(index, text.length);
}

/** The index of the closing quote of the string opening at `start`. */
export function skipString(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length && text[index] !== quote) index += text[index] === '\\' ? 2 : 1;
  return index;
}

/** Splits on `separator` where it is outside parentheses, brackets and strings: the selectors of a list. */
export function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '\\') index += 1;
    else if (char === '"' || char === "'") index = skipString(text, index);
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts.filter(Boolean);
}
