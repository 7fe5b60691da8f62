// Answers "does this selector match an element of the page?" on the page parsed with htmlparser2, in each theme's root
// classes, with css-select's queries: what linkedom's querySelectorAll() did (one package of 123 modules, loaded before
// the dev server's first page and read with DOM methods that call these two), without linkedom.
import { compile, is } from 'css-select';
import { type Document, DomHandler, type Element, isTag, type ParentNode } from 'domhandler';
import { Parser } from 'htmlparser2';
import { compoundsOf, type Compound } from './selectors.ts';

export type { Element } from 'domhandler';

/** The elements inside `root` in document order, not `root` itself, nor the contents of a <template> (inert HTML). */
function elementsIn(root: ParentNode): Element[] {
  const found: Element[] = [];
  const walk = (parent: ParentNode) => {
    for (const child of parent.children) {
      if (!isTag(child)) continue;
      found.push(child);
      if (child.name !== 'template') walk(child);
    }
  };
  walk(root);
  return found;
}

/** `query` compiled to test elements inside `root` (its `:scope`); a selector css-select cannot read throws. */
function tester(query: string, root: ParentNode): (element: Element) => boolean {
  return compile(query, { context: query.includes(':scope') ? root : undefined });
}

const parentElement = (element: Element): Element | null =>
  element.parent && isTag(element.parent) ? element.parent : null;

function previousElementSibling(element: Element): Element | null {
  for (let sibling = element.prev; sibling; sibling = sibling.prev) if (isTag(sibling)) return sibling;
  return null;
}

/** `html` parsed as a browser reads a page: tag and attribute names in lower case, entities decoded. */
function parsePage(html: string): Document {
  const handler = new DomHandler();
  new Parser(handler).end(html);
  return handler.root;
}

/** Answers "does this selector match an element of the page?" for the page's HTML in each root-class state. */
export class PageMatcher {
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
  /** Elements inside a subtree the browser skips at first paint: a match there does not count. */
  private readonly skipped = new Set<Element>();

