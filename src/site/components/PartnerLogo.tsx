// One partner's wordmark, linked to the partner's site when the content gives one.
import type { Partner } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';

export interface PartnerLogoProps {
  partner: Partner;
  /** In the strip's duplicate (aria-hidden) the link must not take focus either. */
  hidden?: boolean;
}

export function PartnerLogo({ partner, hidden = false }: PartnerLogoProps) {
  const withBase = useWithBase();
  // Low priority, not lazy: lazy images clipped by the strip would only load as they slide into view, and pop in.
  // (fetchPriority low also keeps React from adding a preload link for each logo to the page.)
  const image = (
    <img
      src={withBase(partner.logo)}
      alt={partner.name}
      width={partner.width}
      height={partner.height}
      fetchPriority="low"
      decoding="async"
    />
  );
  if (!partner.href) return image;
  return (
    <a className="partner-link" href={partner.href} tabIndex={hidden ? -1 : undefined}>
      {image}
    </a>
  );
}
