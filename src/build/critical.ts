// Selects a page's critical CSS: the rules of the compiled stylesheet that match its server-rendered HTML, and what they use.
import { parseHTML } from 'linkedom';
import { parse, type AtRule, type ChildNode, type Container, type Declaration, type Root, type Rule } from 'postcss';
import { CssError } from '../errors.ts';

export interface CriticalCssOptions {
  /**
   * Class sets <html> is given in turn when matching, so that the rules of every theme a visitor may switch to
   * before the full stylesheet arrives are critical too. Default [['dark'], ['light']].
   */
  rootClassVariants?: string[][];
}

/**
 * The subset of `css` that the page `html` needs for its first paint, compacted.
 *
 * `html` is the whole document or only what goes inside its <body> (renderToString's output), which is then
 * matched as if inside `<html><body>`, so rules for `:root`, `html` and `body` apply.
 *
 * `css` is expected to be compileStylesheet()'s output (nesting lowered); nested rules, if any, are kept or dropped
 * with their parent. The compaction keeps every value as lightningcss printed it, so the fallbacks it generated for
 * older browsers survive (re-minifying without targets would merge them away). The parsed stylesheet is reused
 * while successive calls pass the same CSS, as a build does for each of its pages.
 */
export function criticalCss(css: string, html: string, options: CriticalCssOptions = {}): string {
  const sheet = prepare(css);
  const matcher = new PageMatcher(html, options.rootClassVariants ?? [['dark'], ['light']]);
  matcher.evaluate(sheet.queries);

  const selection: Selection = { selectors: new Map(), fontFaces: [], keyframes: [], properties: [], definitions: new Set() };
  select(sheet.root, sheet, matcher, selection);
  keepUsedDefinitions(selection);
  return serialize(sheet.root.nodes, selection);
}

/** A parsed stylesheet: its tree (never changed) and, for each style rule, its selectors as written and as matched. */
interface PreparedSheet {
  css: string;
  root: Root;
  rules: Map<Rule, { selectors: string[]; queries: string[] }>;
  queries: string[];
}

let lastSheet: PreparedSheet | undefined;

function prepare(css: string): PreparedSheet {
  if (lastSheet?.css === css) return lastSheet;
  let root: Root;
  try {
    root = parse(css);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CssError(
      `Could not parse the compiled stylesheet to select a page's critical CSS: ${reason}. ` +
        'The stylesheet comes from compileStylesheet(); check its output and report this as a site-gen bug.',
      { cause: error },
    );
  }
  const rules = new Map<Rule, { selectors: string[]; queries: string[] }>();
  root.walkRules((rule) => {
    // Rules nested in a style rule (or the frames of @keyframes) are decided with their parent.
    if (rule.parent?.type === 'rule' || isKeyframes(rule.parent)) return;
    const selectors = splitTopLevel(rule.selector, ',');
    rules.set(rule, { selectors, queries: selectors.map(stripDynamic) });
  });
  const queries = [...new Set([...rules.values()].flatMap((rule) => rule.queries))];
  lastSheet = { css, root, rules, queries };
  return lastSheet;
}

interface Selection {
  /** Style rules kept, each with the selectors of its list that match. */
  selectors: Map<Rule, string[]>;
  fontFaces: AtRule[];
  keyframes: AtRule[];
  properties: AtRule[];
  /** The @font-face, @keyframes and @property rules the kept rules use. */
  definitions: Set<AtRule>;
}

/** At-rules whose children are style rules matched on their own, the at-rule kept if any child is. */
const GROUPING_AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style', 'document']);

function select(container: Container, sheet: PreparedSheet, matcher: PageMatcher, selection: Selection): void {
  for (const node of container.nodes ?? []) {
    if (node.type === 'rule') {
      const rule = sheet.rules.get(node);
      if (!rule) continue;
      // Only the selectors of the list that match: the FAQ's half of a rule shared with the form stays out.
      const matching = rule.selectors.filter((_selector, index) => matcher.matches(rule.queries[index]!));
      if (matching.length > 0) selection.selectors.set(node, matching);
    } else if (node.type === 'atrule') {
      const name = unprefixed(node.name);
      if (GROUPING_AT_RULES.has(name) && node.nodes && !isPrintOnly(node)) select(node, sheet, matcher, selection);
      else if (name === 'font-face') selection.fontFaces.push(node);
      else if (name === 'keyframes') selection.keyframes.push(node);
      else if (name === 'property') selection.properties.push(node);
    }
  }
}

