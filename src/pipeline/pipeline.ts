// The one stage graph of site-gen: what each stage needs, run whole by `site-gen build` and again, in part, by `site-gen watch`.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import { RoutesError, TemplateError } from '../core/errors.ts';
import type { HeadHook } from '../core/head.ts';
import type { Route } from '../core/routes.ts';
import { assembleOutput, entryName, pageDocument, routeFile, stylesheetFile } from './assemble.ts';
import { bundleClient, entrySource, type ClientBundle, type PageIslands } from './bundle.ts';
import { assertNoBrokenLinks, findBrokenLinks } from './check.ts';
import type { Compressor } from './compress.ts';
import { loadConfig } from './load-config.ts';
import type { CompiledStylesheet } from './css.ts';
import { checkTemplate } from './document.ts';
import { EsbuildCache } from './esbuild-cache.ts';
import { findModule, type ProjectPaths } from '../core/paths.ts';
import { renderPage, type RenderedPage } from './render.tsx';
import { loadSite, validateContent } from './site-module.ts';
import { esbuildTargets, resolveBrowsers } from './targets.ts';
import { hash, toolVersionKey, type PageCache } from './page-cache.ts';
import { PagesOnRequest } from './pages-on-request.ts';
import { readTree, type OutputFiles } from './write.ts';
import { MarkdownCollections } from '../content/load.ts';
import { markdownSources } from '../content/links.ts';
import { resolveRoutes } from '../content/routes.ts';
import { ImageStore } from '../images/encode.ts';
import { imagesFingerprint } from '../images/fingerprint.ts';

/**
 * The stages whose results are kept between runs, in the order they are reported. After them every run does, per
 * page, critical CSS (kept while the page's HTML and the stylesheet stay the same) and assembly, then checks the links;
 * `site-gen build` then compresses, checks the budgets and writes (see build.ts).
 */
export type Stage = 'config' | 'template' | 'public' | 'stylesheet' | 'content' | 'render' | 'bundle';

export const STAGES: readonly Stage[] = ['config', 'template', 'public', 'stylesheet', 'content', 'render', 'bundle'];

/**
 * What each stage reads of the others: a stage reruns when one of these does. `bundle` reads the pages only through
 * which islands each one uses, so a rerun of `render` reruns it only when that changed.
 */
export const NEEDS: Readonly<Record<Stage, readonly Stage[]>> = {
  config: [],
  template: [],
  public: [],
  stylesheet: ['config'],
  content: [],
  render: ['config', 'content'],
  bundle: ['config', 'render'],
};

export interface PipelineOptions {
  paths: ProjectPaths;
  /** URL path the site is served under, normalised ("/", "/my-site/"). */
  base: string;
  /**
   * `build`: every page rendered, minified scripts, and the first failure ends the run. `dev`: each page rendered when
   * first read and kept until a stage it needs reruns (see PagesOnRequest), one script entry for every island, readable
   * scripts, esbuild's work kept between runs, and the stages a failure does not reach still run.
   */
  mode: 'build' | 'dev';
  /** External scripts every page loads (the dev server's reload client). */
  extraScripts?: string[];
  /** Starts compressing each output file as soon as it exists, so the thread pool works while pages are assembled. */
  compressor?: Compressor;
  /** What is kept between runs of the tool (see page-cache.ts): the client bundle, and in a build the pages too. */
  cache?: PageCache;
}

export interface RenderedRoute {
  route: Route;
  page: RenderedPage;
  /** With a page cache: the hash of everything the render was made from. */
  key?: string;
}

export interface PageOutput {
  route: Route;
  /** What the page rendered to: its body, links, ids, islands. */
  page: RenderedPage;
  file: string;
  /** The whole document. */
  html: string;
  critical: string;
}

