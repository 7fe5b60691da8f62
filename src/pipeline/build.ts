// `site-gen build`: the pipeline run once, then what only a build does: compress, check the budgets, write dist/ atomically.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import { DigestColumn } from '../core/columns.ts';
import { normaliseBase } from '../core/base-path.ts';
import { BuildRecord, type LastOutput, MadeKeys } from './build-record.ts';
import { assertWithinBudget, type PageWeight } from './check.ts';
import { byteLength, Compressor, shouldPrecompress, siblingIndex, siblingOf, withSiblings } from './compress.ts';
import { projectPaths } from '../core/paths.ts';
import { hash, PageCache } from './page-cache.ts';
import { collectLetGo } from './heap.ts';
import { PagesOnRequest } from './pages-on-request.ts';
import { PageReports, type ReportList } from './page-reports.ts';
import type { RenderedPages } from './rendered-pages.ts';
import type { ClientBundle, PageScripts } from './bundle.ts';
import type { RenderedPage } from './render.tsx';
import { isBuildMetadata } from '../core/http/hashed-files.ts';
import type { Documents, PageOutput, PageStream, PipelineOutput, RenderedRoute, StageTimes } from './pipeline.ts';
import { assertSafeOutDir, OutputFolder, type OutputFiles, type OutputSink } from './write.ts';

export interface BuildOptions {
  config: string;
  out: string;
  /** URL path the site is served under; default "/". */
  base?: string;
  /** Write nothing: return the files. */
  write?: boolean;
  /** Keep and reuse compression, pages and the client bundle in node_modules/.cache/site-gen; default true. */
  cache?: boolean;
  /** Write .br and .gz beside each text file and check the budgets (which are brotli sizes); default true. */
  precompress?: boolean;
  /** Called as the build goes: pages rendered, then pages written, each out of the total. */
  onProgress?: (progress: BuildProgress) => void;
}

export interface PageReport {
  path: string;
  file: string;
  html: { raw: number; brotli: number };
  inlineCss: { raw: number };
  js: { raw: number; brotli: number; files: number };
  /** Milliseconds its render and its document took (or reading them back from the cache), to 0.1 ms. */
  ms: number;
}

export interface BuildResult {
  config: SiteConfig;
  /** Every page's report, in the routes' order: `reports` as an array, made when first read. */
  readonly pages: PageReport[];
  /**
   * The same reports, each made as the list is read (see ReportList): what the command line writes them from. As
   * objects all at once, 100,003 reports held 17 MB of heap from the build's end until the process exits.
   */
  reports: ReportList;
  /** Every output file, .br/.gz included (read from the output folder when first asked for, after an unchanged build). */
  files: OutputFiles;
  /** Project files the build read. */
  inputs: string[];
  /** Output files compressed by this build, and those whose compression came from the disk cache. */
  compressed: { fresh: number; cached: number };
  /** Pages read back from the page cache, and pages rendered (both 0 without the cache). */
  rendered: { kept: number; made: number };
  /** Image files encoded by this build, and those read back from the cache (src/images/encode.ts). */
  images: { encoded: number; kept: number };
  /** Nothing changed since the last build into this folder, which was checked and left as it was (see build-record.ts). */
  upToDate: boolean;
  /** Files this build wrote to the output folder (0 when it was up to date, or with `write: false`). */
  written: number;
  /**
   * Milliseconds of each step, from its start to its end; steps overlap (the stylesheet compiles while the site loads).
   * `unchanged`: checking the inputs and the output folder against the last build's record.
   */
  times: StageTimes & { unchanged?: number; compress?: number; write?: number };
  ms: number;
}

/** Pages made one batch at a time: each batch's documents are made while the one before is compressed and written. */
export const BATCH = 64;
/**
 * Batches compressed and written at once: memory holds no more pages than these. Four keep both compression threads
 * fed; eight held documents long enough to reach the old generation (10,003 pages: 689-746 MB peak against 632-661 MB
 * with four, the same wall clock within the noise).
 */
export const BATCHES_AT_ONCE = 4;

