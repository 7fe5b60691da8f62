// Frequently Asked Questions (#faq): heading and intro beside the accordion.
import type { Copy, FaqEntry } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { FAQ_INTRO_DELAY_MS } from '../constants.ts';
import { ButtonLink } from './ButtonLink.tsx';
import { Faq } from './Faq.tsx';
import { SectionHeader } from './SectionHeader.tsx';

export function FaqSection({ items, copy }: { items: FaqEntry[]; copy: Copy['faq'] }) {
  const withBase = useWithBase();
  return (
    <section id="faq" className="section faq" aria-labelledby="faq-title">
      <div className="container faq-grid">
        <div className="faq-aside">
          <SectionHeader
            id="faq-title"
            badge={copy.badge}
            title={copy.title}
            intro={copy.intro}
            introRevealDelayMs={FAQ_INTRO_DELAY_MS}
          />
          <p className="faq-more">{copy.more}</p>
          <ButtonLink href={withBase(copy.moreLink.href)} variant="outline">
            {copy.moreLink.label}
          </ButtonLink>
        </div>
        <Faq items={items} />
      </div>
    </section>
  );
}
