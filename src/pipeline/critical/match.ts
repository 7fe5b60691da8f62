// Answers "does this selector match an element of the page?" on the page parsed with linkedom, in each theme's root classes.
import { parseHTML } from 'linkedom';
import { compoundsOf, type Compound } from './selectors.ts';

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
    this.document = parseHTML(whole ? html : `<!doctype html><html><head></head><body>${html}</body></html>`)
      .document as unknown as Document;
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
    for (const state of this.rootClassStates()) {
      this.withRootClass(state, () => {
        for (const query of pending) if (!this.results.get(query) && this.query(query)) this.results.set(query, true);
      });
    }
  }

  /** <html>'s class as written, then with each variant's classes in place of the variant classes it has. */
  private rootClassStates(): string[] {
    if (!this.html) return [];
    const original = this.html.getAttribute('class') ?? '';
    const others = original.split(/\s+/).filter((name) => name && !this.variantClasses.includes(name));
    return [...new Set([original, ...this.variants.map((set) => [...others, ...set].join(' '))])];
  }

  private withRootClass(state: string | undefined, run: () => void): void {
    if (state === undefined || !this.html) return run();
    const original = this.html.getAttribute('class');
    try {
      this.html.setAttribute('class', state);
      run();
    } finally {
      if (original === null) this.html.removeAttribute('class');
      else this.html.setAttribute('class', original);
    }
  }

  /** The elements `query` matches in each state; throws if linkedom cannot read it. */
  private *inStates(query: string, states: (string | undefined)[]): Generator<Set<Element>> {
    for (const state of states) {
      let elements = new Set<Element>();
      this.withRootClass(state, () => {
        elements = new Set(this.document.querySelectorAll(query));
      });
      yield elements;
    }
  }

  /**
   * From now on, a selector matches only if it matches an element outside the subtrees of `roots` (the roots
   * themselves count): what the browser skips at first paint needs no critical CSS. Answers given so far are dropped.
   */
  skipInside(roots: Iterable<Element>): void {
    for (const root of roots) for (const element of root.querySelectorAll('*')) this.skipped.add(element);
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

  /** linkedom cannot evaluate every selector; one it cannot is kept, since it might match. */
  private query(query: string): boolean {
    try {
      const compounds = compoundsOf(query);
      const last = compounds?.[compounds.length - 1];
      if (compounds && last && compounds.every((compound) => compound.simple)) {
        return (this.elementsWith(last) ?? this.all).some(
          (element) => !this.skipped.has(element) && this.matchesFrom(element, compounds, compounds.length - 1),
        );
      }
      // element.matches() compiles the selector on each call: worth it for a few candidates, not for many.
      const candidates = last && this.elementsWith(last);
      if (candidates && candidates.length <= MAX_CANDIDATES) {
        return candidates.some((element) => !this.skipped.has(element) && element.matches(query));
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
  private anyShownIn(scope: Document | Element, query: string): boolean {
    if (this.skipped.size === 0) return scope.querySelector(query) !== null;
    for (const element of scope.querySelectorAll(query)) if (!this.skipped.has(element)) return true;
    return false;
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

/** Above this many candidate elements, one querySelector() is cheaper than matches() on each. */
const MAX_CANDIDATES = 12;

function add(index: Map<string, Element[]>, key: string, element: Element): void {
  const elements = index.get(key);
  if (elements) elements.push(element);
  else index.set(key, [element]);
}
