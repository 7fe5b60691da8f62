// The FAQ accordion: every item independent, all closed unless `openIds` says otherwise.
import type { FaqEntry } from '../../../content/schema.ts';
import { FaqItem } from './FaqItem.tsx';

export interface FaqProps {
  items: FaqEntry[];
  /** Ids of the open items. */
  openIds?: string[];
  onToggle?: (id: string) => void;
}

export function Faq({ items, openIds = [], onToggle }: FaqProps) {
  return (
    <div className="accordion">
      {items.map((item) => (
        <FaqItem key={item.id} item={item} open={openIds.includes(item.id)} onToggle={onToggle} />
      ))}
    </div>
  );
}
