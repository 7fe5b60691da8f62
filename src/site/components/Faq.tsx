// The FAQ accordion: every item independent, all closed unless `openIds` says otherwise; arrow keys move between questions.
import type { KeyboardEvent } from 'react';
import type { FaqEntry } from '../../../content/schema.ts';
import { nextIndex } from '../lib/roving.ts';
import { FaqItem } from './FaqItem.tsx';

export interface FaqProps {
  items: FaqEntry[];
  /** Ids of the open items. */
  openIds?: string[];
  onToggle?: (id: string) => void;
}

/** ArrowDown / ArrowUp move focus to the next / previous question (wrapping), Home / End to the first / last; disabled ones are skipped. */
function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  const triggers = [
    ...event.currentTarget.querySelectorAll<HTMLButtonElement>(
      ':scope > .accordion-item .accordion-trigger:not(:disabled)',
    ),
  ];
  const current = triggers.indexOf(event.target as HTMLButtonElement);
  if (current === -1 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const next = nextIndex(event.key, current, triggers.length);
  if (next === null) return;
  event.preventDefault();
  triggers[next]!.focus();
}

export function Faq({ items, openIds = [], onToggle }: FaqProps) {
  return (
    <div className="accordion" onKeyDown={moveFocus}>
      {items.map((item) => (
        <FaqItem key={item.id} item={item} open={openIds.includes(item.id)} onToggle={onToggle} />
      ))}
    </div>
  );
}
