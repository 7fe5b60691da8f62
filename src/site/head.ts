// What this site adds to every page's <head> through site-gen's head hook: the theme and the menu (inline scripts that
// answer before any download), and the company as JSON-LD.
import type { HeadContext, HeadContent, SiteInfo } from 'site-gen-ssg';
import type { Company, Content } from '../../content/schema.ts';
import { MENU_BUTTON_ID, MENU_ID } from './components/SiteMenu.tsx';
import { menuScript } from './inline/menu.ts';
import { themeScript } from './inline/theme.ts';

export function head({ site, content }: HeadContext<Content>): HeadContent {
  const { theme, company } = content;
  return {
    meta: [
      { name: 'theme-color', content: theme.colors[theme.default === 'light' ? 'light' : 'dark'] },
      { name: 'color-scheme', content: 'dark light' },
    ],
    // One script, not two: each inline script adds its hash to the CSP, in the page and in its header, and the page
    // with its headers must fit the first round trip (14.6 KB; issue 23 measured Lighthouse's FCP past it).
    scripts: [themeScript(theme) + menuScript({ button: MENU_BUTTON_ID, dialog: MENU_ID })],
    jsonLd: [organization(site, company)],
  };
}

function organization(site: SiteInfo, company: Company) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.name,
    url: site.url,
    email: `mailto:${company.email}`,
    ...(company.phone ? { telephone: company.phone } : {}),
    logo: new URL(site.favicon.replace(/^\//, ''), site.url).href,
    address: {
      '@type': 'PostalAddress',
      streetAddress: company.address.street,
      addressLocality: company.address.city,
      addressRegion: company.address.region,
      postalCode: company.address.postalCode,
      addressCountry: company.address.country,
    },
    sameAs: company.socials.map((s) => s.href).filter((href) => /^https?:\/\//.test(href)),
  };
}
