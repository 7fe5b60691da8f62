// Wraps a rendered page in the document template: head tags from config and the site's head hook, critical CSS, scripts, and a CSP that hashes the inline parts.
import { createHash } from 'node:crypto';
import type { SiteInfo } from '../core/config.ts';
import { RenderError, TemplateError } from '../core/errors.ts';
import type { HeadContent } from '../core/head.ts';
import { PAGE_INDEPENDENT_CSP } from '../core/http/policy.ts';
import type { PageHead } from '../core/routes.ts';
import { isSwapFace, woff2Urls } from './critical/usage.ts';
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
  /**
   * URLs of the swap fonts the first screen uses (fontsAfterPaint() of the critical code): fetched with the
   * stylesheet after the first paint, which is applied once they are in (STYLESHEET_LOADER).
   */
  fontsAfterPaint?: string[];
  /** Extra external scripts (the dev server's reload client). */
  extraScripts?: string[];
  /** What the site's head hook (src/site/head.ts) gave for this page. */
  siteHead?: HeadContent;
}

const HEAD = '<!--site-gen:head-->';
const BODY = '<!--site-gen:body-->';

export function checkTemplate(template: string, file: string): void {
  for (const marker of [HEAD, BODY]) {
    if (!template.includes(marker))
      throw new TemplateError(
        `${file}: the template has no ${marker} marker. Put it where the ${marker === HEAD ? '<head> tags' : 'page'} should go.`,
      );
  }
}

/**
 * Adds the full stylesheet (the script's data-href) once the page has painted its first content from the inline
 * critical CSS, so that neither the stylesheet nor the web fonts it declares (swap faces are left out of the critical
 * CSS) are fetched while the HTML is arriving and the first frame is laid out: on a slow link they would share its
 * bandwidth, and a font that arrives before the first paint makes the browser lay the text out twice. The critical
 * CSS styles the first screen from the top of the page (not what content-visibility: auto defers past its first
 * section), so the stylesheet changes nothing there when it applies.
 *
 * The stylesheet is preloaded at first contentful paint (at high priority: a print-only stylesheet would be fetched
 * at the lowest) and added only once the swap fonts the first screen uses (the script's data-fonts, preloaded at the
 * same moment) are in as well, so that the page is styled again and its text laid out in the new fonts once, in one
 * frame, rather than once when the stylesheet declares the faces and again when each font arrives: on a phone each
 * of those is a task long enough to hold up a tap. It is added print-only, and the @font-face rules it repeats from
 * the inline critical CSS are deleted from it before it applies: Chromium takes a repeated face for a new one and
 * looks every face and size up again. It is added at once if the visitor scrolls (the sections below the first
 * screen need it), and at the latest 1 s after it has loaded if the fonts are slower; they then swap in as usual. A
 * font that fails counts as in.
 *
 * A page opened elsewhere than its top (a #fragment, a reload or back/forward that restores the scroll position)
 * may show any part of it first: there the stylesheet is added at once with blocking="render", so the first frame
 * waits for it rather than painting a section unstyled. Browsers without paint timing get it after the load event
 * and a rendered frame. Without JavaScript, a <noscript> link loads it at once.
 */
export const STYLESHEET_LOADER = [
  '(function(){var d=document,s=d.currentScript,h=s&&s.dataset.href,f=s&&s.dataset.fonts,done=0,P=window.PerformanceObserver,',
  'n=performance.getEntriesByType&&performance.getEntriesByType("navigation")[0],',
  'deep=location.hash.length>1||!!n&&n.type!=="navigate"&&n.type!=="prerender";',
  'function add(){if(done||!h)return;done=1;var wait=1,on=0,l=d.createElement("link");l.rel="stylesheet";l.id="site-css";',
  // Adds the (preloaded) sheet as print-only, deletes the @font-face rules the inline <style> elements already
  // declare, then lets it apply.
  'function apply(){if(on)return;on=1;removeEventListener("scroll",apply);l.media="print";l.onload=l.onerror=function(){var seen={},r,j;try{',
  'd.querySelectorAll("style").forEach(function(t){for(r=t.sheet.cssRules,j=r.length;j--;)seen[r[j].cssText]=1});',
  'for(r=l.sheet.cssRules,j=r.length;j--;)if(r[j] instanceof CSSFontFaceRule&&seen[r[j].cssText])l.sheet.deleteRule(j)',
  '}catch(e){}l.removeAttribute("media")};l.href=h;d.head.appendChild(l)}',
  'function one(){if(!--wait)apply()}',
  'function pre(u,as,then){var p=d.createElement("link");p.rel="preload";p.as=as;if(as==="font")p.crossOrigin="";',
  'p.onload=p.onerror=then;p.href=u;d.head.appendChild(p)}',
  'if(deep){l.setAttribute("blocking","render");l.href=h;d.head.appendChild(l);return}',
  'pre(h,"style",function(){one();setTimeout(apply,1e3)});if(f)f.split(" ").forEach(function(u){wait++;pre(u,"font",one)});',
  'addEventListener("scroll",apply,{passive:true})}',
  'if(deep)add();',
  'else if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){',
  'new P(function(list,o){if(list.getEntriesByName("first-contentful-paint").length){o.disconnect();add()}}).observe({type:"paint",buffered:true})',
  '}else{var later=function(){requestAnimationFrame(function(){setTimeout(add)})};if(d.readyState==="complete")later();else addEventListener("load",later)}',
  '})();',
].join('');

