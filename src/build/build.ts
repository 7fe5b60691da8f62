// The build pipeline: config and content in, a checked, atomic dist/ out. Each stage lives in its own module.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { SiteConfig, SiteInfo } from '../config.ts';
import { RoutesError, SiteGenError, TemplateError } from '../errors.ts';
import { normaliseBase } from './base-path.ts';
import type { HeadHook } from '../head.ts';
import type { Route } from '../routes.ts';
import { bundleClient, type ClientBundle, type PageIslands } from './bundle.ts';
import { assertNoBrokenLinks, assertWithinBudget, findBrokenLinks } from './check.ts';
import { brotli, byteLength } from './compress.ts';
import { loadConfig } from './config.ts';
import { compileStylesheet, type CompiledStylesheet } from './css.ts';
import { criticalCss } from './critical.ts';
import { absoluteUrl, checkTemplate, fontUrls, renderDocument } from './document.ts';
import { siteHead } from './head.ts';
import { findModule, projectPaths, type ProjectPaths } from './paths.ts';
import { renderPage, type RenderedPage } from './render.tsx';
import { loadSite, validateContent } from './site-module.ts';
import { esbuildTargets, resolveBrowsers } from './targets.ts';
import { assertSafeOutDir, readTree, withPrecompressed, writeOutput, type OutputFiles } from './write.ts';

export interface BuildOptions {
  config: string;
  out: string;
  /** URL path the site is served under; default "/". */
  base?: string;
  /** Extra external scripts on every page (the dev server's reload client). */
  extraScripts?: string[];
  /** Write nothing: return the files (the dev server keeps them in memory). */
  write?: boolean;
}

export interface PageReport {
  path: string;
  file: string;
  html: { raw: number; brotli: number };
  inlineCss: { raw: number };
  js: { raw: number; brotli: number; files: number };
}

export interface BuildResult {
  config: SiteConfig;
  pages: PageReport[];
  /** Every output file, .br/.gz included. */
  files: OutputFiles;
  /** Project files the build read (for the watcher). */
  inputs: string[];
  ms: number;
}

/** Output file of a route: "/" -> index.html, "/contact" -> contact/index.html, or the route's own `file`. */
export function routeFile(route: Pick<Route, 'path' | 'file'>): string {
  if (route.file) return route.file;
  const path = route.path.replace(/^\/+|\/+$/g, '');
  return path ? `${path}/index.html` : 'index.html';
}

