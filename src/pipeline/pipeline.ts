// The one stage graph of site-gen: what each stage needs, run whole by `site-gen build` and again, in part, by `site-gen watch`.
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import { digest, shortHex } from '../core/digest.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import { ContentError, TemplateError } from '../core/errors.ts';
import type { HeadHook } from '../core/head.ts';
import { assembleOutput, pageDocument, sitemapFiles, stylesheetFile } from './assemble.ts';
import { SITEMAP_FILE } from '../core/http/paths.ts';
import {
  bundleClient,
  entryKey,
  entrySource,
  noScripts,
  scriptsForPages,
  uniqueEntries,
  type ClientBundle,
  type PageIslands,
  type PageScripts,
} from './bundle.ts';
import { assertNoBrokenLinks, findBrokenLinks, linkPath, type KnownFiles, type LinkTargets } from './check.ts';
import type { Compressor } from './compress.ts';
import { loadConfig } from './load-config.ts';
import type { CompiledStylesheet } from './css.ts';
import { checkTemplate } from './document.ts';
import { EsbuildCache } from './esbuild-cache.ts';
import { findModule, type ProjectPaths } from '../core/paths.ts';
import type { ImageJob } from '../images/plan.ts';
import { RenderedPages } from './rendered-pages.ts';
import { linkReader, type PropsMemo, renderPage, type IslandUse, type RenderedPage } from './render.tsx';
import { matchedAttributes, pageShape, shapeReader } from './critical/shape.ts';
import { scanHtml } from './html-scan.ts';
import { ParsedContent, SiteLoader, validateContent } from './site-module.ts';
import { esbuildTargets, resolveBrowsers } from './targets.ts';
import { siteHead } from './head.ts';
import {
  documentBaseKey,
  documentKey,
  renderHash,
  hash,
  renderKey,
  siteRenderKey,
  toolVersionKey,
  PageCache,
} from './page-cache.ts';
import { collectLetGo, heapGrowthFor } from './heap.ts';
import { PagesOnRequest } from './pages-on-request.ts';
import type { KeyLookup } from './build-record.ts';
import { ReadRecords } from './read-records.ts';
import { ContentReads } from './render-reads.ts';
import { planRoutes, type PlannedRoute } from './route-plan.ts';
import { readTree, type OutputFiles } from './write.ts';
import { MarkdownCollections } from '../content/load.ts';
import type { MarkdownWorker } from '../content/markdown-pool.ts';
import { markdownSources } from '../content/links.ts';
import { resolveRoutes } from '../content/routes.ts';
import { ImageEncodingError, ImageStore } from '../images/encode.ts';
import { imageFingerprints } from '../images/fingerprint.ts';

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
  /**
   * What is kept between runs of the tool (see page-cache.ts): the client bundle, and in a build the pages too. A build
   * needs one (a scratch one with --no-cache): its pages' renders wait there for the client bundle, out of memory.
   */
  cache?: PageCache;
  /** Called as pages are rendered (build: every page; dev renders on request and never calls it). */
  onProgress?: (done: number, total: number) => void;
  /** Build: called as image files are encoded, when any is not in the cache (see ImageStore.files). */
  onImages?: (done: number, total: number) => void;
  /** Dev: called once a served page's image files are made, when any had to be encoded (not read back from the cache). */
  onImagesEncoded?: (encoded: ImagesEncoded) => void;
  /**
   * Build: each page's render hash in the last build into the same output folder (see build-record.ts). A page whose
   * reads could not be recorded (see render-reads.ts), and that renders to the same, is not kept in the cache again:
   * its files stay as they are, unless its document changed too (then it is rendered again when its document is made).
   */
  lastRenders?: KeyLookup;
  /** Build: the Markdown worker, started before this module loaded (see earlyWorker in content/markdown-pool.ts). */
  markdownWorker?: MarkdownWorker;
  /** Build: a Markdown file's text as the build record read it (BuildRecord.take), or undefined: read it from disk. */
  markdownTexts?: (file: string) => string | undefined;
  /**
   * Build: takes pages' documents while later pages still render, made with a client bundle of the islands the first
   * pages use (see #renderAll); each page whose final document turns out other is made again at the end.
   */
  stream?: PageStream;
}

/** Dev: what encoding a served page's images took (see PipelineOptions.onImagesEncoded). */
export interface ImagesEncoded {
  /** The page's path. */
  path: string;
  /** The source images whose files were encoded, relative to the project folder. */
  sources: string[];
  /** Files encoded (each width and format of each source not found in the cache). */
  files: number;
  ms: number;
}

/**
 * Where a build sends pages as they render (build.ts's PageWriter). `page` returns a promise when the next page must
 * wait (the pages under way fill the memory the stream allows); the render of the next page waits for it.
 */
export interface PageStream {
  page(page: RenderedRoute, index: number, documents: Documents, render: RenderedPage): Promise<void> | undefined;
}

/** How a build makes its pages' documents with one client bundle (a speculative one while pages render, then the final). */
export interface Documents {
  client: ClientBundle;
  /** Build: the key that stands for a page's document (see documentKey in page-cache.ts), known before it is made. */
  key(page: RenderedRoute): string;
  /** The page's scripts in `client`, if it has islands. */
  scripts(page: DocumentPage): PageScripts | undefined;
  /** A page's document, made from `render`, or from its render as the run keeps it (the page cache, dev's pages). */
  make(page: DocumentPage, render?: RenderedPage): PageOutput;
}

/** What a document is made for: the route, the islands its render uses, and its shape if read with its links. */
export type DocumentPage = PlannedRoute &
  Pick<RenderedRoute, 'islands'> &
  Partial<Pick<RenderedRoute, 'shape' | 'key'>>;

