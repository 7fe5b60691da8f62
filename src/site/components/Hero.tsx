// The first screen of the home page (#home): tagline, introduction and the two calls to action.
import * as arrowRightIcon from 'lucide-react/icons/arrow-right';
import type { Copy } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { Badge } from './Badge.tsx';
import { ButtonLink } from './ButtonLink.tsx';
import { DisplayTitle } from './DisplayTitle.tsx';
import { lucideIcon } from './lucideIcon.ts';

const ArrowRight = lucideIcon(arrowRightIcon);

export function Hero({ copy }: { copy: Copy['hero'] }) {
  const withBase = useWithBase();
  return (
    <section id="home" className="hero" aria-labelledby="home-title">
      <div className="container hero-inner">
        {copy.badge && <Badge>{copy.badge}</Badge>}
        <DisplayTitle as="h1" id="home-title" className="hero-title" title={copy.title} />
        <p className="hero-text">{copy.text}</p>
        <div className="actions hero-actions">
          <ButtonLink href={withBase(copy.primary.href)} size="lg">
            {copy.primary.label}
            <ArrowRight size={18} />
          </ButtonLink>
          <ButtonLink href={withBase(copy.secondary.href)} size="lg" variant="outline">
            {copy.secondary.label}
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
