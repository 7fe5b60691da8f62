// What this site adds to every page's <head> through site-gen's head hook: the theme, and the company as JSON-LD.
import type { HeadContext, HeadContent, SiteInfo } from 'site-gen-ssg';
import type { Company, Content, Theme } from '../../content/schema.ts';

export function head({ site, content }: HeadContext<Content>): HeadContent {
  const { theme, company } = content;
  return {
    meta: [
      { name: 'theme-color', content: theme.colors[theme.default === 'light' ? 'light' : 'dark'] },
      { name: 'color-scheme', content: 'dark light' },
    ],
    scripts: [themeScript(theme)],
    jsonLd: [organization(site, company)],
  };
}

/** Applies the stored theme before first paint, as src/site/lib/theme.ts applyTheme does once the page runs. */
export function themeScript(theme: Theme): string {
  const key = JSON.stringify(theme.storageKey);
  const fallback = JSON.stringify(theme.default);
  const colors = JSON.stringify(theme.colors);
  return [
    '(function(){',
    `var d=document,r=d.documentElement,t=${fallback};`,
    `try{t=localStorage.getItem(${key})||t}catch(e){}`,
    `if(t!=="light"&&t!=="dark"&&t!=="system")t=${fallback};`,
    'if(t==="system")t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";',
    'r.classList.remove("light","dark");r.classList.add(t);',
    `var m=d.querySelector('meta[name="theme-color"]');if(m)m.content=${colors}[t];`,
    '})();',
  ].join('');
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