/** Name of the page's script entry: "index", "contact", "404". */
export function entryName(route: Pick<Route, 'path' | 'file'>): string {
  return routeFile(route).replace(/\/index\.html$|\.html$/, '').replace(/\//g, '-') || 'index';
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const base = normaliseBase(options.base);
  const paths = projectPaths(options.config);
  assertSafeOutDir(options.out, paths.root);
  const config = await loadConfig(paths.config);
  const site = await loadSite(paths);
  const content = validateContent(paths, site);
  const template = await readTemplate(paths);
  const routes = checkRoutes(paths, site.routes);

  const rendered = renderRoutes(routes, { site: config.site, content }, base);

  const browsers = resolveBrowsers(config.build.browserslist);
  const stylesheet = await compileStylesheet({ entry: paths.stylesheet, browserslist: config.build.browserslist, base });
  const cssFile = stylesheetFile(stylesheet.css);
  const client = await bundleClient({
    root: paths.root,
    islandsDir: paths.islands,
    pages: clientPages(rendered),
    target: esbuildTargets(browsers),
    base,
    errorScreen: findModule(paths.errorScreen),
  });

  const documents = rendered.map(({ route, page }) => {
    const critical = criticalCss(stylesheet.css, page.html);
    const head = { hook: site.head, content };
    const html = pageDocument({ config, base, route, page, template, paths, client, critical, cssFile, head, extraScripts: options.extraScripts });
    return { route, html, critical };
  });
  const files = assembleOutput({
    publicFiles: await readTree(paths.public),
    stylesheet,
    cssFile,
    client,
    pages: documents.map(({ route, html }) => ({ file: routeFile(route), html })),
    site: config.site,
    indexed: rendered.filter(({ page }) => !page.head.noindex).map(({ route }) => route.path),
  });
  const pages = documents.map(({ route, html, critical }) => report(route, html, critical, client, files));

  checkLinks(rendered, files, base);
  assertWithinBudget(pages.map((p) => ({ path: p.path, htmlBrotli: p.html.brotli, jsBrotli: p.js.brotli })), config.build.budgets);

  const output = withPrecompressed(files);
  if (options.write !== false) await writeOutput(options.out, output);
  const inputs = [...new Set([paths.config, ...site.inputs, ...stylesheet.dependencies, ...client.inputs, paths.template])].sort();
  return { config, pages, files: output, inputs, ms: Math.round(performance.now() - started) };
}

// The stages below are shared with the dev server's incremental build (src/dev/builder.ts), which keeps their results.

export interface RenderedRoute {
  route: Route;
  page: RenderedPage;
}

export function renderRoutes(routes: Route[], props: { site: SiteInfo; content: unknown }, base: string): RenderedRoute[] {
  return routes.map((route) => ({ route, page: renderPage(route, { site: props.site, content: props.content, path: route.path }, { base }) }));
}

/** What the client bundle needs of each page: its entry name and the islands it hydrates. */
export function clientPages(rendered: RenderedRoute[]): PageIslands[] {
  return rendered.map(({ route, page }) => ({ name: entryName(route), path: route.path, islands: page.islands }));
}

/** The full stylesheet's output path, named by its content. */
export function stylesheetFile(css: string): string {
  return `assets/site-${hashOf(css)}.css`;
}

export interface OutputParts {
  publicFiles: OutputFiles;
  stylesheet: CompiledStylesheet;
  cssFile: string;
  client: ClientBundle;
  /** Each page's output file and document. */
  pages: Array<{ file: string; html: string }>;
  site: SiteInfo;
  /** Route paths listed in the sitemap. */
  indexed: string[];
}

/** Every output file before compression: public/ as is, then what the build makes, which may not take a public file's path. */
export function assembleOutput(parts: OutputParts): OutputFiles {
  const files: OutputFiles = new Map(parts.publicFiles);
  const add = (path: string, data: Uint8Array | string) => {
    if (files.has(path)) throw new SiteGenError(`public/${path} has the same path as a file the build writes. Rename or remove it.`);
    files.set(path, data);
  };
  add(parts.cssFile, parts.stylesheet.css);
  for (const asset of parts.stylesheet.assets) if (!files.has(asset.fileName)) add(asset.fileName, asset.source);
  for (const [path, data] of parts.client.files) add(path, data);
  for (const page of parts.pages) add(page.file, page.html);
  add('sitemap.xml', sitemap(parts.site, parts.indexed));
  add('robots.txt', `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(parts.site, '/sitemap.xml')}\n`);
  return files;
}

/** Fails with a BrokenLinkError when a page links to a path or #anchor that the output does not have. */
export function checkLinks(rendered: RenderedRoute[], files: OutputFiles, base: string): void {
  assertNoBrokenLinks(findBrokenLinks(rendered.map(({ route, page }) => ({ path: route.path, links: page.links, ids: page.ids })), new Set(files.keys()), base));
}

export interface PageInput {
  config: SiteConfig;
  base: string;
  route: Route;
  page: RenderedPage;
  template: string;
  paths: ProjectPaths;
  client: ClientBundle;
  /** The page's critical CSS (criticalCss of the full stylesheet and the page's HTML). */
  critical: string;
  cssFile: string;
  /** The site's head hook (src/site/head.ts) and the content it is given. */
  head: { hook?: HeadHook; content: unknown };
  extraScripts?: string[];
}

export function pageDocument(input: PageInput): string {
  const { route, client } = input;
  const headContext = { site: input.config.site, content: input.head.content, path: route.path, base: input.base, head: input.page.head };
  const scripts = client.pages.get(entryName(route));
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
    modulePreloads: scripts?.preloads ?? [],
    fontPreloads: fontUrls(input.critical),
    extraScripts: input.extraScripts,
    siteHead: siteHead(input.head.hook, headContext),
  });
}

function report(route: Route, html: string, critical: string, client: ClientBundle, files: OutputFiles): PageReport {
  const scripts = client.pages.get(entryName(route));
  const js = (scripts?.files ?? []).map((f) => files.get(f)!);
  return {
    path: route.path,
    file: routeFile(route),
    html: { raw: byteLength(html), brotli: brotli(html).byteLength },
    inlineCss: { raw: byteLength(critical) },
    js: {
      raw: js.reduce((sum, f) => sum + byteLength(f), 0),
      brotli: js.reduce((sum, f) => sum + brotli(f).byteLength, 0),
      files: js.length,
    },
  };
}

export async function readTemplate(paths: ProjectPaths): Promise<string> {
  const shown = relative(paths.root, paths.template);
  if (!existsSync(paths.template)) throw new TemplateError(`${shown} does not exist. Create the document template (see README.md, "Templates").`);
  const template = await readFile(paths.template, 'utf8');
  checkTemplate(template, shown);
  return template;
}

export function checkRoutes(paths: ProjectPaths, routes: Route[]): Route[] {
  const shown = relative(paths.root, paths.routes);
  const seen = new Map<string, string>();
  routes.forEach((route, i) => {
    if (!route || typeof route.path !== 'string' || !route.path.startsWith('/')) throw new RoutesError(`${shown}: routes[${i}].path must be a path starting with "/".`);
    if (typeof route.page !== 'function') throw new RoutesError(`${shown}: routes[${i}] (${route.path}) has no page component.`);
    if (typeof route.head !== 'function') throw new RoutesError(`${shown}: routes[${i}] (${route.path}) has no head() function giving its title.`);
    const file = routeFile(route);
    if (seen.has(file)) throw new RoutesError(`${shown}: routes ${seen.get(file)} and ${route.path} both write ${file}. Give each route its own path.`);
    seen.set(file, route.path);
  });
  return routes;
}

function sitemap(site: SiteInfo, paths: string[]): string {
  const urls = paths.map((p) => `  <url><loc>${absoluteUrl(site, p)}</loc></url>`).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
