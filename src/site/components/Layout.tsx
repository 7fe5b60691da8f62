// The frame of every page: skip link, header, <main>, footer and (unless compact) the scroll-to-top button.
import type { ReactNode } from 'react';
import type { SiteInfo } from 'site-gen-ssg';
import type { Content } from '../../../content/schema.ts';
import Toasts from '../islands/toasts.tsx';
import { fill } from '../lib/text.ts';
import Enhance from '../behaviours/enhance.ts';
import Tooltips from '../behaviours/tooltips.ts';
import { Footer } from './Footer.tsx';
import { Header } from './Header.tsx';
import { ScrollToTop } from './ScrollToTop.tsx';
import { SkipLink } from './SkipLink.tsx';

export interface LayoutProps {
  site: SiteInfo;
  content: Pick<Content, 'navigation' | 'copy' | 'company' | 'theme'>;
  /** The route path, e.g. "/contact". */
  path: string;
  /** A short page: no scroll-to-top button. */
  compact?: boolean;
  children: ReactNode;
}

export function Layout({ site, content, path, compact = false, children }: LayoutProps) {
  const { navigation, copy, company, theme } = content;
  const homeLabel = fill(copy.ui.homeLink, { company: site.name });
  return (
    <>
      <SkipLink label={copy.ui.skipLink} />
      <Header
        company={site.name}
        homeLabel={homeLabel}
        items={navigation.menu}
        cta={navigation.menuCta}
        path={path}
        menuLabels={{ open: copy.ui.menuOpen, close: copy.ui.menuClose, nav: copy.ui.mainNav }}
        theme={{ fallback: theme.default, labels: copy.ui.theme }}
      />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer
        name={site.name}
        company={company}
        copy={copy.footer}
        quickLinks={navigation.quickLinks}
        legal={navigation.legal}
        labels={{
          home: homeLabel,
          legalNav: copy.ui.legalNav,
          socialNav: copy.ui.socialNav,
          socialHint: copy.ui.socialHint,
        }}
        buildYear={new Date().getFullYear()}
      >
        {!compact && <ScrollToTop label={copy.ui.scrollToTop} />}
      </Footer>
      <Enhance />
      <Tooltips />
      <Toasts alertsLabel={copy.toasts.alertsLabel} dismissLabel={copy.toasts.dismiss} />
    </>
  );
}
