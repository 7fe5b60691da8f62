// What we do (#services): the six service cards, 1 / 2 / 3 columns, and a call to action below.
import type { Copy, Service } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { SERVICE_CARD_DELAY_BASE_MS, SERVICE_CARD_DELAY_STEP_MS } from '../constants.ts';
import { revealProps } from '../lib/reveal.ts';
import { ButtonLink } from './ButtonLink.tsx';
import { SectionHeader } from './SectionHeader.tsx';
import { ServiceCard } from './ServiceCard.tsx';

export function Services({ items, copy }: { items: Service[]; copy: Copy['services'] }) {
  const withBase = useWithBase();
  return (
    <section id="services" className="section services" aria-labelledby="services-title">
      <div className="container">
        <SectionHeader id="services-title" badge={copy.badge} title={copy.title} intro={copy.intro} align="center" />
        <ul className="services-grid">
          {items.map((service, index) => (
            // The index only staggers the entrance: each card 100 ms after the one before.
            <li key={service.id} {...revealProps(SERVICE_CARD_DELAY_BASE_MS + SERVICE_CARD_DELAY_STEP_MS * index)}>
              <ServiceCard service={service} link={copy.cardLink} />
            </li>
          ))}
        </ul>
        <div className="actions is-center">
          <ButtonLink href={withBase(copy.more.href)} size="lg">
            {copy.more.label}
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
