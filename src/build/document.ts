// Wraps a rendered page in the document template: head tags from config, critical CSS, scripts, and a CSP that hashes the inline parts.
import { createHash } from 'node:crypto';
import type { SiteInfo } from '../config.ts';
import { RenderError } from '../errors.ts';
import { PAGE_INDEPENDENT_CSP } from '../http/policy.ts';
import type { PageHead } from '../routes.ts';
import { escapeAttribute } from './render.tsx';

export interface DocumentParts {
  template: string;
  templateFile: string;
  site: SiteInfo;
  base: string;
  /** Route path, "/contact". */
  path: string;
  head: PageHead;
  body: string;
  criticalCss: string;
  /** URL of the full stylesheet, loaded without blocking first paint. */
  stylesheet: string;
  /**
   * URL of the page's hydration entry, if it has islands. Nothing fetches it while the page loads: the inline
   * capture script imports it after the load event, or at the visitor's first input to an island, whichever is first.
   */
  script?: string;
  /** The runtime's inline script (src/runtime/capture.ts) that holds input to islands not live yet and starts the runtime. */
  captureScript?: string;
  /** URLs of the woff2 fonts the critical CSS uses: fetched with the HTML rather than once layout finds the text. */
  fontPreloads?: string[];
  /** Extra external scripts (the dev server's reload client). */
  extraScripts?: string[];
}

const HEAD = '<!--site-gen:head-->';
const BODY = '<!--site-gen:body-->';

export function checkTemplate(template: string, file: string): void {
  for (const marker of [HEAD, BODY]) {
    if (!template.includes(marker)) throw new RenderError(`${file}: the template has no ${marker} marker. Put it where the ${marker === HEAD ? '<head> tags' : 'page'} should go.`);
  }
}

/** The inline head script: applies the stored theme before first paint, and switches the full stylesheet on once loaded. */
export function headScript(site: SiteInfo): string {
  const key = JSON.stringify(site.themeStorageKey);
  const fallback = JSON.stringify(site.themeDefault);
  const colors = JSON.stringify(site.themeColor);
  return [
    '(function(){',
    `var d=document,r=d.documentElement,t=${fallback};`,
    `try{t=localStorage.getItem(${key})||t}catch(e){}`,
    `if(t!=="light"&&t!=="dark"&&t!=="system")t=${fallback};`,
    'if(t==="system")t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light";',
    'r.classList.remove("light","dark");r.classList.add(t);',
    `var m=d.querySelector('meta[name="theme-color"]');if(m)m.content=${colors}[t];`,
    'var l=d.getElementById("site-css");if(l){if(l.sheet)l.media="all";else l.addEventListener("load",function(){l.media="all"})}',
    '})();',
  ].join('');
}

export function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export function contentSecurityPolicy(inlineScripts: string[], inlineStyles: string[]): string {
  const scripts = ["'self'", ...inlineScripts.map(sha256)].join(' ');
  const styles = ["'self'", ...inlineStyles.map(sha256)].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scripts}`,
    `style-src ${styles}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    // The same directives as the header CSP: a host without the headers still gets them from the meta.
    ...PAGE_INDEPENDENT_CSP,
  ].join('; ');
}

export function absoluteUrl(site: SiteInfo, path: string): string {
  return new URL(path.replace(/^\//, ''), site.url).href;
}

function organizationJsonLd(site: SiteInfo): string {
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: site.name,
    url: site.url,
    email: `mailto:${site.email}`,
    ...(site.phone ? { telephone: site.phone } : {}),
    logo: absoluteUrl(site, site.favicon),
    address: {
      '@type': 'PostalAddress',
      streetAddress: site.address.street,
      addressLocality: site.address.city,
      addressRegion: site.address.region,
      postalCode: site.address.postalCode,
      addressCountry: site.address.country,
    },
    sameAs: site.socials.map((s) => s.href).filter((href) => /^https?:\/\//.test(href)),
  };
  // "<" escaped so no string in the data can close the script element.
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function renderDocument(parts: DocumentParts): string {
  const { site, head, base } = parts;
  const title = head.title === site.name ? site.name : `${head.title} | ${site.name}`;
  const description = head.description ?? site.description;
  const canonical = absoluteUrl(site, parts.path === '/' ? '/' : `${parts.path}`);
  const script = headScript(site);
  const capture = parts.script ? parts.captureScript : undefined;
  if (parts.script && !capture) throw new RenderError(`${parts.path} has islands but no capture script to start them; this is a bug in site-gen.`);
  const critical = parts.criticalCss;
  const a = escapeAttribute;
  const tags = [
    `<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(capture ? [script, capture] : [script], critical ? [critical] : []))}">`,
    `<title>${escapeText(title)}</title>`,
    `<meta name="description" content="${a(description)}">`,
    head.noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${a(canonical)}">`,
    `<meta name="theme-color" content="${a(site.themeColor[site.themeDefault === 'light' ? 'light' : 'dark'])}">`,
    '<meta name="color-scheme" content="dark light">',
    `<link rel="icon" href="${a(base + site.favicon.slice(1))}"${site.favicon.endsWith('.svg') ? ' type="image/svg+xml"' : ''}>`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${a(site.name)}">`,
    `<meta property="og:title" content="${a(title)}">`,
    `<meta property="og:description" content="${a(description)}">`,
    head.noindex ? '' : `<meta property="og:url" content="${a(canonical)}">`,
    site.ogImage ? `<meta property="og:image" content="${a(absoluteUrl(site, site.ogImage))}">` : '',
    `<meta name="twitter:card" content="${site.ogImage ? 'summary_large_image' : 'summary'}">`,
    critical ? `<style>${critical}</style>` : '',
    ...(parts.fontPreloads ?? []).map((href) => `<link rel="preload" href="${a(href)}" as="font" type="font/woff2" crossorigin>`),
    `<link rel="stylesheet" href="${a(parts.stylesheet)}" media="print" id="site-css">`,
    `<noscript><link rel="stylesheet" href="${a(parts.stylesheet)}"></noscript>`,
    `<script>${script}</script>`,
    capture ? `<script data-entry="${a(parts.script!)}">${capture}</script>` : '',
    ...(parts.extraScripts ?? []).map((src) => `<script type="module" src="${a(src)}"></script>`),
    `<script type="application/ld+json">${organizationJsonLd(site)}</script>`,
  ].filter(Boolean);
  const themeClass = site.themeDefault === 'light' ? 'light' : 'dark';
  return parts.template
    .replace('{{lang}}', a(site.lang))
    .replace('{{themeClass}}', themeClass)
    .replace('{{base}}', a(base))
    .replace(HEAD, () => tags.join('\n'))
    .replace(BODY, () => parts.body);
}

/**
 * The woff2 files to preload for a stylesheet's @font-face rules, in order, once each. A face with `font-display:
 * swap` paints at once in its fallback and swaps later: its font is fetched when layout asks for it, after the HTML,
 * and never holds the first paint back (the site gives such faces metric-matched fallbacks, so the swap moves
 * nothing). Any other face (`block`, `fallback`, `optional`, `auto`) wants its own font in the first paint: preloaded.
 */
export function fontUrls(css: string): string[] {
  const faces = [...css.matchAll(/@font-face\s*\{[^}]*\}/g)].map((face) => face[0]).filter((face) => !/font-display\s*:\s*swap\b/.test(face));
  const urls = faces.flatMap((face) => [...face.matchAll(/url\(\s*["']?([^"')]+\.woff2)["']?\s*\)/g)].map((m) => m[1]!));
  return [...new Set(urls)];
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