export interface PipelineOutput {
  config: SiteConfig;
  /**
   * Every output file, uncompressed: public/, the stylesheet and its assets, scripts, pages, sitemap, robots.txt. In
   * dev, a PagesOnRequest: a page is rendered when first read.
   */
  files: OutputFiles;
  /** Each page (build only: dev renders them on request). */
  pages: PageOutput[];
  client: ClientBundle;
  /** The full stylesheet's URL. */
  stylesheet: string;
  /** Project files the run read (for the watcher). */
  inputs: string[];
}

/**
 * `stages`: the kept stages that ran and succeeded; `rebuilt`: the same in words, with what the pages needed.
 * A failed run keeps its stage stale, and those after it, until a run succeeds.
 */
export type PipelineRun =
  | { ok: true; output: PipelineOutput; stages: Stage[]; rebuilt: string[]; times: StageTimes }
  | { ok: false; error: unknown; stages: Stage[]; rebuilt: string[]; times: StageTimes };

/** Milliseconds each step of a run took, from its start to its end (steps overlap: they do not add up to the run). */
export type StageTimes = Partial<Record<Stage | 'critical' | 'assemble', number>>;

interface SiteState {
  /** Hash of the site's compiled code. */
  code: string;
  routes: Route[];
  head?: HeadHook;
  errorScreen?: ErrorScreenComponent;
  content: Record<string, unknown>;
  inputs: string[];
}

/** Critical CSS's code and packages (linkedom, postcss): loaded while esbuild bundles the scripts, not at start-up. */
type CriticalCode = typeof import('./critical.ts') & typeof import('./critical/shape.ts');
let criticalCode: Promise<CriticalCode> | undefined;
function loadCriticalCode(): Promise<CriticalCode> {
  criticalCode ??= Promise.all([import('./critical.ts'), import('./critical/shape.ts')]).then(([critical, shape]) => ({
    ...critical,
    ...shape,
  }));
  return criticalCode;
}

