// The site footer: brand and socials, Quick Links (from 640 px), the Contact column (#contact), newsletter, copyright and legal links.
import * as mailIcon from 'lucide-react/icons/mail';
import * as mapPinIcon from 'lucide-react/icons/map-pin';
import type { ReactNode } from 'react';
import { useWithBase } from 'site-gen-ssg';
import type { Company, Copy, Navigation } from '../../../content/schema.ts';
import CopyrightYear from '../behaviours/copyright-year.ts';
import { fill } from '../lib/text.ts';
import Newsletter from '../islands/newsletter.tsx';
import { Logo } from './Logo.tsx';
import { SocialLinks } from './SocialLinks.tsx';
import { lucideIcon } from './lucideIcon.ts';

const Mail = lucideIcon(mailIcon);
const MapPin = lucideIcon(mapPinIcon);

export interface FooterProps {
  /** The company's name (site.config.ts site.name). */
  name: string;
  company: Company;
  copy: Copy['footer'];
  quickLinks: Navigation['quickLinks'];
  legal: Navigation['legal'];
  labels: Pick<Copy['ui'], 'legalNav' | 'socialNav' | 'socialHint'> & { home: string };
  /** The year the page is built in; the browser shows the current one. */
  buildYear: number;
  /** Placed last in the footer landmark: the fixed scroll-to-top button, so no content is outside a landmark. */
  children?: ReactNode;
}

export function Footer({ name, company, copy, quickLinks, legal, labels, buildYear, children }: FooterProps) {
  const withBase = useWithBase();
  const { address } = company;
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Logo name={name} href={withBase('/')} label={labels.home} />
          <p className="footer-tagline">{copy.tagline}</p>
          <SocialLinks items={company.socials} label={labels.socialNav} hint={labels.socialHint} />
        </div>
        <nav className="footer-links" aria-labelledby="footer-links-title">
          <h2 className="footer-title" id="footer-links-title">
            {copy.quickLinks}
          </h2>
          <ul className="footer-list">
            {quickLinks.map((link) => (
              <li key={link.id}>
                <a href={withBase(link.href)}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="footer-contact" id="contact">
          <h2 className="footer-title">{copy.contact}</h2>
          <ul className="footer-list">
            <li className="contact-line">
              <Mail size={18} />
              <span className="sr-only">{copy.emailLabel}</span>
              <a href={`mailto:${company.email}`}>{company.email}</a>
            </li>
            <li className="contact-line">
              <MapPin size={18} />
              <span className="sr-only">{copy.addressLabel}</span>
              <address>
                {address.street}
                <br />
                {address.city}, {address.region} {address.postalCode}
              </address>
            </li>
          </ul>
        </div>
        <div className="footer-newsletter">
          <h2 className="footer-title" id="newsletter-title">
            {copy.newsletter.title}
          </h2>
          <p className="footer-text">{copy.newsletter.text}</p>
          <Newsletter copy={copy.newsletter} labelledBy="newsletter-title" />
        </div>
      </div>
      <div className="container footer-bottom">
        <CopyrightYear template={copy.copyright} company={name}>
          <p className="copyright">{fill(copy.copyright, { year: buildYear, company: name })}</p>
        </CopyrightYear>
        <nav aria-label={labels.legalNav}>
          <ul className="legal-links">
            {legal.map((link) => (
              <li key={link.id}>
                <a href={withBase(link.href)}>{link.label}</a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {children}
    </footer>
  );
}
