// Badge, heading and intro paragraph that open a section.
import type { Title } from '../../../content/schema.ts';
import { cx } from '../lib/cx.ts';
import { revealProps } from '../lib/reveal.ts';
import { Badge } from './Badge.tsx';
import { DisplayTitle } from './DisplayTitle.tsx';

export interface SectionHeaderProps {
  /** id of the heading, for the section's aria-labelledby. */
  id: string;
  badge?: string;
  title: Title;
  intro?: string;
  align?: 'start' | 'center';
  as?: 'h1' | 'h2';
  className?: string;
  /** Fades the intro in this many ms after it scrolls into view (lib/reveal.ts). */
  introRevealDelayMs?: number;
}

export function SectionHeader({
  id,
  badge,
  title,
  intro,
  align = 'start',
  as = 'h2',
  className,
  introRevealDelayMs,
}: SectionHeaderProps) {
  return (
    <div className={cx('section-header', align === 'center' && 'is-center', className)}>
      {badge && <Badge>{badge}</Badge>}
      <DisplayTitle as={as} id={id} title={title} />
      {intro && (
        <p className="section-intro" {...(introRevealDelayMs !== undefined && revealProps(introRevealDelayMs))}>
          {intro}
        </p>
      )}
    </div>
  );
}