export function sha256(text: string): string {
  let hash = sourceHashes.get(text);
  if (hash === undefined) {
    hash = `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
    if (sourceHashes.size >= 1000) sourceHashes.clear();
    sourceHashes.set(text, hash);
  }
  return hash;
}

/**
 * The hashes of the inline scripts and styles, by text: every page has the stylesheet loader, and pages of one shape
 * share their critical CSS, so the same few texts are hashed for thousands of pages.
 */
const sourceHashes = new Map<string, string>();

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

/** A site path of one or more segments with no dot segment and nothing a URL would encode ("/posts/a-b.html"). */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*)+\/?$/;
/** Each site URL's folder, what a relative path resolves against: parsed once, not once per page. */
const folders = new Map<string, string>();

/** `path` as an absolute URL under the site's URL, as `new URL` resolves it (a plain path without parsing again). */
export function absoluteUrl(site: SiteInfo, path: string): string {
  const relativePath = path.replace(/^\//, '');
  if (!PLAIN_PATH.test(path)) return new URL(relativePath, site.url).href;
  let folder = folders.get(site.url);
  if (folder === undefined) folders.set(site.url, (folder = new URL('.', site.url).href));
  return folder + relativePath;
}

/** JSON for a <script> element: "<" escaped so no string in the data can close the element. */
function scriptJson(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}

export function renderDocument(parts: DocumentParts): string {
  const { site, head, base } = parts;
  const title = head.title === site.name ? site.name : `${head.title} | ${site.name}`;
  const description = head.description ?? site.description;
  const canonical = absoluteUrl(site, parts.path === '/' ? '/' : `${parts.path}`);
  const siteHead = parts.siteHead ?? {};
  const capture = parts.script ? parts.captureScript : undefined;
  if (parts.script && !capture)
    throw new RenderError(`${parts.path} has islands but no capture script to start them; this is a bug in site-gen.`);
  const inlineScripts = [...(siteHead.scripts ?? []), STYLESHEET_LOADER];
  const critical = parts.criticalCss;
  const a = escapeAttribute;
  const tags = [
    `<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(capture ? [...inlineScripts, capture] : inlineScripts, critical ? [critical] : []))}">`,
    `<title>${escapeText(title)}</title>`,
    `<meta name="description" content="${a(description)}">`,
    head.noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${a(canonical)}">`,
    ...(siteHead.meta ?? []).map((meta) => `<meta name="${a(meta.name)}" content="${a(meta.content)}">`),
    `<link rel="icon" href="${a(base + site.favicon.slice(1))}"${site.favicon.endsWith('.svg') ? ' type="image/svg+xml"' : ''}>`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${a(site.name)}">`,
    `<meta property="og:title" content="${a(title)}">`,
    `<meta property="og:description" content="${a(description)}">`,
    head.noindex ? '' : `<meta property="og:url" content="${a(canonical)}">`,
    site.ogImage ? `<meta property="og:image" content="${a(absoluteUrl(site, site.ogImage))}">` : '',
    `<meta name="twitter:card" content="${site.ogImage ? 'summary_large_image' : 'summary'}">`,
    critical ? `<style>${critical}</style>` : '',
    ...(parts.fontPreloads ?? []).map(
      (href) => `<link rel="preload" href="${a(href)}" as="font" type="font/woff2" crossorigin>`,
    ),
    `<noscript><link rel="stylesheet" href="${a(parts.stylesheet)}"></noscript>`,
    ...(siteHead.scripts ?? []).map((script) => `<script>${script}</script>`),
    `<script data-href="${a(parts.stylesheet)}"${parts.fontsAfterPaint?.length ? ` data-fonts="${a(parts.fontsAfterPaint.join(' '))}"` : ''}>${STYLESHEET_LOADER}</script>`,
    capture ? `<script data-entry="${a(parts.script!)}">${capture}</script>` : '',
    ...(parts.extraScripts ?? []).map((src) => `<script type="module" src="${a(src)}"></script>`),
    ...(siteHead.jsonLd ?? []).map((data) => `<script type="application/ld+json">${scriptJson(data)}</script>`),
  ].filter(Boolean);
  return fillTemplate(parts.template, { lang: site.lang, base, head: tags.join('\n'), body: parts.body });
}

/** The one way the template's placeholders are filled: {{lang}}, {{base}}, and the head and body markers. */
export function fillTemplate(
  template: string,
  parts: { lang: string; base: string; head: string; body: string },
): string {
  return template
    .replace('{{lang}}', escapeAttribute(parts.lang))
    .replace('{{base}}', escapeAttribute(parts.base))
    .replace(HEAD, () => parts.head)
    .replace(BODY, () => parts.body);
}

/**
 * The woff2 files to preload for a stylesheet's @font-face rules, in order, once each. A face with `font-display:
 * swap` paints at once in its fallback and swaps later: its font is fetched when layout asks for it, after the HTML,
 * and never holds the first paint back (the site gives such faces metric-matched fallbacks, so the swap moves
 * nothing). Any other face (`block`, `fallback`, `optional`, `auto`) wants its own font in the first paint: preloaded.
 */
export function fontUrls(css: string): string[] {
  const faces = [...css.matchAll(/@font-face\s*\{[^}]*\}/g)].map((face) => face[0]).filter((face) => !isSwapFace(face));
  const urls = faces.flatMap(woff2Urls);
  return [...new Set(urls)];
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
