// Prints the selected rules as compact CSS, every value as lightningcss printed it.
import type { AtRule, ChildNode } from 'postcss';
import { GROUPING_AT_RULES, isPrintOnly, unprefixed, type Selection } from './select.ts';

/**
 * The selected CSS as compact text: no comments, no whitespace between tokens, values exactly as parsed.
 * A grouping at-rule that had rules and keeps none is left out; an empty one (`@layer a {}`) or a statement
 * (`@layer a, b;`, which orders the layers) is kept.
 */
export function serialize(nodes: ChildNode[], selection: Selection, inBlock = false): string {
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
