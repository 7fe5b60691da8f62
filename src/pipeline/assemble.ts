// The assemble stage: each page's document, and every output file before compression (public/, assets, pages, sitemap).
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import type { SiteConfig, SiteInfo } from '../core/config.ts';
import { SiteGenError } from '../core/errors.ts';
import type { HeadHook } from '../core/head.ts';
import { HASHED_FILES_PATH, serializeHashedFiles } from '../core/http/hashed-files.ts';
import { HEADERS_FILE, serializeHeadersFile } from '../core/http/headers-file.ts';
import { SITEMAP_FILE, sitemapPart } from '../core/http/paths.ts';
import { securityHeaders } from '../core/http/policy.ts';
import type { Route } from '../core/routes.ts';
import type { ClientBundle, PageScripts } from './bundle.ts';
import type { CompiledStylesheet } from './css.ts';
import { absoluteUrl, fontUrls, renderDocument } from './document.ts';
import { siteHead } from './head.ts';
import type { ProjectPaths } from '../core/paths.ts';
import type { RenderedPage } from './render.tsx';
import type { OutputFiles } from './write.ts';

/** The full stylesheet's output path, named by its content. */
export function stylesheetFile(css: string): string {
  return `assets/site-${createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
}

export interface PageInput {
  config: SiteConfig;
  base: string;
  route: Route;
  page: RenderedPage;
  template: string;
  paths: ProjectPaths;
  /** The page's scripts, if it has islands. */
  scripts: PageScripts | undefined;
  /** The inline script that holds a visitor's input on islands not live yet (the bundle's captureScript). */
  captureScript: string;
  /** The page's critical CSS (criticalCss of the full stylesheet and the page's HTML). */
  critical: string;
  /** The swap fonts its first screen uses (fontsAfterPaint of the full stylesheet and the critical CSS). */
  fontsAfterPaint: string[];
  cssFile: string;
  /** The site's head hook (src/site/head.ts) and the content it is given. */
  head: { hook?: HeadHook; content: unknown };
  extraScripts?: string[];
}

export function pageDocument(input: PageInput): string {
  const { route, scripts } = input;
  const headContext = {
    site: input.config.site,
    content: input.head.content,
    path: route.path,
    base: input.base,
    head: input.page.head,
  };
  return renderDocument({
    template: input.template,
    templateFile: relative(input.paths.root, input.paths.template),
    site: input.config.site,
    base: input.base,
    path: route.path,
    head: input.page.head,
    body: input.page.html,
    criticalCss: input.critical,
    stylesheet: input.base + input.cssFile,
    script: scripts?.entry,
    captureScript: input.captureScript,
    fontPreloads: fontUrls(input.critical),
    fontsAfterPaint: input.fontsAfterPaint,
    extraScripts: input.extraScripts,
    siteHead: siteHead(input.head.hook, headContext),
  });
}

export interface OutputParts {
  publicFiles: OutputFiles;
  stylesheet: CompiledStylesheet;
  cssFile: string;
  client: ClientBundle;
  /** The pages' output files (written apart), which no public/ file may take. */
  pageFiles: Pick<ReadonlySet<string>, 'has'>;
  site: SiteInfo;
  /**
   * Route paths listed in the sitemap; or undefined, when the caller makes the sitemap (`sitemapFiles`) on request: its
   * path is kept for it all the same.
   */
  indexed: string[] | undefined;
  /** The headers section of site.config.ts, written as _headers. */
  headers: SiteConfig['headers'];
  /** Encoded images (src/images/), named by their content and settings. */
  images?: ReadonlyMap<string, Uint8Array>;
}

/** URLs in one sitemap file at most: the sitemaps protocol's limit (sitemaps.org). */
export const SITEMAP_URLS = 50_000;

/** Bytes of one sitemap file at most, uncompressed: the protocol's other limit. */
export const SITEMAP_BYTES = 50 * 1024 * 1024;

/**
 * Every output file before compression but the pages: public/ as is, then what the build makes, which may not take a
 * public file's path (nor may the pages).
 */
export function assembleOutput(parts: OutputParts): OutputFiles {
  const files: OutputFiles = new Map(parts.publicFiles);
  const taken = (path: string) =>
    new SiteGenError(`public/${path} has the same path as a file the build writes. Rename or remove it.`);
  const add = (path: string, data: Uint8Array | string) => {
    if (files.has(path)) throw taken(path);
    files.set(path, data);
  };
  add(parts.cssFile, parts.stylesheet.css);
  // Every file named by its content: the stylesheet, its url() files, and all esbuild writes (entries, chunks, assets).
  const hashed = [parts.cssFile];
  for (const asset of parts.stylesheet.assets) {
    if (files.has(asset.fileName)) continue;
    add(asset.fileName, asset.source);
    hashed.push(asset.fileName);
  }
  for (const [path, data] of [...parts.client.files, ...(parts.images ?? [])]) {
    add(path, data);
    hashed.push(path);
  }
  for (const path of parts.publicFiles.keys()) if (parts.pageFiles.has(path)) throw taken(path);
  if (parts.indexed) for (const [file, xml] of sitemapFiles(parts.site, parts.indexed)) add(file, xml);
  else if (files.has(SITEMAP_FILE)) throw taken(SITEMAP_FILE);
  add('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(parts.site, `/${SITEMAP_FILE}`)}\n`);
  add(HASHED_FILES_PATH, serializeHashedFiles(hashed));
  add(HEADERS_FILE, serializeHeadersFile(securityHeaders(parts.headers)));
  return files;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const SITEMAP_XMLNS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const URLSET_OPEN = `<urlset ${SITEMAP_XMLNS}>\n`;
