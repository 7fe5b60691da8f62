// One question of the FAQ accordion: a real disclosure button in a heading, and its answer panel.
import Plus from 'lucide-react/icons/plus';
import type { FaqEntry } from '../../../content/schema.ts';

export interface FaqItemProps {
  item: FaqEntry;
  open: boolean;
  onToggle?: (id: string) => void;
}

/**
 * A closed answer is hidden by CSS only while scripts can run (`@media (scripting: enabled)` in styles/faq.css):
 * without JavaScript every answer stays readable.
 */
export function FaqItem({ item, open, onToggle }: FaqItemProps) {
  const state = open ? 'open' : 'closed';
  return (
    <div className="accordion-item" data-state={state} data-disabled={item.disabled || undefined}>
      <h3 className="accordion-heading">
        <button
          type="button"
          className="accordion-trigger"
          id={`${item.id}-trigger`}
          aria-expanded={open}
          aria-controls={`${item.id}-panel`}
          disabled={item.disabled}
          onClick={onToggle ? () => onToggle(item.id) : undefined}
        >
          <span className="accordion-question">{item.question}</span>
          <Plus size={20} className="accordion-icon" />
        </button>
      </h3>
      <div
        className="accordion-panel"
        id={`${item.id}-panel`}
        role="region"
        aria-labelledby={`${item.id}-trigger`}
        data-state={state}
      >
        <p>{item.answer}</p>
      </div>
    </div>
  );
}
