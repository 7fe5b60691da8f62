// Which style rules of the stylesheet a page keeps: those with a selector that matches it, inside screen at-rules.
import type { AtRule, Container, Root, Rule } from 'postcss';
import type { PageMatcher } from './match.ts';

/** A parsed stylesheet: its tree (never changed) and, for each style rule, its selectors as written and as matched. */
export interface PreparedSheet {
  css: string;
  root: Root;
  rules: Map<Rule, { selectors: string[]; queries: string[] }>;
  queries: string[];
}

export interface Selection {
  /** Style rules kept, each with the selectors of its list that match. */
  selectors: Map<Rule, string[]>;
  fontFaces: AtRule[];
  keyframes: AtRule[];
  properties: AtRule[];
  /** The @font-face, @keyframes and @property rules the kept rules use. */
  definitions: Set<AtRule>;
}

/** At-rules whose children are style rules matched on their own, the at-rule kept if any child is. */
export const GROUPING_AT_RULES = new Set([
  'media',
  'supports',
  'layer',
  'container',
  'scope',
  'starting-style',
  'document',
]);

export function select(container: Container, sheet: PreparedSheet, matcher: PageMatcher, selection: Selection): void {
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

export function unprefixed(name: string): string {
  return name.toLowerCase().replace(/^-[a-z]+-/, '');
}

export function isKeyframes(node: Container | Root | undefined): boolean {
  return node?.type === 'atrule' && unprefixed((node as AtRule).name) === 'keyframes';
}

/** `@media print` never takes part in the first paint on screen. */
export function isPrintOnly(node: AtRule): boolean {
  return unprefixed(node.name) === 'media' && /^(?:only\s+)?print$/i.test(node.params.trim());
}
