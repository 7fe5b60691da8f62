// One question of the FAQ accordion: a <details> whose <summary> holds the question, so the platform opens and closes
// the answer at the first tap, before any script and without JavaScript (issue 23).
import * as plusIcon from 'lucide-react/icons/plus';
import type { FaqEntry } from '../../../content/schema.ts';
import { lucideIcon } from './lucideIcon.ts';

const Plus = lucideIcon(plusIcon);

export interface FaqItemProps {
  item: FaqEntry;
}

/**
 * The question is a heading inside the summary, so it stays in the page's outline where assistive technology keeps
 * a summary's content. A disabled entry is no <details> (a summary cannot be disabled): its question is a disabled
 * button in a heading, collapsed, with no answer to open.
 */
export function FaqItem({ item }: FaqItemProps) {
  const trigger = `${item.id}-trigger`;
  if (item.disabled) {
    return (
      <div className="accordion-item" data-disabled="true">
        <h3 className="accordion-heading">
          <button type="button" className="accordion-trigger" id={trigger} aria-expanded={false} disabled>
            <span className="accordion-question">{item.question}</span>
            <Plus size={20} className="accordion-icon" />
          </button>
        </h3>
      </div>
    );
  }
  return (
    <details className="accordion-item">
      <summary className="accordion-trigger" id={trigger}>
        <h3 className="accordion-question">{item.question}</h3>
        <Plus size={20} className="accordion-icon" />
      </summary>
      <div className="accordion-panel" id={`${item.id}-panel`} role="region" aria-labelledby={trigger}>
        <p>{item.answer}</p>
      </div>
    </details>
  );
}