/** Where a build is: rendering (or reading renders back), then making, compressing and writing the pages. */
export interface BuildProgress {
  /** `images`: the image files not in the cache, encoded after the pages render (pages are counted by the others). */
  step: 'render' | 'images' | 'write';
  done: number;
  total: number;
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const base = normaliseBase(options.base);
  const paths = projectPaths(options.config);
  assertSafeOutDir(options.out, paths.root);
  const since = (began: number) => Math.round(performance.now() - began);
  // Before anything reads the project: the record takes the inputs' contents this build is made from.
  const record =
    // A build without .br/.gz files is not the output a full build would leave: it is never taken as up to date.
    options.cache === false || options.write === false || options.precompress === false
      ? undefined
      : new BuildRecord(paths, { base, out: options.out });
  // Many Markdown files: their worker thread starts early, loading Shiki on the other core while this one loads the
  // rest. On a first build into the folder (no record to find it unchanged), before the check reads every input (0.3 s
  // of 4,000 entries'); else once the check found something changed.
  const startWorker = async () => (await import('../content/markdown-pool.ts')).earlyWorker(paths.content);
  const first = !record?.kept();
  let markdownWorker = first ? await startWorker() : undefined;
  const unchanged = record?.check<PageReport>();
  if (unchanged) {
    markdownWorker?.stop();
    const files = new PagesOnRequest(new Map(), unchanged.files, (file) => readFileSync(join(options.out, file)));
    const none = { fresh: 0, cached: 0 };
    return {
      config: unchanged.config,
      pages: unchanged.pages,
      reports: unchanged.pages,
      files,
      inputs: unchanged.inputs,
      compressed: none,
      rendered: { kept: 0, made: 0 },
      images: { encoded: 0, kept: 0 },
      upToDate: true,
      written: 0,
      times: { unchanged: since(started) },
      ms: since(started),
    };
  }
  // What the last build into this folder wrote, for writing only what changed (nothing without the cache).
  const last = record?.last<PageReport>();
  if (!first) markdownWorker = await startWorker();
  // Loaded only now: a build with nothing changed needs none of React, esbuild or lightningcss.
  const { Pipeline } = await import('./pipeline.ts');
  const cache = options.cache === false ? PageCache.scratch() : PageCache.open(paths.cache, paths.config, base);
  // Without precompression nothing is compressed: no .br/.gz written, and the budgets (brotli sizes) are not checked.
  const compressor = options.precompress === false ? undefined : new Compressor({ store: cache });
  compressor?.warm();
  const onProgress = options.onProgress;
  const memory: OutputFiles = new Map();
  let sink: OutputSink;
  try {
    sink =
      options.write === false
        ? { write: async (path, data) => void memory.set(path, data) }
        : await OutputFolder.open(options.out, { inPlace: !!last });
  } catch (error) {
    markdownWorker?.stop();
    await cache.dispose();
    throw error;
  }
  const keys = record && new MadeKeys();
  const reuse = keys && { last, keys };
  // Pages are written as they render (see PageWriter), into the output's staging folder: nothing changes before commit.
  const writer = new PageWriter(sink, compressor, onProgress, reuse);
  const pipeline = new Pipeline({
    paths,
    base,
    mode: 'build',
    compressor,
    cache,
    onProgress: onProgress && ((done, total) => onProgress({ step: 'render', done, total })),
    onImages: onProgress && ((done, total) => onProgress({ step: 'images', done, total })),
    lastRenders: last?.keys.renders,
    stream: writer,
    markdownWorker,
    markdownTexts: record && ((file) => record.take(file)),
  });
  try {
    // The pages are rendered and written here, and only what the record and the result need comes out: the rendered
    // pages' records (at 100,003 pages, tens of MB) are let go before the record and the cache index are saved.
    const renderAndWrite = async () => {
      const run = await pipeline.run();
      if (!run.ok) throw run.error;
      const { output } = run;
      const times: BuildResult['times'] = { ...run.times };
      const began = performance.now();
      const pages = await writer.finish(output.pages, output.documents);
      // Every figure comes from the one compression of each file: the report, the budgets and the .br written agree.
      if (compressor) assertWithinBudget(pageWeights(pages), output.config.build.budgets);
      await writeOtherFiles(output.files, sink, compressor, reuse);
      compressor?.releaseFiles();
      times.compress = since(began);
      return { config: output.config, inputs: output.inputs, times, pages, began };
    };
    const { config, inputs, times, pages, began } = await renderAndWrite().catch(async (error: unknown) => {
      // No write of a page taken while the build rendered may land after the staging folder is removed.
      await writer.settled();
      if (sink instanceof OutputFolder) await sink.abort();
      throw error;
    });
    pipeline.releasePages();
    collectLetGo(pages.length);
    // Only now, every check passed, does the output folder change: see OutputFolder.
    if (sink instanceof OutputFolder)
      await sink.commit(keys, last?.present).catch(async (error: unknown) => {
        // An update in place that failed halfway leaves a folder no record describes: the next build replaces it.
        if (last) await record?.forget();
        throw error;
      });
    times.write = since(began);
    // Every file of the new output, in path order: the record's list (as a walk of the folder would find them) and
    // the result's; from what each file was made from, without a list of the paths (see MadeKeys.inPathOrder).
    const written = sink instanceof OutputFolder ? (keys?.inPathOrder() ?? sink.written.sort()) : undefined;
    await Promise.all([cache.save(), record?.save({ config, pages, inputs }, keys, written)]);
    const files = written
      ? new PagesOnRequest(new Map(), written, (file) => readFileSync(join(options.out, file)))
      : inOutputOrder(memory);
    const compressed = { fresh: compressor?.counts.compressed ?? 0, cached: compressor?.counts.cached ?? 0 };
    let asArray: PageReport[] | undefined;
    return {
      config,
      // Made only when read, not while the record is saved (at 100,003 pages, the reports as objects: 17 MB of heap).
      get pages() {
        asArray ??= [...pages];
        return asArray;
      },
      reports: pages,
      files,
      inputs,
      compressed,
      rendered: cache.counts,
      images: { ...pipeline.imageCounts },
      upToDate: false,
      written: sink instanceof OutputFolder ? sink.writtenCount : 0,
      times,
      ms: since(started),
    };
  } finally {
    // Stopped once its bodies are rendered; this stops it when the build failed before.
    markdownWorker?.stop();
    await pipeline.dispose();
    await cache.dispose();
  }
}