/** Pages rendered before a build bundles the islands seen so far and starts making documents (see #renderAll). */
const SPECULATE_AFTER = 64;
/**
 * Milliseconds of rendering between two turns of the event loop. Each async step of what runs beside the renders (the
 * bundle's round trips to esbuild and its plugins, loading critical CSS's modules, the finished compressions and
 * writes) waits for a turn: at 50 ms, the bundle of the first pages took 1.4 s and was ready after 2,000 of 4,000
 * pages; a turn costs a few microseconds.
 */
const YIELD_EVERY_MS = 5;
/** Renders held in memory while that bundle is made, at most: later ones are read back from the cache at the end. */
const HELD_AT_MOST = 512;

/**
 * A page of a build between its render and its document: what the route is, the key its render is kept under, and
 * what the later steps read of the render (islands, links, ids), shared between pages where equal. Its HTML waits in
 * the page cache, so memory holds no page's HTML while the client bundle is made.
 */
export interface RenderedRoute extends PlannedRoute {
  key: string;
  /** What it rendered to (see renderHash in page-cache.ts). */
  hash: string;
  islands: IslandUse[];
  links: string[];
  ids: string[];
  /** The image files it shows, encoded before any page is written. */
  images: ImageJob[];
  noindex: boolean;
  /** Milliseconds its render took (or reading it back). */
  ms: number;
  /**
   * Its critical-CSS shape (see critical/shape.ts), read in the same parse as its links when the stylesheet was
   * compiled by then, with the attribute set it was read with; absent, it is read when its document is made.
   */
  shape?: PageShape;
}

/** A page's shape and the attribute set (see matchedAttributes) it was read with. */
export interface PageShape {
  of: ReadonlySet<string>;
  hash: string;
}

/** A page's document, made by `PipelineOutput.document` (build only). */
export interface PageOutput {
  html: string;
  /** Bytes of its inline critical CSS. */
  criticalBytes: number;
}

export interface PipelineOutput {
  config: SiteConfig;
  /**
   * Every output file, uncompressed: public/, the stylesheet and its assets, scripts, sitemap, robots.txt; in a build,
   * not the pages (made one at a time by `document`). In dev, a PagesOnRequest: a page is rendered when first read.
   */
  files: OutputFiles;
  /** Each page, in the routes' order (build only: dev renders them on request). */
  pages: RenderedPages;
  /** Build: the pages' documents, made with the final client bundle. */
  documents: Documents;
  /** Build: what a page rendered to (read back from the page cache). */
  render: (page: RenderedRoute) => RenderedPage;
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
  routes: PlannedRoute[];
  /** The routes by output file. */
  byFile: ReadonlyMap<string, PlannedRoute>;
  /** Dev: each route's output file by the path links name it by (see linkPath), for checking a served page's links. */
  linkFiles?: ReadonlyMap<string, string>;
  head?: HeadHook;
  errorScreen?: ErrorScreenComponent;
  content: Record<string, unknown>;
  /** The content as pages get it: in a build, wrapped to record what each render reads (see render-reads.ts). */
  pageContent: Record<string, unknown>;
  inputs: string[];
}

/**
 * Critical CSS's code and packages (css-select, postcss): loaded while esbuild bundles the scripts, not at start-up. (A
 * page's shape is read with its links, as it renders: critical/shape.ts is loaded with this module.)
 */
type CriticalCode = typeof import('./critical.ts');
let criticalCode: Promise<CriticalCode> | undefined;
function loadCriticalCode(): Promise<CriticalCode> {
  criticalCode ??= import('./critical.ts');
  return criticalCode;
}

