// The FAQ accordion, interactive: each question opens and closes its answer on its own.
import { useState } from 'react';
import type { FaqEntry } from '../../../content/schema.ts';
import { island } from 'site-gen-ssg';
import { Faq } from '../components/Faq.tsx';

export interface FaqAccordionProps {
  items: FaqEntry[];
}

function FaqAccordion({ items }: FaqAccordionProps) {
  const [openIds, setOpenIds] = useState<string[]>([]);
  const toggle = (id: string) =>
    setOpenIds((ids) => (ids.includes(id) ? ids.filter((open) => open !== id) : [...ids, id]));
  return <Faq items={items} openIds={openIds} onToggle={toggle} />;
}

// visible: the FAQ sits far down the home page; its code loads as it nears the viewport (200 px ahead), never before first paint.
export default island('faq', FaqAccordion, { hydrate: 'visible' });
