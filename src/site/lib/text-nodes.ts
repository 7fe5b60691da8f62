// Fills "{name}" placeholders of a content text with React nodes (e.g. a link for "{email}"): fill() for markup.
import { Fragment, createElement, type ReactNode } from 'react';
import { PLACEHOLDER } from './text.ts';

/** Like fill(), but a value may be a React node; returns the pieces to render in order. */
export function fillNodes(template: string, values: Record<string, ReactNode>): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!;
    if (!(name in values)) continue;
    if (match.index > last) parts.push(template.slice(last, match.index));
    parts.push(createElement(Fragment, { key: `${name}-${match.index}` }, values[name]));
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  return parts;
}