/** Decides which @font-face, @keyframes and @property rules the kept rules use. */
function keepUsedDefinitions(selection: Selection): void {
  const usage = new Usage();
  for (const rule of selection.selectors.keys()) rule.walkDecls((declaration) => usage.add(declaration));
  const values = usage.resolve();

  const usedFamilies = [...usage.fontValues, ...values].flatMap(fontItems);
  const fontIsUsed = (family: string) => usedFamilies.some((item) => item === family || item.endsWith(` ${family}`));
  for (const fontFace of selection.fontFaces) {
    let family = '';
    fontFace.walkDecls(/^font-family$/i, (declaration) => {
      family = normalizeFamily(declaration.value);
    });
    if (family && fontIsUsed(family)) selection.definitions.add(fontFace);
  }

  const animationNames = new Set([...usage.animationValues, ...values].flatMap(identifiers));
  const inKeptKeyframes = new Usage();
  for (const keyframes of selection.keyframes) {
    if (!animationNames.has(unquote(keyframes.params.trim()))) continue;
    selection.definitions.add(keyframes);
    keyframes.walkDecls((declaration) => inKeptKeyframes.add(declaration));
  }

  inKeptKeyframes.resolve();
  const usedProperties = new Set([...usage.referenced, ...usage.defined, ...inKeptKeyframes.referenced, ...inKeptKeyframes.defined]);
  for (const property of selection.properties) {
    if (usedProperties.has(property.params.trim())) selection.definitions.add(property);
  }
}

/** What kept declarations use: custom properties (defined and referenced), font families, animation names. */
class Usage {
  private readonly definitions = new Map<string, string[]>();
  private readonly roots = new Set<string>();
  readonly fontValues: string[] = [];
  readonly animationValues: string[] = [];
  /** Custom properties reached through var(), directly or through other custom properties. Filled by resolve(). */
  readonly referenced = new Set<string>();

  get defined(): string[] {
    return [...this.definitions.keys()];
  }

  add(declaration: Declaration): void {
    const property = declaration.prop;
    if (property.startsWith('--')) {
      const values = this.definitions.get(property) ?? [];
      values.push(declaration.value);
      this.definitions.set(property, values);
      return;
    }
    for (const name of varReferences(declaration.value)) this.roots.add(name);
    const bare = unprefixed(property);
    if (bare === 'font-family' || bare === 'font') this.fontValues.push(declaration.value);
    if (bare === 'animation' || bare === 'animation-name') this.animationValues.push(declaration.value);
  }

  /** Follows var() from the declarations through the custom properties they reference; returns those values. */
  resolve(): string[] {
    const queue = [...this.roots];
    const values: string[] = [];
    while (queue.length > 0) {
      const name = queue.shift()!;
      if (this.referenced.has(name)) continue;
      this.referenced.add(name);
      for (const value of this.definitions.get(name) ?? []) {
        values.push(value);
        queue.push(...varReferences(value));
      }
    }
    return values;
  }
}

function varReferences(value: string): string[] {
  return [...value.matchAll(/var\(\s*(--[^\s,)]+)/g)].map((match) => match[1]!);
}

/** The comma-separated items of a font value, unquoted and lower-cased: `700 1rem/1.2 "Anton", serif` -> ['700 1rem/1.2 anton', 'serif']. */
function fontItems(value: string): string[] {
  return value.split(/[,()]/).map(normalizeFamily).filter(Boolean);
}