/** Each page's weight, as the budgets read it, from its report. */
function* pageWeights(pages: Iterable<PageReport>): Generator<PageWeight> {
  for (const page of pages) yield { path: page.path, htmlBrotli: page.html.brotli, jsBrotli: page.js.brotli };
}

/**
 * How a build reuses the last one's files (with the cache, into an output folder): `last`, what the last build wrote
 * (none when there is no usable record: every file is written); `keys`, what this build's files are made from, filled
 * in as they are written or kept, for the record.
 */
export interface Reuse {
  last: LastOutput<PageReport> | undefined;
  keys: MadeKeys;
}

/** The file and its .br and .gz as the last build recorded them, when every one of them is as it left them. */
function keptAsIs(reuse: Reuse | undefined, path: string, key: string): string[] | undefined {
  const last = reuse?.last;
  if (!last?.unchanged(path, key)) return undefined;
  const files = withSiblings(path).filter((file) => last.keys.made.has(file));
  return files.every((file) => last.unchanged(file, key)) ? files : undefined;
}

/**
 * The pages, a batch at a time: each page's document, its compression on the compression threads, the files written;
 * then the batch is let go. Pages come while the build still renders (as a PageStream, made with the bundle of the
 * first pages' islands), then all of them at `finish`, where a page is made again only if its document key is not the
 * one it was written with. A page whose document key is the last build's, with its files as that build left them, is
 * not made at all: its report is the last one. Memory holds no more than BATCHES_AT_ONCE batches of documents.
 */
export class PageWriter implements PageStream {
  readonly #sink: OutputSink;
  readonly #compressor: Compressor | undefined;
  readonly #onProgress: BuildOptions['onProgress'];
  readonly #reuse: Reuse | undefined;
  /** Each page's figures, by its index in the routes (made into reports by `finish`). */
  readonly #reports = new PageReports();
  /** The document key each page was written or kept with, by its index. */
  #keys = new DigestColumn();
  /**
   * Each set of scripts, by its entry and files: its number and what it weighs, which `finish` gives the reports of the
   * pages written with it. A batch does not wait for it: the scripts' brotli (quality 11, the first time a set is
   * seen) would hold every batch under way, and the render with them.
   */
  readonly #scripts = new Map<string, ScriptSet>();
  #batch: Batch = [];
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;
  /** Set by `finish`: the pages' progress is reported from then on (while pages render, the render's is). */
  #progress: { done: number; total: number } | undefined;

  constructor(
    sink: OutputSink,
    compressor: Compressor | undefined,
    onProgress?: BuildOptions['onProgress'],
    reuse?: Reuse,
  ) {
    this.#sink = sink;
    this.#compressor = compressor;
    this.#onProgress = onProgress;
    this.#reuse = reuse;
  }

