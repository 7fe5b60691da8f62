// Our Network (#partners): the industry names the company works with, as a looping logo strip.
import type { Copy, Partner } from '../../../content/schema.ts';
import { LogoStrip } from './LogoStrip.tsx';
import { SectionHeader } from './SectionHeader.tsx';

export function Partners({ items, copy }: { items: Partner[]; copy: Copy['partners'] }) {
  return (
    <section id="partners" className="section partners" aria-labelledby="partners-title">
      <div className="container">
        <SectionHeader id="partners-title" badge={copy.badge} title={copy.title} intro={copy.intro} align="center" />
      </div>
      <LogoStrip items={items} label={copy.listLabel} pauseLabel={copy.pause} />
    </section>
  );
}
