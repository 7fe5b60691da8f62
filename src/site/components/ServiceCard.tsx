// One service: icon, title (a shorter one under 768 px when given), five bullets and a link on.
import * as arrowRightIcon from 'lucide-react/icons/arrow-right';
import type { ButtonCopy, Service } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { cx } from '../lib/cx.ts';
import { ServiceIcon } from './ServiceIcon.tsx';
import { lucideIcon } from './lucideIcon.ts';

const ArrowRight = lucideIcon(arrowRightIcon);

export function ServiceCard({ service, link }: { service: Service; link: ButtonCopy }) {
  const withBase = useWithBase();
  const titleId = `${service.id}-title`;
  // data-glow: lib/glow.ts moves the red glow (styles/services.css) with the pointer.
  return (
    <article className="card service-card" aria-labelledby={titleId} data-glow>
      <span className="card-icon">
        <ServiceIcon name={service.icon} />
      </span>
      <h3 id={titleId} className={cx('service-title', service.mobileTitle && 'has-short')}>
        <span className="title-full">{service.title}</span>
        {service.mobileTitle && <span className="title-short">{service.mobileTitle}</span>}
      </h3>
      <ul className="bullets">
        {service.bullets.map((bullet) => (
          <li key={bullet}>{bullet}</li>
        ))}
      </ul>
      {/* Six links share the label, so each is described by its card's title. */}
      <a className="card-link" href={withBase(link.href)} aria-describedby={titleId}>
        {link.label}
        <ArrowRight size={16} />
      </a>
    </article>
  );
}