  /** Takes a page while the build renders (see PageStream); returns a promise when the next must wait for room. */
  page(page: RenderedRoute, index: number, documents: Documents, render?: RenderedPage): Promise<void> | undefined {
    this.#throwIfFailed();
    if (this.#batch.length === 0 && this.#running.size >= BATCHES_AT_ONCE)
      return this.#waitFor(Promise.race(this.#running)).then(() => this.page(page, index, documents, render));
    this.#add(page, index, documents, render);
    if (this.#batch.length >= BATCH) this.#dispatch();
    return undefined;
  }

  /**
   * Every page with its final document: made, compressed and written unless it was already with the same document key.
   * Returns each page's report, in the routes' order.
   */
  async finish(pages: RenderedPages, documents: Documents): Promise<ReportList> {
    // Every page taken while the build rendered is on disk first (the last batch too): none is written twice at once,
    // and the progress below counts each page once.
    this.#dispatch();
    await this.settled();
    this.#throwIfFailed();
    const left: number[] = [];
    for (let index = 0; index < pages.length; index += 1)
      if (this.#keys.get(index) !== documents.key(pages.at(index))) left.push(index);
    this.#progress = { done: pages.length - left.length, total: pages.length };
    for (const index of left) {
      const waiting = this.page(pages.at(index), index, documents);
      if (waiting) await waiting;
    }
    this.#dispatch();
    await this.settled();
    this.#throwIfFailed();
    const weights = await Promise.all([...this.#scripts.values()].map((set) => set.weight));
    this.#onProgress?.({ step: 'write', done: pages.length, total: pages.length });
    // Every page is written: their document keys (the record has them in MadeKeys) are let go before the build's end.
    this.#keys = new DigestColumn();
    return this.#reports.reports(pages.plans(), weights);
  }

  /** Resolves once every batch under way has ended, written or failed. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await this.#waitFor(Promise.allSettled(this.#running));
  }

  /**
   * `batches` (of #running, which never reject), this thread compressing pages meanwhile rather than only waiting for
   * the compression threads (see Compressor.whileWaiting).
   */
  #waitFor(batches: Promise<unknown>): Promise<unknown> {
    return this.#compressor ? this.#compressor.whileWaiting(batches) : batches;
  }

  #throwIfFailed(): void {
    if (this.#failure) throw this.#failure.error;
  }

  #add(page: RenderedRoute, index: number, documents: Documents, render?: RenderedPage): void {
    const reuse = this.#reuse;
    const key = documents.key(page);
    this.#keys.set(index, key);
    const kept = reuse && keptAsIs(reuse, page.file, key);
    const report = kept && reuse.last!.pages.get(page.file);
    if (report) {
      this.#reports.kept(index, report, page.ms);
      reuse.keys.page(index, page.file, key, page.hash, kept!.length > 1);
      if (this.#progress) this.#progress.done += 1;
      return;
    }
    const began = performance.now();
    const made = documents.make(page, render);
    const scripts = this.#scriptSet(documents.scripts(page), documents.client);
    this.#batch.push({ page, index, key, scripts, ...made, ms: page.ms + performance.now() - began });
  }

  /** Compresses and writes the batch made so far, in the background. */
  #dispatch(): void {
    const batch = this.#batch;
    if (batch.length === 0) return;
    this.#batch = [];
    const reuse = this.#reuse;
    const written: Promise<void> = Promise.all(
      batch.map(async ({ page, index, key, scripts, html, criticalBytes, ms }) => {
        const raw = byteLength(html);
        const brotli = await writePage(this.#sink, page.file, html, raw, this.#compressor);
        reuse?.keys.page(index, page.file, key, page.hash, !!this.#compressor && shouldPrecompress(page.file, raw));
        // Its scripts' weight is given by `finish`, once known (see #scripts).
        this.#reports.written(index, { raw, brotli, css: criticalBytes, ms }, scripts.id);
      }),
    ).then(
      () => {
        this.#running.delete(written);
        if (!this.#progress) return;
        this.#progress.done += batch.length;
        this.#onProgress?.({ step: 'write', ...this.#progress });
      },
      (error: unknown) => {
        this.#running.delete(written);
        // A failed batch fails the build at once: the next page taken throws it, rather than after the others.
        this.#failure ??= { error };
      },
    );
    this.#running.add(written);
  }

  /** A page's set of scripts, its weight (raw and brotli, 0 without precompression) found once per set. */
  #scriptSet(scripts: PageScripts | undefined, client: ClientBundle): ScriptSet {
    const id = scripts ? `${scripts.entry}\n${scripts.files.join('\n')}` : '';
    let set = this.#scripts.get(id);
    if (!set) {
      set = { id: this.#scripts.size, weight: scriptWeight(scripts, client, this.#compressor) };
      // A failure is met by `finish`, which awaits every weight.
      set.weight.catch(() => undefined);
      this.#scripts.set(id, set);
    }
    return set;
  }
}

/**
 * A set of scripts pages load (see PageWriter's #scripts): its number, in the order sets were met, and its weight, which
 * the reports of the pages written with it wait for.
 */
interface ScriptSet {
  id: number;
  weight: Promise<PageReport['js']>;
}

type Batch = Array<{ page: RenderedRoute; index: number; key: string; scripts: ScriptSet; ms: number } & PageOutput>;

/**
 * The pages of `output`, none of them written yet (see PageWriter): each page's report, in the routes' order. For a
 * caller with the whole output in hand, as a build without a stream would be.
 */
export async function writePages(
  output: PipelineOutput,
  sink: OutputSink,
  compressor: Compressor | undefined,
  onProgress: BuildOptions['onProgress'],
  reuse?: Reuse,
): Promise<PageReport[]> {
  return [...(await new PageWriter(sink, compressor, onProgress, reuse).finish(output.pages, output.documents))];
}

/**
 * Writes a page's HTML, with its .br and .gz when it is precompressed; returns the size of its brotli (0 when it has
 * none). Neither compression is kept in memory nor in the cache: a page is compressed once, and not again while it is
 * unchanged. An output folder has the compression thread write the three files (see OutputFolder.writeCompressed).
 */
async function writePage(
  sink: OutputSink,
  file: string,
  html: string,
  raw: number,
  compressor: Compressor | undefined,
): Promise<number> {
  if (!compressor || !shouldPrecompress(file, raw)) {
    await sink.write(file, html);
    return compressor ? (await compressor.compress(file, html, { keep: false, store: false })).br.byteLength : 0;
  }
  if (sink.writeCompressed) return (await sink.writeCompressed(file, html, compressor)).br;
  const compressed = await compressor.compress(file, html, { keep: false, store: false });
  await sink.write(file, html);
  await sink.write(`${file}.br`, compressed.br);
  await sink.write(`${file}.gz`, compressed.gz);
  return compressed.br.byteLength;
}

/**
 * Every output file but the pages, with .br and .gz beside each text file over 1 KB that is served (not the build's
 * own notes in .site-gen/), all compressed at once; written in path order. A file whose bytes, and siblings, are as
 * the last build left them is not written again.
 */
export async function writeOtherFiles(
  files: OutputFiles,
  sink: OutputSink,
  compressor: Compressor | undefined,
  reuse?: Reuse,
): Promise<void> {
  const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
  const made = await Promise.all(
    sorted.map(async ([path, data]) => {
      const key = reuse && hash(data);
      const kept = key ? keptAsIs(reuse, path, key) : undefined;
      if (kept) return { path, key, kept };
      const compressed =
        compressor && shouldPrecompress(path, byteLength(data)) && !isBuildMetadata(path)
          ? await compressor.compress(path, data)
          : undefined;
      return { path, key, data, compressed };
    }),
  );
  for (const file of made) {
    if (file.kept) {
      for (const path of file.kept) reuse!.keys.other(path, file.key!);
      continue;
    }
    const parts: Array<[string, Uint8Array | string]> = [[file.path, file.data!]];
    if (file.compressed) parts.push([`${file.path}.br`, file.compressed.br], [`${file.path}.gz`, file.compressed.gz]);
    for (const [path, data] of parts) {
      await sink.write(path, data);
      if (file.key) reuse!.keys.other(path, file.key);
    }
  }
}

/** What a page's scripts weigh: raw and brotli (0 without precompression), once per script entry. */
async function scriptWeight(
  scripts: PageScripts | undefined,
  client: ClientBundle,
  compressor: Compressor | undefined,
): Promise<PageReport['js']> {
  const js = (scripts?.files ?? []).map((file) => ({ file, data: client.files.get(file)! }));
  const compressed = compressor ? await Promise.all(js.map(({ file, data }) => compressor.compress(file, data))) : [];
  return {
    raw: js.reduce((sum, { data }) => sum + byteLength(data), 0),
    brotli: compressed.reduce((sum, result) => sum + result.br.byteLength, 0),
    files: js.length,
  };
}

/** The files in one order whatever order they were made in: by path, each file followed by its .br and .gz. */
function inOutputOrder(files: OutputFiles): OutputFiles {
  const original = (path: string) => siblingOf(path) ?? path;
  return new Map(
    [...files].sort(([a], [b]) => original(a).localeCompare(original(b)) || siblingIndex(a) - siblingIndex(b)),
  );
}
