// The call-to-action block (#cta). Compact mode keeps the badge, headline and 'Book Appointment' only.
import * as arrowRightIcon from 'lucide-react/icons/arrow-right';
import type { Copy } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { cx } from '../lib/cx.ts';
import { ButtonLink } from './ButtonLink.tsx';
import { SectionHeader } from './SectionHeader.tsx';
import { lucideIcon } from './lucideIcon.ts';

const ArrowRight = lucideIcon(arrowRightIcon);

export interface CtaProps {
  copy: Copy['cta'];
  /** Hides the paragraph and the 'Contact Us' button. */
  compact?: boolean;
}

export function Cta({ copy, compact = false }: CtaProps) {
  const withBase = useWithBase();
  return (
    <section id="cta" className={cx('section cta', compact && 'is-compact')} aria-labelledby="cta-title">
      <div className="container">
        <div className="cta-card">
          <SectionHeader id="cta-title" badge={copy.badge} title={copy.title} align="center" />
          {!compact && <p className="cta-text">{copy.text}</p>}
          <div className="actions is-center">
            {!compact && (
              <ButtonLink href={withBase(copy.contact.href)} size="lg" variant="outline">
                {copy.contact.label}
              </ButtonLink>
            )}
            <ButtonLink href={withBase(copy.book.href)} size="lg">
              {copy.book.label}
              <ArrowRight size={18} />
            </ButtonLink>
          </div>
        </div>
      </div>
    </section>
  );
}