export class Pipeline {
  readonly paths: ProjectPaths;
  readonly #options: PipelineOptions;
  /** The store this pipeline made for itself (a build given no cache), deleted by `dispose()`. */
  readonly #scratch: PageCache | undefined;
  /** Stages whose result is missing or stale: every stage before the first run, and a failed stage until it succeeds. */
  readonly #dirty = new Set<Stage>(STAGES);
  readonly #esbuild: EsbuildCache | undefined;
  /** Each page's critical CSS with the stylesheet and HTML it came from: kept while neither changes. */
  readonly #critical = new Map<string, { css: string; html: string; critical: string }>();
  /** Critical CSS by page shape (see critical-shape.ts), for the stylesheet it was selected from, and its fonts. */
  #byShape: {
    css: string;
    attributes: Set<string>;
    critical: Map<string, string>;
    fonts: Map<string, string[]>;
    /** Each shape read, once: the pages of a template hold one, not a copy each (100,003 pages: about 9 MB). */
    shapes: Map<string, PageShape>;
  } = { css: '', attributes: new Set(), critical: new Map(), fonts: new Map(), shapes: new Map() };
  #config: SiteConfig | undefined;
  /** The config's last load, which the content stage waits for (see #work's content). */
  #configLoad: Promise<SiteConfig> | undefined;
  #template: string | undefined;
  #publicFiles: OutputFiles | undefined;
  #stylesheet: CompiledStylesheet | undefined;
  /** The stylesheet's output path (named by its content). */
  #cssFile: string | undefined;
  #site: SiteState | undefined;
  #rendered: RenderedPages | undefined;
  /** Dev: the pages rendered so far, by output file, until `render` reruns. */
  readonly #onRequest = new Map<string, RenderedPage>();
  /** Dev: pages whose critical CSS was derived since the last run began. */
  #derivedOnRequest = 0;
  /** The pages' script entries and islands as last rendered (see islandsKey): the bundle is made again when they change. */
  #islands: string | undefined;
  #client: ClientBundle | undefined;
  /** Build: the bundle of the islands the first pages used, made while the others render (see #renderAll). */
  #speculated: { entries: PageIslands[]; client: Promise<ClientBundle | undefined> } | undefined;
  #criticalCode: CriticalCode | undefined;
  /** The images pages use, each output file encoded once; and the Markdown collections, each body rendered once. */
  readonly #images: ImageStore;
  readonly #markdown: MarkdownCollections;
  /** The site's code and content modules, and the content as last parsed: each content file compiled and parsed once while it stays the same. */
  readonly #siteLoader: SiteLoader;
  readonly #parsed = new ParsedContent();
  /** Build: what each page's render reads of the content, so that a kept render is used while that reads the same. */
  readonly #reads: ContentReads | undefined;

  constructor(options: PipelineOptions) {
    this.paths = options.paths;
    this.#options = options;
    this.#esbuild = options.mode === 'dev' ? new EsbuildCache() : undefined;
    this.#images = new ImageStore(options.paths.cache, options.paths.root);
    this.#markdown = new MarkdownCollections(options.paths, this.#images.sources, {
      worker: options.markdownWorker,
      texts: options.markdownTexts,
      // A build loads its content once; watch loads it again after every edit.
      reuse: options.mode === 'dev',
    });
    this.#reads = options.mode === 'build' ? new ContentReads() : undefined;
    this.#siteLoader = new SiteLoader(options.paths, { keepContext: options.mode === 'dev', reads: this.#reads });
    // A build's pages wait for the client bundle in a store, never in memory: a scratch one when none is given.
    if (options.mode === 'build' && !options.cache) {
      this.#scratch = PageCache.scratch();
      this.#options = { ...options, cache: this.#scratch };
    }
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
    // The content reads one setting of the config (markdown.images: how bodies show their pictures) without waiting for
    // it (see #work's content): an edited config loads the content again, which looks at the new one.
    if (dirty.has('config') && this.#config) dirty.add('content');
    for (const stage of STAGES) {
      const needs = stage === 'bundle' ? (['config'] as const) : NEEDS[stage];
      if (needs.some((need) => dirty.has(need))) dirty.add(stage);
    }

    // A build that makes documents while pages render needs critical CSS's code by the first of them: loaded while the
    // site's code loads (this thread mostly waits for esbuild then).
    if (this.#options.stream && dirty.has('render')) this.#loadCriticalCodeNow();
    const notes = new Map<Stage, string>();
    const times: StageTimes = {};
    const failures = new Map<Stage, unknown>();
    const started = new Map<Stage, Promise<boolean>>();
    // Each stage waits for what it needs, so independent stages overlap (the stylesheet compiles while the site loads).
    const start = (stage: Stage): Promise<boolean> => {
      let running = started.get(stage);
      if (!running) {
        running = (async () => {
          const ready = await Promise.all(this.#needs(stage).map(start));
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
    // The dev server's main thread waits for esbuild while the site's code loads: it loads the code then.
    const criticalNeeds = this.#options.mode === 'dev' ? [start('stylesheet')] : [start('stylesheet'), start('render')];
    const critical = Promise.all(criticalNeeds).then(async (needs) => {
      if (!needs.every(Boolean)) return 0;
      await new Promise((resolve) => setImmediate(resolve)); // the bundle stage hands esbuild its work first
      const began = performance.now();
      this.#criticalCode ??= await loadCriticalCode();
      times.critical = Math.round(performance.now() - began);
      // Each page's critical CSS is selected with its document: by page shape, so once per template (see #criticalOf).
      return 0;
    });
    // Images are encoded (or read back) while critical CSS's code loads: a build needs the files of every page.
    const images = ready.then((stages) =>
      this.#options.mode === 'build' && stages.every(Boolean)
        ? this.#images.files(imagesOf(this.#rendered!), this.#options.onImages).catch((error: unknown) => {
            throw withPagesShowing(error, this.#rendered!);
          })
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
      const output = this.#output(await images);
      times.assemble = Math.round(performance.now() - began);
      return { ok: true, output, stages, rebuilt, times };
    } catch (error) {
      return { ok: false, error, stages, rebuilt, times };
    }
  }

  /**
   * What a stage waits for in this mode: NEEDS, but the dev server's scripts bundle every island in the folder, whatever
   * the pages use, so they are bundled while the site's code loads rather than after it (the first page comes sooner).
   */
  #needs(stage: Stage): readonly Stage[] {
    return this.#options.mode === 'dev' && stage === 'bundle' ? ['config'] : NEEDS[stage];
  }

  /**
   * Build: lets go, once every page is written (see buildSite), of what only the making of the pages reads: the
   * rendered pages' records, the site's routes as planned (with their map by file, and a Markdown site's entries), and
   * the client bundle's scripts by page. At 100,003 pages the plans, the two maps and the strings only they held were
   * 15 MB of heap while the build record and the cache index were saved.
   */
  releasePages(): void {
    if (this.#options.mode !== 'build') return;
    this.#rendered = undefined;
    this.#site = undefined;
    this.#client = undefined;
  }

  /** Frees esbuild's kept contexts and removes the content modules from the cache folder. */
  async dispose(): Promise<void> {
    await this.#scratch?.dispose();
    await this.#esbuild?.dispose();
    await this.#siteLoader.dispose();
    this.#reads?.dispose();
  }

  /** Runs one stage, keeping its result; returns what it did, in words. */
  async #work(stage: Stage): Promise<string> {
    const { paths, base } = this.#options;
    switch (stage) {
      case 'config': {
        const loading = loadConfig(paths.config);
        loading.catch(() => undefined);
        this.#configLoad = loading;
        this.#config = await loading;
        return 'config';
      }
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
        this.#cssFile = stylesheetFile(this.#stylesheet.css);
        return 'CSS';
      }
      case 'content': {
        const reads = this.#reads;
        const load = async (): Promise<SiteState> => {
          // esbuild compiles the site's code on the other core while this one renders the Markdown bodies.
          const loading = this.#siteLoader.load();
          loading.catch(() => undefined);
          await this.#markdown.prepare();
          const site = await loading;
          // The config loads beside the content: bodies were rendered with the last config's picture settings, and
          // those with pictures are rendered again if this one's differ (a first build's, when the config sets them).
          const config = await this.#configLoad?.catch(() => undefined);
          if (config) this.#markdown.showImages(config.markdown.images);
          const markdown = await this.#markdown.load(site.collections);
          const content = { ...validateContent(paths, site, this.#parsed), ...markdown.content };
          const pageContent = reads ? reads.track('c', content) : content;
          const previous = this.#site;
          const { routes, unchanged } = planRoutes(
            paths,
            resolveRoutes(site.routes, pageContent, relative(paths.root, paths.routes)),
            previous?.routes,
          );
          return {
            // With reads recorded, a render's key names the code only: what it read of the content is checked apart.
            code: reads ? site.code : hash(site.hash, markdown.hash),
            routes,
            byFile: new Map(routes.map((plan) => [plan.file, plan])),
            // Kept across a watch session's loads while the routes are unchanged (made anew, 10,000 routes took ~8 ms).
            linkFiles:
              this.#options.mode !== 'dev'
                ? undefined
                : unchanged && previous?.linkFiles
                  ? previous.linkFiles
                  : new Map(routes.map((plan) => [linkPath(plan.path), plan.file])),
            head: site.head,
            errorScreen: site.errorScreen,
            content,
            pageContent,
            inputs: [...site.inputs, ...markdown.inputs],
          };
        };
        // What the site's code reads of the content as it loads and makes its routes, every page may depend on.
        this.#site = reads ? await reads.recordSite(load) : await load();
        // Now that the build knows its pages, its heap may grow as far as their number allows (see growthFor).
        if (this.#options.mode === 'build') heapGrowthFor(this.#site.routes.length);
        return 'site code';
      }
      case 'render': {
        if (this.#options.mode === 'dev') {
          this.#onRequest.clear();
          return 'pages on request';
        }
        this.#rendered = await this.#renderAll();
        // What the render held for itself (the pages' reads, stored by now) is garbage: collected before the steps
        // after it allocate on top of it.
        collectLetGo(this.#rendered.length);
        const islands = islandsKey(this.#rendered);
        if (islands !== this.#islands) this.#dirty.add('bundle');
        this.#islands = islands;
        return `${this.#rendered.length} pages`;
      }
      case 'bundle': {
        if (this.#options.mode === 'dev') {
          this.#client = await this.#bundle([devEntry(paths)]);
          return 'scripts';
        }
        const pages = this.#rendered!.map(({ path, entry, islands }) => ({ name: entry, path, islands }));
        const entries = uniqueEntries(pages);
        // The bundle made while the pages rendered is the one: the later pages used no other set of islands.
        const speculated = this.#speculated;
        const kept =
          speculated && JSON.stringify(speculated.entries) === JSON.stringify(entries)
            ? await speculated.client
            : undefined;
        this.#client = scriptsForPages(kept ?? (await this.#bundle(entries)), pages);
        return 'scripts';
      }
    }
  }

  /**
   * The client bundle of `entries` (one page for each set of islands, see uniqueEntries), or the one kept in the cache
   * for them; its files start compressing at once.
   */
  async #bundle(entries: PageIslands[]): Promise<ClientBundle> {
    const { paths, base } = this.#options;
    const dev = this.#options.mode === 'dev';
    const options = {
      root: paths.root,
      islandsDir: paths.islands,
      behavioursDir: paths.behaviours,
      pages: entries,
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
      cache && hash(toolVersionKey(), JSON.stringify({ ...options, cache: undefined }), islandFiles(paths).join('\n'));
    const kept = key ? cache!.bundle(key) : undefined;
    const client = kept ?? (await bundleClient(options));
    if (key && !kept) cache!.setBundle(key, client);
    const compressor = this.#options.compressor;
    // Biggest first: the compressions queue on the compression threads, and React's chunk (brotli 11, ~0.2 s) queued
    // behind the small ones would end the build that much later.
    const bySize = [...client.files].sort(([, a], [, b]) => b.byteLength - a.byteLength);
    if (compressor) for (const [file, data] of bySize) void compressor.compress(file, data);
    return client;
  }

  /**
   * Build: renders every page, or reads its render back from the page cache. Each render goes to the cache (a scratch
   * one with --no-cache) unless it is the last build's, and memory keeps only what the later steps read of it, the same
   * arrays shared by every page that has them. Hands the event loop back now and then, so a progress display can draw.
   *
   * With a stream, documents are made while pages render: once the first pages have rendered, their islands are
   * bundled (on esbuild's own thread) while rendering goes on, and from then on each page whose islands that bundle has
   * goes to the stream with its render still in memory, so its compression and writing use the other core while this
   * one renders. The bundle stage takes that bundle when no later page used another set of islands; the stream makes
   * again, at the end, any page whose document the final bundle changes (see PageWriter in build.ts).
   */
  async #renderAll(): Promise<RenderedPages> {
    const { base, onProgress, stream } = this.#options;
    const cache = this.#options.cache!;
    const site = this.#site!;
    const props = { site: this.#config!.site, content: site.pageContent };
    const reads = this.#reads;
    const sink = reads && cache.readsSink();
    const records = reads && new ReadRecords(reads, cache.reads(), sink);
    // Island props' content objects, made into JSON once for every page (see ContentReads.memo).
    const memo: PropsMemo | undefined = reads && ((value, compute) => reads.memo(value, compute));
    // The image files <Image> may show, as a root of the content: each page depends on those it shows (see
    // #imageReader). A build always records reads (its tracker is made with the pipeline, see the constructor).
    const imageFiles = reads?.track(
      'i',
      imageFingerprints(this.paths.root, [dirname(this.paths.routes), this.paths.content]),
    );
    const siteKey = siteRenderKey(site.code, this.#config, base);
    const routes = site.routes;
    const rendered = new RenderedPages(routes);
    const lastRenders = this.#options.lastRenders;
    const early = stream && this.#earlyDocuments(rendered);
    let yielded = performance.now();
    for (const [index, plan] of routes.entries()) {
      const key = renderKey(siteKey, plan.path);
      const began = performance.now();
      // With reads recorded the key names no content: the render kept under it is current while all it read is the same.
      const unchanged = records?.unchanged(key);
      let page = !records || unchanged ? cache.render(key) : undefined;
      let pageHash: string;
      let shape: PageShape | undefined;
      if (page) {
        cache.counts.kept += 1;
        cache.keepLinks(plan.file);
        records?.keep(key);
        pageHash = this.#renderHash(plan, page, unchanged?.html);
      } else {
        // Links and ids are read from the HTML once: a page that renders as in the last build takes them from there.
        let htmlHash: string | undefined;
        const collect = (html: string) => {
          htmlHash = hash(html);
          const kept = cache.links(plan.file, htmlHash);
          if (kept) return kept;
          const read = this.#readPage(html);
          shape = read.shape;
          cache.setLinks(plan.file, htmlHash, read.found);
          return read.found;
        };
        const render = () =>
          renderPage(
            plan.route,
            { ...props, path: plan.path },
            {
              base,
              images: this.#imageReader(imageFiles),
              collect,
              memo,
            },
          );
        // Its head and its pictures (a Markdown entry's, its `images`) may hold content objects: kept as plain data,
        // read whole within the render. The cache stores only plain data: one Proxy in a render, and nothing more was
        // stored for the rest of the build (a site with a Markdown picture rendered every page on every build).
        const made = reads?.record(() => {
          const rendered = render();
          return { ...rendered, head: reads.snapshot(rendered.head), images: reads.snapshot(rendered.images) };
        });
        page = made ? made.value : render();
        pageHash = this.#renderHash(plan, page, htmlHash);
        if (records && made && records.recordable(made.reads)) {
          // Kept for as long as what it read stays the same: unless the same render is kept under its key already.
          if (records.lastHash(key) === pageHash) cache.keepRender(key);
          else cache.setRender(key, page);
          records.set(key, { hash: pageHash, html: htmlHash! }, made.reads);
        }
        // A page that renders as it did in the last build is not kept again (it could not be reused: see render-reads.ts).
        else if (lastRenders?.get(plan.file) !== pageHash) cache.setRender(key, page);
        if (cache.keeps) cache.counts.made += 1;
      }
      // Every property named, in one order, `shape` included: one object layout for every page (see RenderedPages.at).
      const route = rendered.push({
        route: plan.route,
        path: plan.path,
        file: plan.file,
        entry: plan.entry,
        key,
        hash: pageHash,
        islands: page.islands,
        links: page.links,
        ids: page.ids,
        images: page.images,
        noindex: !!page.head.noindex,
        ms: performance.now() - began,
        shape,
      });
      const waiting = early?.(route, index, page);
      if (waiting) await waiting;
      if (performance.now() - yielded > YIELD_EVERY_MS) {
        onProgress?.(rendered.length, routes.length);
        await new Promise((resolve) => setImmediate(resolve));
        yielded = performance.now();
      }
    }
    onProgress?.(rendered.length, routes.length);
    if (records) {
      records.finish();
      sink!.done();
      // A build renders once: its reads, stored, are let go before the pages are written.
      reads!.done();
    }
    return rendered;
  }

  /**
   * Build: what #renderAll hands each rendered page to, when a stream takes pages early. A page without islands loads
   * no script, so its document owes nothing to the client bundle: it goes to the stream as soon as everything else a
   * document is made from is ready, while the bundle is still being made. A page with islands waits for the bundle,
   * started after the first SPECULATE_AFTER pages: its renders are held (HELD_AT_MOST) until then, and from then on
   * each page whose islands that bundle has goes to the stream.
   */
  #earlyDocuments(
    rendered: RenderedPages,
  ): (route: RenderedRoute, index: number, page: RenderedPage) => Promise<void> | undefined {
    const stream = this.#options.stream!;
    const total = this.#site!.routes.length;
    // The entry of the first page of each set of islands: a later page with the same set shares its scripts.
    const first = new Map<string, string>();
    let bundled: ClientBundle | undefined;
    let documents: Documents | undefined;
    // Documents for pages without islands, made before the bundle (its scripts are never asked for: see scriptsOf).
    let scriptless: Documents | undefined;
    let held: Array<{ route: RenderedRoute; index: number; page: RenderedPage }> = [];
    const scriptsOf = (route: DocumentPage) =>
      route.islands.length > 0 ? bundled?.pages.get(first.get(entryKey(route)) ?? '') : undefined;
    const ready = (route: RenderedRoute) => route.islands.length === 0 || scriptsOf(route) !== undefined;
    const send = async (pages: typeof held) => {
      for (const { route, index, page } of pages) {
        const waiting = ready(route) ? stream.page(route, index, documents!, page) : undefined;
        if (waiting) await waiting;
      }
    };
    return (route, index, page) => {
      if (route.islands.length > 0 && !first.has(entryKey(route))) first.set(entryKey(route), route.entry);
      if (!this.#speculated && rendered.length >= Math.min(SPECULATE_AFTER, total)) {
        const pages = rendered.map(({ path, entry, islands }) => ({ name: entry, path, islands }));
        const entries = uniqueEntries(pages);
        // A bundle that fails is made again, and its error reported, by the bundle stage.
        const client = this.#bundle(entries).then(
          (made) => (bundled = made),
          () => undefined,
        );
        this.#speculated = { entries, client };
      }
      if (!documents && this.#documentsReady()) {
        if (bundled) {
          documents = this.#documents(bundled, scriptsOf);
          const waiting = send(held);
          held = [];
          return waiting.then(() => send([{ route, index, page }]));
        }
        if (route.islands.length === 0) {
          scriptless ??= this.#documents(noScripts(), () => undefined);
          return stream.page(route, index, scriptless, page);
        }
      }
      if (documents) return ready(route) ? stream.page(route, index, documents, page) : undefined;
      if (held.length < HELD_AT_MOST) held.push({ route, index, page });
      return undefined;
    };
  }

  /** What a page rendered to, with what the site's head hook gives it: see renderHash. */
  #renderHash(plan: PlannedRoute, page: RenderedPage, htmlHash?: string): string {
    const site = this.#site!;
    const { base } = this.#options;
    const head = siteHead(site.head, {
      site: this.#config!.site,
      content: site.content,
      path: plan.path,
      base,
      head: page.head,
    });
    return renderHash(page, plan.file, head, htmlHash);
  }

  /**
   * A page's links and ids, and its shape (see #criticalOf) when the stylesheet is compiled: both read in one parse of
   * its HTML, by their two readers (render.tsx's and critical/shape.ts's).
   */
  #readPage(html: string): { found: { links: string[]; ids: string[] }; shape?: PageShape } {
    const links = linkReader();
    // Before the stylesheet is compiled (it compiles while the site's code loads, so rarely), links only.
    const attributes = this.#stylesheet && !this.#dirty.has('stylesheet') ? this.#shapeAttributes() : undefined;
    if (!attributes) {
      scanHtml(html, [links.reader]);
      return { found: links.found };
    }
    const shape = shapeReader(attributes);
    scanHtml(html, [links.reader, shape.reader]);
    const hash = shape.shape();
    const { shapes } = this.#byShape;
    let known = shapes.get(hash);
    if (!known) shapes.set(hash, (known = { of: attributes, hash }));
    return { found: links.found, shape: known };
  }

  /** What of a page's attributes its shape reads, for the stylesheet as last compiled (see #byShape). */
  #shapeAttributes(): Set<string> {
    const css = this.#stylesheet!.css;
    if (this.#byShape.css !== css)
      this.#byShape = {
        css,
        attributes: matchedAttributes(css),
        critical: new Map(),
        fonts: new Map(),
        shapes: new Map(),
      };
    return this.#byShape.attributes;
  }

  /**
   * Critical CSS by page shape: pages of one template share a shape, so the rules are selected once for all of them.
   * `read`: the page's shape as read with its links, if it was (used when read for the stylesheet as it is now).
   */
  #criticalOf(html: string, read?: PageShape): { critical: string; fonts: string[]; derived: boolean } {
    const css = this.#stylesheet!.css;
    const { criticalCss, fontsAfterPaint } = this.#criticalCode!;
    const attributes = this.#shapeAttributes();
    const { critical: byShape, fonts } = this.#byShape;
    const shape = read?.of === attributes ? read.hash : pageShape(html, attributes);
    let critical = byShape.get(shape);
    const derived = critical === undefined;
    if (critical === undefined) {
      critical = criticalCss(css, html);
      byShape.set(shape, critical);
    }
    let fontsOf = fonts.get(critical);
    if (!fontsOf) fonts.set(critical, (fontsOf = fontsAfterPaint(css, critical)));
    return { critical, fonts: fontsOf, derived };
  }

  /** Dev: the page's critical CSS, kept while its HTML and the stylesheet stay the same. */
  #criticalFor(file: string, html: string): { critical: string; fonts: string[] } {
    const css = this.#stylesheet!.css;
    const kept = this.#critical.get(file);
    if (kept?.css === css && kept.html === html) {
      return { critical: kept.critical, fonts: this.#byShape.fonts.get(kept.critical) ?? [] };
    }
    const made = this.#criticalOf(html);
    if (made.derived) this.#derivedOnRequest += 1;
    this.#critical.set(file, { css, html, critical: made.critical });
    return made;
  }

  /** The one assembly of a page, for the build and the dev server alike: the template around its render. */
  #document(
    plan: PlannedRoute,
    page: RenderedPage,
    critical: { critical: string; fonts: string[] },
    scripts: PageScripts | undefined,
    captureScript: string,
  ): string {
    const { paths, base, extraScripts } = this.#options;
    const site = this.#site!;
    return pageDocument({
      config: this.#config!,
      base,
      route: plan.route,
      page,
      template: this.#template!,
      paths,
      scripts,
      captureScript,
      critical: critical.critical,
      fontsAfterPaint: critical.fonts,
      cssFile: this.#cssFile!,
      head: { hook: site.head, content: site.content },
      extraScripts,
    });
  }

  /** Every output file but the pages, which may not take a public file's path (reported now). */
  #otherFiles(indexed: string[] | undefined, images?: ReadonlyMap<string, Uint8Array>): OutputFiles {
    const config = this.#config!;
    return assembleOutput({
      publicFiles: this.#publicFiles!,
      stylesheet: this.#stylesheet!,
      cssFile: this.#cssFile!,
      client: this.#client!,
      pageFiles: this.#site!.byFile,
      site: config.site,
      indexed,
      headers: config.headers,
      images,
    });
  }

  /**
   * How a render's <Image> reads its file: through the store, so each file is read once while it stays the same. With
   * `files`, the image files' fingerprints as the content tracker gives them (see imageFingerprints), the render reads
   * the one it shows there too: the page is rendered again when that file is replaced, and not for any other file.
   * They are every file <Image> may show (it takes none outside src/site/ and content/).
   */
  #imageReader(files?: Record<string, string>) {
    const { root } = this.paths;
    const sources = this.#images.sources;
    return {
      root,
      source: (file: string, shown: string, from?: string) => {
        if (files) readFingerprint(files, relative(root, resolve(file)));
        return sources.read(file, shown, from);
      },
    };
  }

  #inputs(): string[] {
    const { paths } = this.#options;
    const { site, css, client } = this.reads;
    return [...new Set([paths.config, ...site, ...css, ...client, paths.template])].sort();
  }

  /** Whether everything a document is made from but the client bundle is ready: template, stylesheet, critical CSS's code. */
  #documentsReady(): boolean {
    const dirty = this.#dirty;
    return !!this.#criticalCode && !dirty.has('template') && !dirty.has('stylesheet') && !dirty.has('config');
  }

  /** Loads critical CSS's code now rather than after the pages (for documents made while pages render). */
  #loadCriticalCodeNow(): void {
    loadCriticalCode().then(
      (code) => (this.#criticalCode = code),
      () => undefined, // run() loads it again and reports the failure
    );
  }

  /** Build: a page's render, read back from the page cache (or, when the build did not keep it, rendered again). */
  #renderOf(page: PlannedRoute & { key?: string }): RenderedPage {
    const kept = page.key ? this.#options.cache!.render(page.key) : undefined;
    if (kept) return kept;
    // Not kept: it rendered as in the last build (see lastRenders), and its document has changed since.
    const props = { ...this.#props(), path: page.path };
    return renderPage(page.route, props, { base: this.#options.base, images: this.#imageReader() });
  }

  /**
   * The one assembly of pages, for the build and the dev server alike: each page's critical CSS (dev: kept per page
   * while its HTML stays the same) and the template around its render, with the scripts `scriptsOf` finds in `client`.
   */
  #documents(client: ClientBundle, scriptsOf: (page: DocumentPage) => PageScripts | undefined): Documents {
    const dev = this.#options.mode === 'dev';
    const { base } = this.#options;
    const documentBase = documentBaseKey({
      template: this.#template!,
      templateFile: relative(this.paths.root, this.paths.template),
      cssFile: this.#cssFile!,
      css: this.#stylesheet!.css,
      extraScripts: this.#options.extraScripts ?? [],
      site: this.#config!.site,
      base,
    });
    return {
      client,
      key: (page) => {
        const scripts = scriptsOf(page);
        return documentKey(documentBase, page.hash, scripts && { scripts, captureScript: client.captureScript });
      },
      scripts: scriptsOf,
      make: (page, render = dev ? this.#renderOnRequest(page) : this.#renderOf(page)) => {
        const critical = dev ? this.#criticalFor(page.file, render.html) : this.#criticalOf(render.html, page.shape);
        const html = this.#document(page, render, critical, scriptsOf(page), client.captureScript);
        return { html, criticalBytes: Buffer.byteLength(critical.critical) };
      },
    };
  }

  /**
   * The run's output, one for the build and the dev server: every output file but the pages (which may not take a
   * public file's path), and the pages' documents, made by one assembly (#documents). A build has rendered its pages:
   * their links are checked now, from what their renders kept, and each page's document is made when asked for, one at
   * a time, so that a build streams its pages to the disk. The dev server renders a page when it is first read (a
   * PagesOnRequest): rendering every page before serving one would cost seconds on a big site; its links are checked
   * then, and its images encoded after it is served.
   */
  #output(images?: Map<string, Uint8Array>): PipelineOutput {
    const { base } = this.#options;
    const config = this.#config!;
    const client = this.#client!;
    const site = this.#site!;
    const rendered = this.#rendered;
    const dev = this.#options.mode === 'dev';
    // The dev server makes the sitemap on request: it asks every route's head whether the page is indexed.
    const indexed = rendered?.indexedPaths();
    const files = this.#otherFiles(indexed, images);
    const documents = this.#documents(client, (page) =>
      page.islands.length > 0 ? client.pages.get(dev ? 'dev' : page.entry) : undefined,
    );
    const known = { has: (file: string) => files.has(file) || site.byFile.has(file) };
    if (rendered)
      assertNoBrokenLinks(
        markdownSources(findBrokenLinks(rendered, known, base, rendered.linkTargets()), site.content),
      );
    const output: PipelineOutput = {
      config,
      files,
      pages: rendered ?? new RenderedPages([]),
      documents,
      render: (page) => (dev ? this.#renderOnRequest(page) : this.#renderOf(page)),
      client,
      stylesheet: base + this.#cssFile!,
      inputs: this.#inputs(),
    };
    if (!dev) return output;
    const props = this.#props();
    // A sitemap of parts (past 50,000 pages): they are served once their index is made, which a crawler reads first.
    const sitemap = () => {
      const indexed = site.routes.filter(({ route, path }) => !route.head({ ...props, path }).noindex);
      const made = sitemapFiles(
        config.site,
        indexed.map(({ path }) => path),
      );
      for (const [file, xml] of made) if (file !== SITEMAP_FILE) pages.set(file, xml);
      return made.get(SITEMAP_FILE)!;
    };
    const pages = new PagesOnRequest(
      files,
      site.byFile.keys(),
      (file) => {
        const plan = site.byFile.get(file)!;
        const render = this.#renderOnRequest(plan);
        // Its images are encoded after it is served (at once when an earlier run or build made them): a request for one
        // waits for its encoding (src/dev/output.ts), and the page does not wait for them all.
        if (render.images.length > 0)
          pages.setLater(
            render.images.map((job) => job.file),
            this.#encodeOnRequest(plan.path, render.images),
          );
        this.#checkOnRequest(plan, render, known);
        return documents.make({ ...plan, islands: render.islands }, render).html;
      },
      new Map([[SITEMAP_FILE, sitemap]]),
    );
    return { ...output, files: pages };
  }

  /**
   * Dev: the files of a served page's images, encoding those neither made nor cached yet; onImagesEncoded hears of
   * those (a photo's AVIF at a few widths takes seconds after the page was served: the terminal says when it is done).
   */
  #encodeOnRequest(path: string, jobs: ImageJob[]): Promise<Map<string, Uint8Array>> {
    const began = performance.now();
    let encoding: readonly ImageJob[] = [];
    const made = this.#images.files(jobs, (_done, _total, missing) => (encoding = missing));
    const told = this.#options.onImagesEncoded;
    if (told)
      made.then(
        () => {
          if (encoding.length === 0) return;
          const names = new Set(encoding.map((job) => relative(this.paths.root, job.source)));
          told({ path, sources: [...names].sort(), files: encoding.length, ms: performance.now() - began });
        },
        () => undefined, // the request for an image answers with the error (src/dev/output.ts)
      );
    return made;
  }

  /** The props every page renders with, but its path. */
  #props() {
    return { site: this.#config!.site, content: this.#site!.content };
  }

  /** Dev: a page's render, made when first asked for and kept until `render` reruns. */
  #renderOnRequest(plan: PlannedRoute): RenderedPage {
    let page = this.#onRequest.get(plan.file);
    if (!page) {
      const props = { ...this.#props(), path: plan.path };
      page = renderPage(plan.route, props, { base: this.#options.base, images: this.#imageReader() });
      this.#onRequest.set(plan.file, page);
    }
    return page;
  }

  /**
   * Dev: what a build checks of all its pages, for the page being served: the islands it names exist (the dev entry
   * bundles whatever is in the folder), and its links lead somewhere (another page is rendered only when a link needs
   * the ids on it).
   */
  #checkOnRequest(plan: PlannedRoute, page: RenderedPage, known: KnownFiles): void {
    const { paths, base } = this.#options;
    const site = this.#site!;
    if (page.islands.length > 0)
      entrySource(
        { islandsDir: paths.islands, behavioursDir: paths.behaviours },
        { name: 'dev', path: plan.path, islands: page.islands },
        paths.root,
      );
    const files = site.linkFiles!;
    const renderOnRequest = (other: PlannedRoute) => this.#renderOnRequest(other);
    // Another page's ids are its render's, rendered when a link asks for them.
    const targets: LinkTargets = {
      get(path) {
        const other = site.byFile.get(files.get(path) ?? '');
        return (
          other && {
            path: other.path,
            get ids() {
              return renderOnRequest(other).ids;
            },
          }
        );
      },
    };
    assertNoBrokenLinks(
      markdownSources(
        findBrokenLinks([{ path: plan.path, links: page.links, ids: page.ids }], known, base, targets),
        site.content,
      ),
    );
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

/**
 * The pages' script entries and the islands each uses, as a hash: the same hash, the same bundle. Not as one JSON text
 * (at 100,003 pages, 33 MB held from the render to the end of the build).
 */
function islandsKey(rendered: RenderedPages): string {
  const hashed = digest();
  for (const { entry, islands } of rendered) hashed.update(JSON.stringify([entry, islands])).update(',');
  return shortHex(hashed);
}

/** The image files every page shows, a page's after another's (as #images.files takes them). */
function imagesOf(rendered: RenderedPages): ImageJob[] {
  const jobs: ImageJob[] = [];
  for (const page of rendered) for (const job of page.images) jobs.push(job);
  return jobs;
}

/**
 * An image that failed as it was encoded (after the pages rendered), with the pages that show it named: the file is
 * what to replace, the page where to look. Any other error as it is.
 */
function withPagesShowing(error: unknown, rendered: RenderedPages): unknown {
  if (!(error instanceof ImageEncodingError)) return error;
  const pages: string[] = [];
  for (const page of rendered) if (page.images.some((job) => job.source === error.source)) pages.push(page.path);
  if (pages.length === 0) return error;
  const more = pages.length > 1 ? ` and ${pages.length - 1} more page${pages.length > 2 ? 's' : ''}` : '';
  return new ContentError(`${error.message} It is shown on ${pages[0]}${more}.`, { cause: error.cause });
}

/** `file`'s fingerprint, read through the content tracker (see Pipeline#imageReader): the read is the page's. */
function readFingerprint(files: Record<string, string>, file: string): string | undefined {
  return files[file];
}
