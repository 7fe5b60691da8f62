// The FAQ accordion: every item independent (several may be open at once), all closed at first. Server markup only:
// the platform's <details> opens and closes each answer; the arrow keys come from lib/accordion-keys.ts.
import type { FaqEntry } from '../../../content/schema.ts';
import { FaqItem } from './FaqItem.tsx';

export interface FaqProps {
  items: FaqEntry[];
}

export function Faq({ items }: FaqProps) {
  return (
    <div className="accordion">
      {items.map((item) => (
        <FaqItem key={item.id} item={item} />
      ))}
    </div>
  );
}
