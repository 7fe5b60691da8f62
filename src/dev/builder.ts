// The dev server's build: the pipeline kept between rebuilds, each change rerunning only the stages it reaches.
import { stylesheetFile } from '../pipeline/assemble.ts';
import type { ProjectPaths } from '../core/paths.ts';
import { PageCache } from '../pipeline/page-cache.ts';
import type { PagesOnRequest } from '../pipeline/pages-on-request.ts';
import { Pipeline, type PipelineOptions, type Stage } from '../pipeline/pipeline.ts';
import type { OutputFiles } from '../pipeline/write.ts';
import type { SiteConfig } from '../core/config.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import type { InputIndex } from './invalidate.ts';

export interface DevBuilderOptions {
  paths: ProjectPaths;
  /** External scripts every page loads: the reload client. */
  extraScripts: string[];
  /** Told once a served page's images are made, when any had to be encoded (see PipelineOptions.onImagesEncoded). */
  onImagesEncoded?: PipelineOptions['onImagesEncoded'];
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

/**
 * The last good output: every file (public/ included, nothing precompressed), each page rendered when first read, and
 * the full stylesheet's URL.
 */
export interface DevOutput {
  files: PagesOnRequest;
  stylesheet: string;
}

// The dev server serves at the root; links, assets and scripts are built for it.
const BASE = '/';

/**
 * Pages read from the last output (the pages open in a browser, most likely) that a rebuild renders again at once, so
 * that it can tell them whether they changed and fail when one of them no longer renders. The rest wait for a request.
 */
const LIVE_PAGES = 16;

export class DevBuilder {
  readonly paths: ProjectPaths;
  readonly #pipeline: Pipeline;
  /** The dev script bundle kept between sessions: a new session serves its first page without waiting for esbuild. */
  readonly #cache: PageCache;
  #output: DevOutput | undefined;
  #failure: { error: unknown } | undefined;

  constructor(options: DevBuilderOptions) {
    this.paths = options.paths;
    this.#cache = PageCache.open(options.paths.cache, options.paths.config, BASE, 'dev');
    this.#pipeline = new Pipeline({
      paths: options.paths,
      base: BASE,
      mode: 'dev',
      extraScripts: options.extraScripts,
      cache: this.#cache,
      onImagesEncoded: options.onImagesEncoded,
    });
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
    return this.#pipeline.config;
  }

  /** What the error page is made of: the site's template and error screen as last loaded, each absent until it loads. */
  get errorParts(): { template?: string; errorScreen?: ErrorScreenComponent } {
    return this.#pipeline.errorParts;
  }

  /** The stylesheet as last compiled (newer than the last good output's when a later stage failed), as output files. */
  stylesheetFiles(): { url: string; files: OutputFiles } | undefined {
    const stylesheet = this.#pipeline.stylesheet;
    if (!stylesheet) return undefined;
    const file = stylesheetFile(stylesheet.css);
    const files: OutputFiles = new Map([[file, stylesheet.css]]);
    for (const asset of stylesheet.assets) files.set(asset.fileName, asset.source);
    return { url: BASE + file, files };
  }

  /** The files each stage read, for mapping a change to the stages it invalidates. */
  inputs(): InputIndex {
    const { paths } = this;
    const reads = this.#pipeline.reads;
    return {
      config: paths.config,
      template: paths.template,
      publicDir: paths.public,
      contentDir: paths.content,
      islandsDir: paths.islands,
      behavioursDir: paths.behaviours,
      site: new Set(reads.site),
      css: new Set(reads.css),
      client: new Set(reads.client),
    };
  }

  /**
   * Reruns the `changed` stages, the stages that depend on them, and any stage a failure left stale, then the pages.
   * Never throws: a failure is returned and kept (see `failure`) until a rebuild succeeds; the last good output stays.
   */
  async rebuild(changed: Iterable<Stage> = []): Promise<RebuildOutcome> {
    const started = performance.now();
    const run = await this.#pipeline.run(changed);
    const { stages, rebuilt } = run;
    if (!run.ok) {
      this.#failure = { error: run.error };
      return { ok: false, error: run.error, stages, rebuilt, ms: elapsed(started) };
    }
    const files = run.output.files as PagesOnRequest;
    const previous = this.#output;
    const live = previous
      ? [...previous.files.made().keys()].filter((file) => files.isPage(file)).slice(-LIVE_PAGES)
      : [];
    try {
      for (const file of live) files.get(file);
    } catch (error) {
      this.#failure = { error };
      return { ok: false, error, stages, rebuilt, ms: elapsed(started) };
    }
    void this.#cache.save();
    const derived = this.#pipeline.criticalDerived;
    if (derived > 0) rebuilt.push(`critical CSS ×${derived}`);
    const wasFailing = this.#failure !== undefined;
    this.#output = { files, stylesheet: run.output.stylesheet };
    this.#failure = undefined;
    // Pages not rendered again are not open (or were not for a while): they show the new output when next requested,
    // as does the sitemap (made on request too).
    // Files the new output is still making (the open pages' images, named by their content) are not gone.
    const before =
      previous &&
      new Map(
        [...previous.files.made()].filter(
          ([file]) => (!files.onRequest(file) || live.includes(file)) && !files.later(file),
        ),
      );
    const changedPaths = before ? changedFiles(before, files.made()) : [...files.made().keys()];
    return {
      ok: true,
      change: changeOf(changedPaths, stages, !previous || wasFailing),
      changed: changedPaths,
      stages,
      rebuilt,
      ms: elapsed(started),
    };
  }

  /** Frees esbuild's kept context. */
  async dispose(): Promise<void> {
    await this.#pipeline.dispose();
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
  return stages.length === 1 && stages[0] === 'stylesheet' ? 'css' : 'page';
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
  const bytes = (data: Uint8Array | string) =>
    typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return bytes(a).equals(bytes(b));
}
