// Which subtrees the browser skips at first paint: the contents of elements the stylesheet gives `content-visibility: auto`.
import type { AtRule, Declaration, Rule } from 'postcss';
import type { Element, PageMatcher } from './match.ts';
import { isPrintOnly, unprefixed, type PreparedSheet } from './select.ts';

/** At-rules whose children apply whatever the viewport: a `content-visibility: auto` inside them always holds. */
const UNCONDITIONAL_AT_RULES = new Set(['layer']);

/**
 * The elements whose contents the first paint skips: every deferred root but the first in document order. The first
 * is left rendered with its CSS because it may begin inside the first screen (a short hero, a tall window), where
 * the browser renders it in the first frame, before the full stylesheet has arrived; the ones after it begin at
 * least its height further down, where the stylesheet, added at first contentful paint, is in time for a scroll.
 */
export function skippedAtFirstPaint(sheet: PreparedSheet, matcher: PageMatcher): Element[] {
  return matcher.inDocumentOrder(deferredRoots(sheet, matcher)).slice(1);
}

/**
 * The elements whose contents the browser neither styles, lays out nor paints until they come near the viewport:
 * those a rule gives `content-visibility: auto` for certain. Certain means the rule's selector is static (no state,
 * no theme class on <html>) and outside any @media, @supports or @container, and no rule the element may match,
 * in any state, sets another `content-visibility`. Their own box is rendered (its size holds the place), so only
 * their descendants are skipped. Every doubt keeps an element out: its subtree's rules then stay critical.
 */
export function deferredRoots(sheet: PreparedSheet, matcher: PageMatcher): Element[] {
  const auto = new Set<Element>();
  const overridden = new Set<Element>();
  for (const { rule, value, conditional } of contentVisibilityRules(sheet)) {
    const queries = sheet.rules.get(rule)?.queries ?? [];
    const selectors = sheet.rules.get(rule)?.selectors ?? [];
    if (value === 'auto' && !conditional) {
      queries.forEach((query, index) => {
        if (query !== selectors[index]) return; // `.x:hover { content-visibility: auto }` holds only in a state
        for (const element of matcher.elementsInEveryState(query)) auto.add(element);
      });
    } else if (value !== 'auto') {
      for (const query of queries) for (const element of matcher.elementsInAnyState(query)) overridden.add(element);
    }
  }
  return [...auto].filter(
    (element) => !overridden.has(element) && !/content-visibility/i.test(element.attribs.style ?? ''),
  );
}

interface ContentVisibilityRule {
  rule: Rule;
  /** The declared value, lower-cased, `!important` aside. */
  value: string;
  /** Inside an at-rule that may not apply (@media, @supports, @container, @scope, @starting-style...). */
  conditional: boolean;
}

/** Every style rule of the sheet that declares `content-visibility` itself (not in a nested rule). */
function contentVisibilityRules(sheet: PreparedSheet): ContentVisibilityRule[] {
  const found: ContentVisibilityRule[] = [];
  for (const rule of sheet.rules.keys()) {
    for (const node of rule.nodes) {
      if (node.type !== 'decl' || unprefixed((node as Declaration).prop) !== 'content-visibility') continue;
      const conditional = hasConditionalAncestor(rule);
      if (conditional === 'print') continue;
      found.push({ rule, value: (node as Declaration).value.trim().toLowerCase(), conditional });
    }
  }
  return found;
}

function hasConditionalAncestor(rule: Rule): boolean | 'print' {
  let conditional = false;
  for (let parent = rule.parent; parent?.type === 'atrule'; parent = parent.parent) {
    const atRule = parent as AtRule;
    if (isPrintOnly(atRule)) return 'print';
    if (!UNCONDITIONAL_AT_RULES.has(unprefixed(atRule.name))) conditional = true;
  }
  return conditional;
}
