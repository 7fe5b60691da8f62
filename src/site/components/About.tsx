// Who we are (#about): what the company does for artists, its four pillars, and two ways on.
import type { Copy } from '../../../content/schema.ts';
import { useWithBase } from 'site-gen-ssg';
import { ButtonLink } from './ButtonLink.tsx';
import { SectionHeader } from './SectionHeader.tsx';

export function About({ copy }: { copy: Copy['about'] }) {
  const withBase = useWithBase();
  return (
    <section id="about" className="section about" aria-labelledby="about-title">
      <div className="container about-grid">
        <div>
          <SectionHeader id="about-title" badge={copy.badge} title={copy.title} />
          <p className="lead">{copy.text}</p>
          <div className="actions">
            <ButtonLink href={withBase(copy.primary.href)}>{copy.primary.label}</ButtonLink>
            {/* Desktop only (styles/sections.css): on a phone the header menu and the footer are a thumb away. */}
            <ButtonLink href={withBase(copy.secondary.href)} variant="outline" className="about-secondary">
              {copy.secondary.label}
            </ButtonLink>
          </div>
        </div>
        <ul className="pillars">
          {copy.pillars.map((pillar) => (
            <li key={pillar.id}>
              <h3>{pillar.title}</h3>
              <p>{pillar.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