const URLSET_CLOSE = '</urlset>\n';

/**
 * The sitemap files of the site's indexed pages, by route path: `sitemap.xml` alone while the pages fit in one file
 * (SITEMAP_URLS, SITEMAP_BYTES); past that, the parts `sitemap-1.xml`, `sitemap-2.xml`... in the pages' order and
 * `sitemap.xml` the index of them, which robots.txt names all the same. A part is cut at the first limit it would
 * pass.
 */
export function sitemapFiles(site: SiteInfo, paths: readonly string[]): Map<string, string> {
  const parts: string[] = [];
  const envelope = Buffer.byteLength(XML_DECLARATION + URLSET_OPEN + URLSET_CLOSE);
  let lines: string[] = [];
  let bytes = envelope;
  const cut = () => {
    parts.push(`${XML_DECLARATION}${URLSET_OPEN}${lines.join('')}${URLSET_CLOSE}`);
    lines = [];
    bytes = envelope;
  };
  for (const path of paths) {
    const line = `  <url><loc>${xmlText(absoluteUrl(site, path))}</loc></url>\n`;
    const size = Buffer.byteLength(line);
    if (lines.length > 0 && (lines.length === SITEMAP_URLS || bytes + size > SITEMAP_BYTES)) cut();
    lines.push(line);
    bytes += size;
  }
  cut();
  if (parts.length === 1) return new Map([[SITEMAP_FILE, parts[0]!]]);
  const files = new Map(parts.map((xml, i) => [sitemapPart(i + 1), xml]));
  const entries = [...files.keys()].map(
    (file) => `  <sitemap><loc>${xmlText(absoluteUrl(site, `/${file}`))}</loc></sitemap>\n`,
  );
  const index = `${XML_DECLARATION}<sitemapindex ${SITEMAP_XMLNS}>\n${entries.join('')}</sitemapindex>\n`;
  return new Map([[SITEMAP_FILE, index], ...files]);
}

/** A URL as XML text: the protocol has `&` and `'` (which a URL may keep as they are) written as entities. */
function xmlText(url: string): string {
  return url.replace(/[&<>'"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', "'": 'apos', '"': 'quot' }[c]};`);
}