  constructor(html: string, variants: string[][]) {
    const whole = /^\s*(?:<!--[\s\S]*?-->\s*)*(?:<!doctype[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<html[\s>]/i.test(html);
    this.document = parsePage(whole ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
    const element = this.document.children.find(isTag);
    this.html = element && element.name === 'html' ? element : null;
    this.variants = this.html ? variants : [];
    this.variantClasses = [...new Set(this.variants.flat())];
    for (const element of elementsIn(this.document)) {
      this.all.push(element);
      add(this.byTag, element.name, element);
      const id = element.attribs.id;
      if (id) add(this.byId, id, element);
      const classes = new Set((element.attribs.class ?? '').split(/\s+/).filter(Boolean));
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
    for (const state of this.rootClassStates()) {
      this.withRootClass(state, () => {
        for (const query of pending) if (!this.results.get(query) && this.query(query)) this.results.set(query, true);
      });
    }
  }

  /** <html>'s class as written, then with each variant's classes in place of the variant classes it has. */
  private rootClassStates(): string[] {
    if (!this.html) return [];
    const original = this.html.attribs.class ?? '';
    const others = original.split(/\s+/).filter((name) => name && !this.variantClasses.includes(name));
    return [...new Set([original, ...this.variants.map((set) => [...others, ...set].join(' '))])];
  }

  private withRootClass(state: string | undefined, run: () => void): void {
    if (state === undefined || !this.html) return run();
    const { attribs } = this.html;
    const original = attribs.class;
    try {
      attribs.class = state;
      run();
    } finally {
      if (original === undefined) delete attribs.class;
      else attribs.class = original;
    }
  }

  /** The elements `query` matches in each state; throws if css-select cannot read it. */
  private *inStates(query: string, states: (string | undefined)[]): Generator<Set<Element>> {
    // Compiled once: the test reads each element's classes as they are when it runs, in whichever state.
    const test = tester(query, this.document);
    for (const state of states) {
      let elements = new Set<Element>();
      this.withRootClass(state, () => {
        elements = new Set(this.all.filter((element) => test(element)));
      });
      yield elements;
    }
  }

  /**
   * From now on, a selector matches only if it matches an element outside the subtrees of `roots` (the roots
   * themselves count): what the browser skips at first paint needs no critical CSS. Answers given so far are dropped.
   */
  skipInside(roots: Iterable<Element>): void {
    for (const root of roots) for (const element of elementsIn(root)) this.skipped.add(element);
    this.results.clear();
  }

  inDocumentOrder(elements: Iterable<Element>): Element[] {
    const wanted = new Set(elements);
    return this.all.filter((element) => wanted.has(element));
  }

  /** The elements a static selector matches in every root-class state (in the page as it is, if it reads none). */
  elementsInEveryState(query: string): Element[] {
    const states = this.dependsOnRootClasses(query) ? this.rootClassStates() : [undefined];
    let found: Element[] | undefined;
    try {
      for (const elements of this.inStates(query, states))
        found = found ? found.filter((element) => elements.has(element)) : [...elements];
    } catch {
      return [];
    }
    return found ?? [];
  }

  /** The elements a selector (states removed) matches in any root-class state; every element if it cannot be read. */
  elementsInAnyState(query: string): Element[] {
    const states = this.dependsOnRootClasses(query) ? this.rootClassStates() : [undefined];
    const found = new Set<Element>();
    try {
      for (const elements of this.inStates(query, states)) for (const element of elements) found.add(element);
    } catch {
      return this.all;
    }
    return [...found];
  }

  matches(query: string): boolean {
    if (!this.results.has(query)) this.evaluate([query]);
    return this.results.get(query)!;
  }

  /** css-select cannot evaluate every selector; one it cannot is kept, since it might match. */
  private query(query: string): boolean {
    try {
      const compounds = compoundsOf(query);
      const last = compounds?.[compounds.length - 1];
      if (compounds && last && compounds.every((compound) => compound.simple)) {
        return (this.elementsWith(last) ?? this.all).some(
          (element) => !this.skipped.has(element) && this.matchesFrom(element, compounds, compounds.length - 1),
        );
      }
      // is() compiles the selector on each call: worth it for a few candidates, not for many.
      const candidates = last && this.elementsWith(last);
      if (candidates && candidates.length <= MAX_CANDIDATES) {
        return candidates.some((element) => !this.skipped.has(element) && is(element, query));
      }
      // Otherwise search only inside the elements an earlier compound requires: `.faq__item p` within each .faq__item.
      const scopes = compounds && this.scopes(compounds);
      if (scopes && scopes.length <= MAX_CANDIDATES) return scopes.some((scope) => this.anyShownIn(scope, query));
      return this.anyShownIn(this.document, query);
    } catch {
      return true;
    }
  }

  /** Whether `query` matches an element of `scope` outside the skipped subtrees. */
  private anyShownIn(scope: ParentNode, query: string): boolean {
    const test = tester(query, scope);
    // The page's elements are listed once, in document order (see elementsIn).
    const elements = scope === this.document ? this.all : elementsIn(scope);
    return elements.some((element) => !this.skipped.has(element) && test(element));
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
        const parent = parentElement(element);
        return parent !== null && this.matchesFrom(parent, compounds, index - 1);
      }
      case '+': {
        const sibling = previousElementSibling(element);
        return sibling !== null && this.matchesFrom(sibling, compounds, index - 1);
      }
      case '~':
        for (let sibling = previousElementSibling(element); sibling; sibling = previousElementSibling(sibling)) {
          if (this.matchesFrom(sibling, compounds, index - 1)) return true;
        }
        return false;
      default:
        for (let ancestor = parentElement(element); ancestor; ancestor = parentElement(ancestor)) {
          if (this.matchesFrom(ancestor, compounds, index - 1)) return true;
        }
        return false;
    }
  }

  private matchesCompound(element: Element, compound: Compound): boolean {
    if (compound.tags.length > 0 && compound.tags.some((tag) => tag !== element.name)) return false;
    if (compound.ids.length > 0 && compound.ids.some((id) => id !== element.attribs.id)) return false;
    if (compound.classes.length === 0) return true;
    // <html>'s classes change with each variant state, so they are read as they are now.
    const classes =
      element === this.html ? new Set((element.attribs.class ?? '').split(/\s+/)) : this.classesOf.get(element);
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
      best = siblingAfter ? [...new Set(elements.map((element) => parentElement(element) ?? element))] : elements;
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

/** Above this many candidate elements, one query of the page is cheaper than is() on each. */
const MAX_CANDIDATES = 12;

function add(index: Map<string, Element[]>, key: string, element: Element): void {
  const elements = index.get(key);
  if (elements) elements.push(element);
  else index.set(key, [element]);
}
