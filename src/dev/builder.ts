// The dev server's build: keeps each stage's last result in memory and reruns only the stages a change reaches.
import {
  assembleOutput,
  checkLinks,
  checkRoutes,
  clientPages,
  entryName,
  pageDocument,
  readTemplate,
  renderRoutes,
  routeFile,
  stylesheetFile,
  type RenderedRoute,
} from '../build/build.ts';
import { bundleClient, type ClientBundle } from '../build/bundle.ts';
import { loadConfig } from '../build/config.ts';
import { criticalCss } from '../build/critical.ts';
import { compileStylesheet, type CompiledStylesheet } from '../build/css.ts';
import { EsbuildCache } from '../build/esbuild-cache.ts';
import { findModule, type ProjectPaths } from '../build/paths.ts';
import { loadSite, validateContent } from '../build/site-module.ts';
import { esbuildTargets, resolveBrowsers } from '../build/targets.ts';
import { readTree, type OutputFiles } from '../build/write.ts';
import type { SiteConfig } from '../config.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import type { HeadHook } from '../head.ts';
import type { Route } from '../routes.ts';
import { STAGES, type InputIndex, type Stage } from './invalidate.ts';

export interface DevBuilderOptions {
  paths: ProjectPaths;
  /** External scripts every page loads: the reload client. */
  extraScripts: string[];
}

/** What the browser should do about a rebuild: nothing (same output), swap the stylesheet, or reload the page. */
export type Change = 'none' | 'css' | 'page';

/**
 * `stages`: the stages that ran and succeeded; `rebuilt`: the same in words, with what the pages needed;
 * `changed`: the output files added, removed or altered since the last good build.
 */
export type RebuildOutcome =
  | { ok: true; change: Change; changed: string[]; stages: Stage[]; rebuilt: string[]; ms: number }
  | { ok: false; error: unknown; stages: Stage[]; rebuilt: string[]; ms: number };

/** The last good output: every file (public/ included, nothing precompressed) and the full stylesheet's URL. */
export interface DevOutput {
  files: OutputFiles;
  stylesheet: string;
}

interface SiteState {
  routes: Route[];
  head?: HeadHook;
  errorScreen?: ErrorScreenComponent;
  content: Record<string, unknown>;
  inputs: string[];
}

// The dev server serves at the root; links, assets and scripts are built for it.
const BASE = '/';

export class DevBuilder {
  readonly paths: ProjectPaths;
  readonly #extraScripts: string[];
  /** Stages whose result is missing or stale: every stage before the first build, and a failed stage until it succeeds. */
  readonly #dirty = new Set<Stage>(STAGES);
  readonly #clientCache = new EsbuildCache();
  /** Each page's critical CSS with the stylesheet and HTML it came from: kept while neither changes. */
  readonly #critical = new Map<string, { css: string; html: string; critical: string }>();
  #config: SiteConfig | undefined;
  #template: string | undefined;
  #publicFiles: OutputFiles | undefined;
  #stylesheet: CompiledStylesheet | undefined;
  #site: SiteState | undefined;
  #rendered: RenderedRoute[] | undefined;
  #islands: string | undefined;
  #client: ClientBundle | undefined;
  #output: DevOutput | undefined;
  #failure: { error: unknown } | undefined;

  constructor(options: DevBuilderOptions) {
    this.paths = options.paths;
    this.#extraScripts = options.extraScripts;
  }

  /** The last good output, if any build has succeeded. */
  get output(): DevOutput | undefined {
    return this.#output;
  }