function normalizeFamily(value: string): string {
  return value.replace(/["']/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function identifiers(value: string): string[] {
  return value.split(/[\s,()]+/).filter(Boolean).map(unquote);
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}

function unprefixed(name: string): string {
  return name.toLowerCase().replace(/^-[a-z]+-/, '');
}

function isKeyframes(node: Container | Root | undefined): boolean {
  return node?.type === 'atrule' && unprefixed((node as AtRule).name) === 'keyframes';
}

/** `@media print` never takes part in the first paint on screen. */
function isPrintOnly(node: AtRule): boolean {
  return unprefixed(node.name) === 'media' && /^(?:only\s+)?print$/i.test(node.params.trim());
}

/**
 * The selected CSS as compact text: no comments, no whitespace between tokens, values exactly as parsed.
 * A grouping at-rule that had rules and keeps none is left out; an empty one (`@layer a {}`) or a statement
 * (`@layer a, b;`, which orders the layers) is kept.
 */
function serialize(nodes: ChildNode[], selection: Selection, inBlock = false): string {
  let out = '';
  let endsWithDeclaration = false;
  for (const node of nodes) {
    let text = '';
    if (node.type === 'rule') {
      const selectors = inBlock ? [node.selector] : selection.selectors.get(node);
      if (selectors) text = `${selectors.join(',')}{${serialize(node.nodes, selection, true)}}`;
    } else if (node.type === 'decl' && inBlock) {
      text = `${node.prop}:${node.value}${node.important ? '!important' : ''};`;
    } else if (node.type === 'atrule') {
      text = serializeAtRule(node, selection, inBlock);
    }
    if (text) {
      out += text;
      endsWithDeclaration = node.type === 'decl';
    }
  }
  // No `;` after a block's last declaration.
  return endsWithDeclaration ? out.slice(0, -1) : out;
}

/** `inBlock`: inside a kept style rule or definition, where everything is kept as it is. */
function serializeAtRule(node: AtRule, selection: Selection, inBlock: boolean): string {
  const name = unprefixed(node.name);
  const prelude = `@${node.name}${node.params.trim() ? ` ${node.params.trim()}` : ''}`;
  if (!node.nodes) return `${prelude};`;
  if (inBlock) return `${prelude}{${serialize(node.nodes, selection, true)}}`;
  if (name === 'font-face' || name === 'keyframes' || name === 'property') {
    return selection.definitions.has(node) ? `${prelude}{${serialize(node.nodes, selection, true)}}` : '';
  }
  if (name === 'page' || isPrintOnly(node)) return '';
  if (GROUPING_AT_RULES.has(name)) {
    const body = serialize(node.nodes, selection);
    return body || node.nodes.length === 0 ? `${prelude}{${body}}` : '';
  }
  // @counter-style, @font-feature-values, @view-transition...: small, kept as they are
  return `${prelude}{${serialize(node.nodes, selection, true)}}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Matching selectors against the page

/** Pseudo-classes that depend on what the visitor does or on state that changes after load: removed before matching. */
const DYNAMIC_PSEUDO_CLASSES = new Set([
  'hover', 'focus', 'focus-visible', 'focus-within', 'focus-ring', 'active', 'visited', 'target', 'target-within',
  'checked', 'indeterminate', 'disabled', 'enabled', 'placeholder-shown', 'autofill', 'invalid', 'valid',
  'user-invalid', 'user-valid', 'in-range', 'out-of-range', 'open', 'closed', 'popover-open', 'modal', 'fullscreen',
  'picture-in-picture', 'playing', 'paused', 'seeking', 'buffering', 'stalled', 'muted', 'volume-locked', 'current',
  'past', 'future', 'state', 'scope', 'hover-within', 'drop', 'local-link',
]);
/** Pseudo-elements that CSS2 wrote with one colon. */
const LEGACY_PSEUDO_ELEMENTS = new Set(['before', 'after', 'first-line', 'first-letter']);
/** Functional pseudo-classes whose argument is a selector list that is stripped in turn. */
const SELECTOR_LIST_PSEUDO_CLASSES = new Set(['is', 'where', 'has', 'matches', '-webkit-any', '-moz-any']);

/** Answers "does this selector match an element of the page?" for the page's HTML in each root-class state. */
class PageMatcher {
  private readonly document: Document;
  private readonly html: Element | null;
  /** Elements by class, id and name: where to look for a match first. */
  private readonly byClass = new Map<string, Element[]>();
  private readonly byId = new Map<string, Element[]>();
  private readonly byTag = new Map<string, Element[]>();
  private readonly all: Element[] = [];
  private readonly classesOf = new Map<Element, Set<string>>();
  private readonly variants: string[][];
  private readonly variantClasses: string[];
  private readonly results = new Map<string, boolean>();

  constructor(html: string, variants: string[][]) {
    const whole = /^\s*(?:<!--[\s\S]*?-->\s*)*(?:<!doctype[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<html[\s>]/i.test(html);
    this.document = parseHTML(whole ? html : `<!doctype html><html><head></head><body>${html}</body></html>`).document as unknown as Document;
    const element = this.document.documentElement;
    this.html = element && element.localName === 'html' ? element : null;
    this.variants = this.html ? variants : [];
    this.variantClasses = [...new Set(this.variants.flat())];
    for (const element of this.document.querySelectorAll('*')) {
      this.all.push(element);
      add(this.byTag, element.localName.toLowerCase(), element);
      const id = element.getAttribute('id');
      if (id) add(this.byId, id, element);
      const classes = new Set((element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean));
      this.classesOf.set(element, classes);
      for (const name of classes) add(this.byClass, name, element);
    }
    // <html> carries each variant class in turn while matching.
    for (const name of this.variantClasses) {
      const elements = this.byClass.get(name) ?? [];
      if (this.html && !elements.includes(this.html)) elements.unshift(this.html);
      this.byClass.set(name, elements);
    }
  }

  /**
   * Matches every query (a selector passed through stripDynamic) once, batching those that depend on <html>'s
   * classes per class state.
   */
  evaluate(queries: string[]): void {
    const pending: string[] = [];
    for (const query of queries) {
      if (this.results.has(query)) continue;
      if (!this.mayMatch(query)) {
        this.results.set(query, false);
      } else if (this.dependsOnRootClasses(query)) {
        this.results.set(query, false);
        pending.push(query);
      } else {
        this.results.set(query, this.query(query));
      }
    }
    if (pending.length === 0 || !this.html) return;

    const original = this.html.getAttribute('class');
    const others = (original ?? '').split(/\s+/).filter((name) => name && !this.variantClasses.includes(name));
    const states = [original ?? '', ...this.variants.map((set) => [...others, ...set].join(' '))];
    try {
      for (const state of [...new Set(states)]) {
        this.html.setAttribute('class', state);
        for (const query of pending) if (!this.results.get(query) && this.query(query)) this.results.set(query, true);
      }
    } finally {
      if (original === null) this.html.removeAttribute('class');
      else this.html.setAttribute('class', original);
    }
  }

  matches(query: string): boolean {
    if (!this.results.has(query)) this.evaluate([query]);
    return this.results.get(query)!;
  }

  /** linkedom cannot evaluate every selector; one it cannot is kept, since it might match. */
  private query(query: string): boolean {
    try {
      const compounds = compoundsOf(query);
      const last = compounds?.[compounds.length - 1];
      if (compounds && last && compounds.every((compound) => compound.simple)) {
        return (this.elementsWith(last) ?? this.all).some((element) => this.matchesFrom(element, compounds, compounds.length - 1));
      }
      // element.matches() compiles the selector on each call: worth it for a few candidates, not for many.
      const candidates = last && this.elementsWith(last);
      if (candidates && candidates.length <= MAX_CANDIDATES) return candidates.some((element) => element.matches(query));
      // Otherwise search only inside the elements an earlier compound requires: `.faq__item p` within each .faq__item.
      const scopes = compounds && this.scopes(compounds);
      if (scopes && scopes.length <= MAX_CANDIDATES) return scopes.some((scope) => scope.querySelector(query) !== null);
      return this.document.querySelector(query) !== null;
    } catch {
      return true;
    }
  }

  /**
   * Right-to-left matching of a selector made only of names, classes, ids and combinators: the bulk of a
   * stylesheet, answered without compiling each selector with css-select (which dominated the time per page).
   */
  private matchesFrom(element: Element, compounds: Compound[], index: number): boolean {
    if (!this.matchesCompound(element, compounds[index]!)) return false;
    if (index === 0) return true;
    switch (compounds[index - 1]!.next) {
      case '>': {
        const parent = element.parentElement;
        return parent !== null && this.matchesFrom(parent, compounds, index - 1);
      }
      case '+': {
        const sibling = element.previousElementSibling;
        return sibling !== null && this.matchesFrom(sibling, compounds, index - 1);
      }
      case '~':
        for (let sibling = element.previousElementSibling; sibling; sibling = sibling.previousElementSibling) {
          if (this.matchesFrom(sibling, compounds, index - 1)) return true;
        }
        return false;
      default:
        for (let ancestor = element.parentElement; ancestor; ancestor = ancestor.parentElement) {
          if (this.matchesFrom(ancestor, compounds, index - 1)) return true;
        }
        return false;
    }
  }

  private matchesCompound(element: Element, compound: Compound): boolean {
    if (compound.tags.length > 0 && compound.tags.some((tag) => tag !== element.localName.toLowerCase())) return false;
    if (compound.ids.length > 0 && compound.ids.some((id) => id !== element.getAttribute('id'))) return false;
    if (compound.classes.length === 0) return true;
    // <html>'s classes change with each variant state, so they are read as they are now.
    const classes =
      element === this.html ? new Set((element.getAttribute('class') ?? '').split(/\s+/)) : this.classesOf.get(element);
    return compound.classes.every((name) => classes?.has(name) ?? false);
  }

  /** The only elements that can match a compound: those with its id, its rarest class, or its name. */
  private elementsWith(compound: Compound): Element[] | undefined {
    if (compound.ids.length > 0) return this.byId.get(compound.ids[0]!) ?? [];
    let smallest: Element[] | undefined;
    for (const name of compound.classes) {
      const elements = this.byClass.get(name) ?? [];
      if (!smallest || elements.length < smallest.length) smallest = elements;
    }
    if (smallest) return smallest;
    if (compound.tags.length > 0) return this.byTag.get(compound.tags[0]!) ?? [];
    return undefined;
  }

  /**
   * Subtrees that hold every match: those of the elements an earlier compound requires (their parents', when a
   * `+` or `~` follows, since the match may then sit beside them). The fewest such elements win.
   */
  private scopes(compounds: Compound[]): Element[] | undefined {
    let best: Element[] | undefined;
    let siblingAfter = false;
    for (let index = compounds.length - 2; index >= 0; index -= 1) {
      const compound = compounds[index]!;
      if (compound.next === '+' || compound.next === '~') siblingAfter = true;
      const elements = this.elementsWith(compound);
      if (!elements || (best && best.length <= elements.length)) continue;
      best = siblingAfter ? [...new Set(elements.map((element) => element.parentElement ?? element))] : elements;
    }
    return best;
  }

  /** A quick no: a class, id or element the selector requires outside any :not()/:is() is nowhere on the page. */
  private mayMatch(query: string): boolean {
    const compounds = compoundsOf(query);
    if (!compounds) return true;
    return compounds.every(
      (compound) =>
        compound.classes.every((name) => this.byClass.has(name)) &&
        compound.ids.every((name) => this.byId.has(name)) &&
        compound.tags.every((name) => this.byTag.has(name)),
    );
  }

  private dependsOnRootClasses(query: string): boolean {
    if (this.variants.length === 0) return false;
    const lower = query.toLowerCase();
    return lower.includes('[class') || this.variantClasses.some((name) => query.includes(`.${name}`));
  }
}

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
interface Compound {
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
function compoundsOf(selector: string): Compound[] | undefined {
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
/** Above this many candidate elements, one querySelector() is cheaper than matches() on each. */
const MAX_CANDIDATES = 12;

/** Whitespace, `>`, `+`, `~` or `,`: the end of a compound. */
function isCombinatorOrSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13 || code === 62 || code === 43 || code === 126 || code === 44;
}

/** The end (exclusive) of a CSS identifier starting at `start`, escapes included. */
function readIdentifier(text: string, start: number): number {
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 92) index = escapeEnd(text, index);
    else if (
      (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) ||
      code === 45 || code === 95 || code >= 0x80
    ) index += 1;
    else break;
  }
  return Math.min(index, text.length);
}

/** The end of the escape at `start` (a backslash): up to six hex digits and one whitespace, or one character. */
function escapeEnd(text: string, start: number): number {
  const hex = /^[0-9a-fA-F]{1,6}\s?/.exec(text.slice(start + 1, start + 8));
  return Math.min(text.length, start + 1 + (hex ? hex[0].length : 1));
}

function unescapeIdentifier(identifier: string): string {
  return identifier.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([\s\S]))/g, (_match, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : (char ?? ''),
  );
}

/** The index just past the bracket that closes the one at `open`, skipping strings and escapes. */
function findClose(text: string, open: number): number {
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
function skipString(text: string, start: number): number {
  const quote = text[start];
  let index = start + 1;
  while (index < text.length && text[index] !== quote) index += text[index] === '\\' ? 2 : 1;
  return index;
}

/** Splits on `separator` where it is outside parentheses, brackets and strings: the selectors of a list. */
function splitTopLevel(text: string, separator: string): string[] {
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

function add(index: Map<string, Element[]>, key: string, element: Element): void {
  const elements = index.get(key);
  if (elements) elements.push(element);
  else index.set(key, [element]);
}