export class Pipeline {
  readonly paths: ProjectPaths;
  readonly #options: PipelineOptions;
  /** Stages whose result is missing or stale: every stage before the first run, and a failed stage until it succeeds. */
  readonly #dirty = new Set<Stage>(STAGES);
  readonly #esbuild: EsbuildCache | undefined;
  /** Each page's critical CSS with the stylesheet and HTML it came from: kept while neither changes. */
  readonly #critical = new Map<string, { css: string; html: string; critical: string }>();
  /** Critical CSS by page shape (see critical-shape.ts), for the stylesheet it was selected from. */
  #byShape: { css: string; attributes: Set<string>; critical: Map<string, string> } = {
    css: '',
    attributes: new Set(),
    critical: new Map(),
  };
  #config: SiteConfig | undefined;
  #template: string | undefined;
  #publicFiles: OutputFiles | undefined;
  #stylesheet: CompiledStylesheet | undefined;
  #site: SiteState | undefined;
  #rendered: RenderedRoute[] | undefined;
  /** Dev: the pages rendered so far, by output file, until `render` reruns. */
  readonly #onRequest = new Map<string, RenderedPage>();
  /** Dev: pages whose critical CSS was derived since the last run began. */
  #derivedOnRequest = 0;
  #islands: string | undefined;
  #client: ClientBundle | undefined;
  #criticalCode: CriticalCode | undefined;
  /** The images pages use, each output file encoded once; and the Markdown collections, each body rendered once. */
  readonly #images: ImageStore;
  readonly #markdown: MarkdownCollections;

  constructor(options: PipelineOptions) {
    this.paths = options.paths;
    this.#options = options;
    this.#esbuild = options.mode === 'dev' ? new EsbuildCache() : undefined;
    this.#images = new ImageStore(options.paths.cache, options.paths.root);
    this.#markdown = new MarkdownCollections(options.paths, this.#images.sources);
  }

  /** Image files encoded by this pipeline, and those found already encoded (in memory or the cache folder). */
  get imageCounts(): { encoded: number; kept: number } {
    return this.#images.counts;
  }

  get config(): SiteConfig | undefined {
    return this.#config;
  }

  /** The stylesheet as last compiled (newer than the last good output's when a later stage failed). */
  get stylesheet(): CompiledStylesheet | undefined {
    return this.#stylesheet;
  }

  /** What the dev error page is made of: the site's template and error screen as last loaded, each absent until it loads. */
  get errorParts(): { template?: string; errorScreen?: ErrorScreenComponent } {
    return { template: this.#template, errorScreen: this.#site?.errorScreen };
  }

  /** Dev: how many pages had their critical CSS derived since the last run began (pages render on request). */
  get criticalDerived(): number {
    return this.#derivedOnRequest;
  }

  /** What the stages read, as the watcher maps a changed file to them. */
  get reads(): { site: string[]; css: string[]; client: string[] } {
    return {
      // Image files pages rendered since read count as the site's: replacing one renders its pages again.
      site: [...(this.#site?.inputs ?? []), ...this.#images.sources.files()],
      css: this.#stylesheet?.dependencies ?? [],
      client: this.#client?.inputs ?? [],
    };
  }

  /** Reruns the `changed` stages, the stages that need them, and any stage a failure left stale; then the pages. */
  async run(changed: Iterable<Stage> = []): Promise<PipelineRun> {
    const dirty = this.#dirty;
    this.#derivedOnRequest = 0;
    for (const stage of changed) dirty.add(stage);
    for (const stage of STAGES) {
      const needs = stage === 'bundle' ? (['config'] as const) : NEEDS[stage];
      if (needs.some((need) => dirty.has(need))) dirty.add(stage);
    }

    const notes = new Map<Stage, string>();
    const times: StageTimes = {};
    const failures = new Map<Stage, unknown>();
    const started = new Map<Stage, Promise<boolean>>();
    // Each stage waits for what it needs, so independent stages overlap (the stylesheet compiles while the site loads).
    const start = (stage: Stage): Promise<boolean> => {
      let running = started.get(stage);
      if (!running) {
        running = (async () => {
          const ready = await Promise.all(NEEDS[stage].map(start));
          if (!ready.every(Boolean)) return false;
          if (!dirty.has(stage)) return true;
          if (this.#options.mode === 'build' && failures.size > 0) return false;
          try {
            const began = performance.now();
            notes.set(stage, await this.#work(stage));
            times[stage] = Math.round(performance.now() - began);
            dirty.delete(stage);
            return true;
          } catch (error) {
            failures.set(stage, error);
            return false;
          }
        })();
        started.set(stage, running);
      }
      return running;
    };
    const ready = Promise.all(STAGES.map(start));
    // Critical CSS needs only the stylesheet and the pages: derived on this thread while esbuild bundles on another core.
    const critical = Promise.all([start('stylesheet'), start('render')]).then(async (needs) => {
      if (!needs.every(Boolean)) return 0;
      await new Promise((resolve) => setImmediate(resolve)); // the bundle stage hands esbuild its work first
      const began = performance.now();
      this.#criticalCode ??= await loadCriticalCode();
      if (this.#options.mode === 'dev') return 0;
      const count = await this.#deriveCritical();
      times.critical = Math.round(performance.now() - began);
      return count;
    });
    // Images are encoded (or read back) while critical CSS is derived: a build needs the files of every page.
    const images = ready.then((stages) =>
      this.#options.mode === 'build' && stages.every(Boolean)
        ? this.#images.files(this.#rendered!.flatMap(({ page }) => page.images))
        : new Map<string, Uint8Array>(),
    );
    images.catch(() => undefined);
    const [done, derived] = await Promise.all([
      ready,
      critical.then(
        (count) => ({ count }),
        (error: unknown) => ({ error }),
      ),
    ]);
    const stages = STAGES.filter((stage) => notes.has(stage));
    const rebuilt = stages.map((stage) => notes.get(stage)!);
    const failed = STAGES.find((stage) => failures.has(stage));
    if (failed) return { ok: false, error: failures.get(failed), stages, rebuilt, times };
    if (!done.every(Boolean)) throw new Error('site-gen: a stage neither ran nor failed; this is a bug.');

    try {
      if ('error' in derived) throw derived.error;
      if (derived.count > 0) rebuilt.push(`critical CSS ×${derived.count}`);
      const began = performance.now();
      const output = this.#options.mode === 'dev' ? this.#pagesOnRequest() : this.#pages(await images);
      times.assemble = Math.round(performance.now() - began);
      return { ok: true, output, stages, rebuilt, times };
    } catch (error) {
      return { ok: false, error, stages, rebuilt, times };
    }
  }

  /** Frees esbuild's kept context. */
  async dispose(): Promise<void> {
    await this.#esbuild?.dispose();
  }

  /** Runs one stage, keeping its result; returns what it did, in words. */
  async #work(stage: Stage): Promise<string> {
    const { paths, base } = this.#options;
    switch (stage) {
      case 'config':
        this.#config = await loadConfig(paths.config);
        return 'config';
      case 'template':
        this.#template = await readTemplate(paths);
        return 'template';
      case 'public':
        this.#publicFiles = await readTree(paths.public);
        return 'public/';
      case 'stylesheet': {
        // Imported when first needed: lightningcss loads while esbuild compiles the site's code.
        const { compileStylesheet } = await import('./css.ts');
        this.#stylesheet = await compileStylesheet({
          entry: paths.stylesheet,
          browserslist: this.#config!.build.browserslist,
          base,
        });
        return 'CSS';
      }
      case 'content': {
        // esbuild compiles the site's code on the other core while this one renders the Markdown bodies.
        const loading = loadSite(paths);
        loading.catch(() => undefined);
        await this.#markdown.prepare();
        const site = await loading;
        const markdown = await this.#markdown.load(site.collections);
        const content = { ...validateContent(paths, site), ...markdown.content };
        this.#site = {
          code: hash(site.hash, markdown.hash),
          routes: checkRoutes(paths, resolveRoutes(site.routes, content, relative(paths.root, paths.routes))),
          head: site.head,
          errorScreen: site.errorScreen,
          content,
          inputs: [...site.inputs, ...markdown.inputs],
        };
        return 'site code';
      }
      case 'render': {
        if (this.#options.mode === 'dev') {
          this.#onRequest.clear();
          return 'pages on request';
        }
        const props = { site: this.#config!.site, content: this.#site!.content };
        const cache = this.#options.cache;
        // A render is made from the tool, the site's code and content, the config, the base and the path; and, since
        // a page may show the year (the footer does), the day it was made on.
        const renderBase =
          cache &&
          hash(
            toolVersionKey(),
            this.#site!.code,
            JSON.stringify(this.#config),
            base,
            new Date().toDateString(),
            imagesFingerprint([dirname(paths.routes), paths.content]),
          );
        this.#rendered = this.#site!.routes.map((route) => {
          const key = renderBase && hash(renderBase, route.path);
          const kept = key ? cache!.page(key)?.page : undefined;
          if (cache) cache.counts[kept ? 'kept' : 'made'] += 1;
          return {
            route,
            page: kept ?? renderPage(route, { ...props, path: route.path }, { base, images: this.#imageReader() }),
            key,
          };
        });
        const islands = JSON.stringify(this.#rendered.map(({ route, page }) => [entryName(route), page.islands]));
        if (islands !== this.#islands) this.#dirty.add('bundle');
        this.#islands = islands;
        return `${this.#rendered.length} pages`;
      }
      case 'bundle': {
        const dev = this.#options.mode === 'dev';
        const options = {
          root: paths.root,
          islandsDir: paths.islands,
          behavioursDir: paths.behaviours,
          pages: dev
            ? [devEntry(paths)]
            : this.#rendered!.map(({ route, page }) => ({
                name: entryName(route),
                path: route.path,
                islands: page.islands,
              })),
          target: esbuildTargets(resolveBrowsers(this.#config!.build.browserslist)),
          base,
          errorScreen: findModule(paths.errorScreen),
          // Readable stack traces in the browser, and a faster rebuild; budgets are for `site-gen build`.
          minify: !dev,
          cache: this.#esbuild,
        };
        const cache = this.#options.cache;
        // Kept while the tool, the entries and every file the bundle read are the same (the cache checks the files).
        const key =
          cache &&
          hash(toolVersionKey(), JSON.stringify({ ...options, cache: undefined }), islandFiles(paths).join('\n'));
        const kept = key ? cache!.bundle(key) : undefined;
        this.#client = kept ?? (await bundleClient(options));
        if (key && !kept) cache!.setBundle(key, this.#client);
        const compressor = this.#options.compressor;
        // Biggest first: the compressions queue on one thread per core, and React's chunk (brotli 11, ~0.2 s) queued
        // behind the small ones would end the build that much later.
        const bySize = [...this.#client.files].sort(([, a], [, b]) => b.byteLength - a.byteLength);
        if (compressor) for (const [file, data] of bySize) void compressor.compress(file, data);
        return 'scripts';
      }
    }
  }

  /**
   * Each page's critical CSS, derived again where the page's HTML or the stylesheet changed; returns how many were.
   * Hands the event loop back after each page it derives: the client bundle finishes on esbuild's side meanwhile, and
   * its result (and the compressions it starts) should not wait for every page's selection.
   */
  async #deriveCritical(): Promise<number> {
    const files = new Set<string>();
    let derived = 0;
    const css = this.#stylesheet!.css;
    const cssKey = this.#options.cache && hash(css);
    for (const { route, page, key } of this.#rendered!) {
      const file = routeFile(route);
      files.add(file);
      const kept = key ? this.#options.cache!.page(key) : undefined;
      if (kept && kept.cssKey === cssKey) this.#critical.set(file, { css, html: page.html, critical: kept.critical });
      else if (this.#criticalFor(file, page.html).derived) {
        derived += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    for (const file of this.#critical.keys()) if (!files.has(file)) this.#critical.delete(file);
    return derived;
  }

  /** The page's critical CSS: kept while its HTML and the stylesheet stay the same, shared by pages of one shape. */
  #criticalFor(file: string, html: string): { critical: string; derived: boolean } {
    const css = this.#stylesheet!.css;
    const kept = this.#critical.get(file);
    if (kept?.css === css && kept.html === html) return { critical: kept.critical, derived: false };
    const { criticalCss, matchedAttributes, pageShape } = this.#criticalCode!;
    if (this.#byShape.css !== css) this.#byShape = { css, attributes: matchedAttributes(css), critical: new Map() };
    const { attributes, critical: byShape } = this.#byShape;
    // Pages of one template share a shape: the rules are selected once for all of them.
    const shape = pageShape(html, attributes);
    let critical = byShape.get(shape);
    const derived = critical === undefined;
    if (critical === undefined) {
      critical = criticalCss(css, html);
      byShape.set(shape, critical);
    }
    this.#critical.set(file, { css, html, critical });
    return { critical, derived };
  }

  /**
   * Dev: every output file but the pages, and the pages as a PagesOnRequest: one is rendered, checked for broken links
   * and given its critical CSS when first read. Rendering every page before serving one would cost seconds on a big site.
   */
  #pagesOnRequest(): PipelineOutput {
    const { paths, base, extraScripts } = this.#options;
    const config = this.#config!;
    const stylesheet = this.#stylesheet!;
    const client = this.#client!;
    const site = this.#site!;
    const cssFile = stylesheetFile(stylesheet.css);
    const props = { site: config.site, content: site.content };
    const head = { hook: site.head, content: site.content };
    const byFile = new Map(site.routes.map((route) => [routeFile(route), route]));
    const files = assembleOutput({
      publicFiles: this.#publicFiles!,
      stylesheet,
      cssFile,
      client,
      // Only the pages' paths, so that a public file in the way is reported now; the pages are made on request.
      pages: [...byFile.keys()].map((file) => ({ file, html: '' })),
      site: config.site,
      indexed: site.routes
        .filter((route) => !route.head({ ...props, path: route.path }).noindex)
        .map((route) => route.path),
      headers: config.headers,
    });
    for (const file of byFile.keys()) files.delete(file);
    const known = new Set([...files.keys(), ...byFile.keys()]);

    const rendered = (route: Route): RenderedPage => {
      const file = routeFile(route);
      let page = this.#onRequest.get(file);
      if (!page) {
        page = renderPage(route, { ...props, path: route.path }, { base, images: this.#imageReader() });
        this.#onRequest.set(file, page);
        // Served once encoded (at once when an earlier run or build made them): pages are made on request in dev.
        if (page.images.length > 0)
          void this.#images.files(page.images).then(
            (made) => {
              for (const [name, data] of made) output.set(name, data);
            },
            () => undefined,
          );
      }
      return page;
    };
    const make = (file: string): string => {
      const route = byFile.get(file)!;
      const page = rendered(route);
      // The islands it names must exist (the dev entry bundles whatever is in the folder).
      if (page.islands.length > 0)
        entrySource(
          { islandsDir: paths.islands, behavioursDir: paths.behaviours },
          { name: 'dev', path: route.path, islands: page.islands },
          paths.root,
        );
      // Other pages only matter for an #anchor on them: each is rendered when a link needs its ids.
      const others = site.routes
        .filter((other) => other !== route)
        .map((other) => ({
          path: other.path,
          links: [],
          get ids() {
            return rendered(other).ids;
          },
        }));
      assertNoBrokenLinks(
        findBrokenLinks([{ path: route.path, links: page.links, ids: page.ids }, ...others], known, base),
      );
      const { critical, derived } = this.#criticalFor(file, page.html);
      if (derived) this.#derivedOnRequest += 1;
      const scripts = page.islands.length > 0 ? client.pages.get('dev') : undefined;
      const fontsAfterPaint = this.#criticalCode!.fontsAfterPaint(stylesheet.css, critical);
      return pageDocument({
        config,
        base,
        route,
        page,
        template: this.#template!,
        paths,
        scripts,
        captureScript: client.captureScript,
        critical,
        fontsAfterPaint,
        cssFile,
        head,
        extraScripts,
      });
    };
    const inputs = [
      ...new Set([paths.config, ...site.inputs, ...stylesheet.dependencies, ...client.inputs, paths.template]),
    ].sort();
    const output = new PagesOnRequest(files, byFile.keys(), make);
    return {
      config,
      files: output,
      pages: [],
      client,
      stylesheet: base + cssFile,
      inputs,
    };
  }

  /** How a render reads image files: through the store, so each file is read once while it stays the same. */
  #imageReader() {
    return { root: this.paths.root, source: this.#images.sources.read.bind(this.#images.sources) };
  }

  /** Documents and the whole output, checked for broken links. */
  #pages(images: Map<string, Uint8Array>): PipelineOutput {
    const { paths, base, extraScripts, compressor } = this.#options;
    const config = this.#config!;
    const stylesheet = this.#stylesheet!;
    const client = this.#client!;
    const rendered = this.#rendered!;
    const cssFile = stylesheetFile(stylesheet.css);
    const head = { hook: this.#site!.head, content: this.#site!.content };
    const cache = this.#options.cache;
    const cssKey = cache && hash(stylesheet.css);
    const documentBase = cache && hash(this.#template!, cssFile, JSON.stringify(extraScripts ?? []));
    const pages = rendered.map(({ route, page, key }): PageOutput => {
      const file = routeFile(route);
      const { critical } = this.#critical.get(file)!;
      const scripts = client.pages.get(entryName(route));
      // The document adds the template, the stylesheet's name, the scripts and the critical CSS to the render.
      const documentKey = key && hash(documentBase!, key, cssKey!, JSON.stringify(scripts ?? null));
      const kept = key ? cache!.page(key) : undefined;
      let html: string;
      if (kept && kept.documentKey === documentKey) html = kept.html;
      else {
        const fontsAfterPaint = this.#criticalCode!.fontsAfterPaint(stylesheet.css, critical);
        html = pageDocument({
          config,
          base,
          route,
          page,
          template: this.#template!,
          paths,
          scripts,
          captureScript: client.captureScript,
          critical,
          fontsAfterPaint,
          cssFile,
          head,
          extraScripts,
        });
        if (key) cache!.setPage(key, { page, cssKey: cssKey!, critical, documentKey: documentKey!, html });
      }
      void compressor?.compress(file, html);
      return { route, page, file, html, critical };
    });
    const files = assembleOutput({
      publicFiles: this.#publicFiles!,
      stylesheet,
      cssFile,
      client,
      pages,
      site: config.site,
      indexed: rendered.filter(({ page }) => !page.head.noindex).map(({ route }) => route.path),
      headers: config.headers,
      images,
    });
    const linked = rendered.map(({ route, page }) => ({ path: route.path, links: page.links, ids: page.ids }));
    assertNoBrokenLinks(markdownSources(findBrokenLinks(linked, new Set(files.keys()), base), this.#site!.content));
    const inputs = [
      ...new Set([
        paths.config,
        ...this.#site!.inputs,
        ...this.#images.sources.files(),
        ...stylesheet.dependencies,
        ...client.inputs,
        paths.template,
      ]),
    ].sort();
    return { config, files, pages, client, stylesheet: base + cssFile, inputs };
  }
}

/** The island and behaviour modules in their folders: which one a name resolves to depends on what is there. */
function islandFiles(paths: ProjectPaths): string[] {
  return [paths.islands, paths.behaviours].flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((file) => join(dir, file))
      : [],
  );
}

/** The names of the modules in a folder of islands or behaviours. */
function moduleNames(dir: string): string[] {
  const files = existsSync(dir)
    ? readdirSync(dir).filter((file) => /\.(tsx|ts|jsx|js)$/.test(file) && !/\.d\.ts$/.test(file))
    : [];
  return [...new Set(files.map((file) => file.replace(/\.[^.]+$/, '')))].sort();
}

/** Dev's one script entry: every island and behaviour module in their folders, each loaded only where a page has it. */
function devEntry(paths: ProjectPaths): PageIslands {
  const islands = moduleNames(paths.islands).map((name) => ({ name, hydrate: 'idle' as const }));
  const behaviours = moduleNames(paths.behaviours).map((name) => ({
    name,
    hydrate: 'idle' as const,
    behaviour: true as const,
  }));
  return { name: 'dev', path: 'site-gen watch', islands: [...islands, ...behaviours] };
}

export async function readTemplate(paths: ProjectPaths): Promise<string> {
  const shown = relative(paths.root, paths.template);
  if (!existsSync(paths.template))
    throw new TemplateError(
      `${shown} does not exist. Create the document template (see docs/guide.md, "Pages, islands, templates").`,
    );
  const template = await readFile(paths.template, 'utf8');
  checkTemplate(template, shown);
  return template;
}

export function checkRoutes(paths: ProjectPaths, routes: Route[]): Route[] {
  const shown = relative(paths.root, paths.routes);
  const seen = new Map<string, string>();
  routes.forEach((route, i) => {
    if (!route || typeof route.path !== 'string' || !route.path.startsWith('/'))
      throw new RoutesError(`${shown}: routes[${i}].path must be a path starting with "/".`);
    if (typeof route.page !== 'function')
      throw new RoutesError(`${shown}: routes[${i}] (${route.path}) has no page component.`);
    if (typeof route.head !== 'function')
      throw new RoutesError(`${shown}: routes[${i}] (${route.path}) has no head() function giving its title.`);
    const file = routeFile(route);
    if (seen.has(file))
      throw new RoutesError(
        `${shown}: routes ${seen.get(file)} and ${route.path} both write ${file}. Give each route its own path.`,
      );
    seen.set(file, route.path);
  });
  return routes;
}