  /** The last rebuild's error, while it stands. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  get config(): SiteConfig | undefined {
    return this.#config;
  }

  /** What the error page is made of: the site's template and error screen as last loaded, each absent until it loads. */
  get errorParts(): { template?: string; errorScreen?: ErrorScreenComponent } {
    return { template: this.#template, errorScreen: this.#site?.errorScreen };
  }

  /** The stylesheet as last compiled (newer than the last good output's when a later stage failed), as output files. */
  stylesheetFiles(): { url: string; files: OutputFiles } | undefined {
    if (!this.#stylesheet) return undefined;
    const file = stylesheetFile(this.#stylesheet.css);
    const files: OutputFiles = new Map([[file, this.#stylesheet.css]]);
    for (const asset of this.#stylesheet.assets) files.set(asset.fileName, asset.source);
    return { url: BASE + file, files };
  }

  /** The files each stage read, for mapping a change to the stages it invalidates. */
  inputs(): InputIndex {
    const { paths } = this;
    return {
      config: paths.config,
      template: paths.template,
      publicDir: paths.public,
      contentDir: paths.content,
      islandsDir: paths.islands,
      site: new Set(this.#site?.inputs ?? []),
      css: new Set(this.#stylesheet?.dependencies ?? []),
      client: new Set(this.#client?.inputs ?? []),
    };
  }

  /**
   * Reruns the `changed` stages, the stages that depend on them, and any stage a failure left stale, then the pages.
   * Never throws: a failure is returned and kept (see `failure`) until a rebuild succeeds; the last good output stays.
   */
  async rebuild(changed: Iterable<Stage> = []): Promise<RebuildOutcome> {
    const started = performance.now();
    const dirty = this.#dirty;
    for (const stage of changed) dirty.add(stage);
    if (dirty.has('config')) for (const stage of ['css', 'render', 'client'] as const) dirty.add(stage);
    if (dirty.has('site')) dirty.add('render');

    const stages: Stage[] = [];
    const rebuilt: string[] = [];
    const errors: unknown[] = [];
    // A stage runs when it is stale and what it needs is not; one that throws stays stale, and so do those after it.
    const step = async (stage: Stage, needs: Stage[], work: () => Promise<string> | string) => {
      if (!dirty.has(stage) || needs.some((need) => dirty.has(need))) return;
      try {
        rebuilt.push(await work());
        stages.push(stage);
        dirty.delete(stage);
      } catch (error) {
        errors.push(error);
      }
    };
    const { paths } = this;

    await step('config', [], async () => {
      this.#config = await loadConfig(paths.config);
      return 'config';
    });
    await step('template', [], async () => {
      this.#template = await readTemplate(paths);
      return 'template';
    });
    await step('public', [], async () => {
      this.#publicFiles = await readTree(paths.public);
      return 'public/';
    });
    await step('css', ['config'], async () => {
      this.#stylesheet = await compileStylesheet({ entry: paths.stylesheet, browserslist: this.#config!.build.browserslist, base: BASE });
      return 'CSS';
    });
    await step('site', [], async () => {
      const site = await loadSite(paths);
      const content = validateContent(paths, site);
      this.#site = { routes: checkRoutes(paths, site.routes), head: site.head, errorScreen: site.errorScreen, content, inputs: site.inputs };
      return 'site code';
    });
    await step('render', ['config', 'site'], () => {
      this.#rendered = renderRoutes(this.#site!.routes, { site: this.#config!.site, content: this.#site!.content }, BASE);
      // The browser bundle depends on the pages only through which islands each one uses.
      const islands = JSON.stringify(this.#rendered.map(({ route, page }) => [entryName(route), page.islands]));
      if (islands !== this.#islands) dirty.add('client');
      this.#islands = islands;
      return `${this.#rendered.length} pages`;
    });
    await step('client', ['config', 'render'], async () => {
      this.#client = await bundleClient({
        root: paths.root,
        islandsDir: paths.islands,
        pages: clientPages(this.#rendered!),
        target: esbuildTargets(resolveBrowsers(this.#config!.build.browserslist)),
        base: BASE,
        errorScreen: findModule(paths.errorScreen),
        // Readable stack traces in the browser, and a faster rebuild; budgets are for `site-gen build`.
        minify: false,
        cache: this.#clientCache,
      });
      return 'scripts';
    });
    if (errors.length > 0) return this.#fail(errors[0], stages, rebuilt, started);

    try {
      const { files, critical } = this.#pages();
      if (critical > 0) rebuilt.push(`critical CSS ×${critical}`);
      const previous = this.#output;
      const wasFailing = this.#failure !== undefined;
      this.#output = { files, stylesheet: BASE + stylesheetFile(this.#stylesheet!.css) };
      this.#failure = undefined;
      const changed = previous ? changedFiles(previous.files, files) : [...files.keys()];
      return { ok: true, change: changeOf(changed, stages, !previous || wasFailing), changed, stages, rebuilt, ms: elapsed(started) };
    } catch (error) {
      return this.#fail(error, stages, rebuilt, started);
    }
  }

  /** Frees esbuild's kept context. */
  async dispose(): Promise<void> {
    await this.#clientCache.dispose();
  }

  /** Every page's document and the whole output, checked for broken links; `critical` counts pages whose critical CSS was derived anew. */
  #pages(): { files: OutputFiles; critical: number } {
    const config = this.#config!;
    const stylesheet = this.#stylesheet!;
    const rendered = this.#rendered!;
    const cssFile = stylesheetFile(stylesheet.css);
    let derived = 0;
    const pages = rendered.map(({ route, page }) => {
      const file = routeFile(route);
      let kept = this.#critical.get(file);
      if (kept?.css !== stylesheet.css || kept.html !== page.html) {
        kept = { css: stylesheet.css, html: page.html, critical: criticalCss(stylesheet.css, page.html) };
        this.#critical.set(file, kept);
        derived += 1;
      }
      const html = pageDocument({
        config,
        base: BASE,
        route,
        page,
        template: this.#template!,
        paths: this.paths,
        client: this.#client!,
        critical: kept.critical,
        cssFile,
        head: { hook: this.#site!.head, content: this.#site!.content },
        extraScripts: this.#extraScripts,
      });
      return { file, html };
    });
    const files = assembleOutput({
      publicFiles: this.#publicFiles!,
      stylesheet,
      cssFile,
      client: this.#client!,
      pages,
      site: config.site,
      indexed: rendered.filter(({ page }) => !page.head.noindex).map(({ route }) => route.path),
    });
    checkLinks(rendered, files, BASE);
    return { files, critical: derived };
  }

  #fail(error: unknown, stages: Stage[], rebuilt: string[], started: number): RebuildOutcome {
    this.#failure = { error };
    return { ok: false, error, stages, rebuilt, ms: elapsed(started) };
  }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}

/**
 * What the browser must do: reload when the pages were not showing this output (first build, or a failure fixed) or
 * when anything but the stylesheet changed; swap the stylesheet when only the CSS stage ran (its pages then differ
 * only in their critical CSS, which the full sheet covers); nothing when no file changed.
 */
export function changeOf(changed: string[], stages: Stage[], pagesStale: boolean): Change {
  if (pagesStale) return 'page';
  if (changed.length === 0) return 'none';
  return stages.length === 1 && stages[0] === 'css' ? 'css' : 'page';
}

/** The paths whose file was added, removed or altered between two outputs, sorted. */
export function changedFiles(before: OutputFiles, after: OutputFiles): string[] {
  const changed = new Set<string>();
  for (const [path, data] of after) if (!sameBytes(data, before.get(path))) changed.add(path);
  for (const path of before.keys()) if (!after.has(path)) changed.add(path);
  return [...changed].sort();
}

function sameBytes(a: Uint8Array | string, b: Uint8Array | string | undefined): boolean {
  if (a === b) return true; // a stage that did not run hands on the very same data
  if (b === undefined) return false;
  if (typeof a === 'string' && typeof b === 'string') return false;
  const bytes = (data: Uint8Array | string) => (typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return bytes(a).equals(bytes(b));
}
