// `site-gen build`: the pipeline run once, then what only a build does: compress, check the budgets, write dist/ atomically.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import { normaliseBase } from '../core/base-path.ts';
import { BuildRecord } from './build-record.ts';
import { assertWithinBudget } from './check.ts';
import { byteLength, Compressor, shouldPrecompress } from './compress.ts';
import { projectPaths } from '../core/paths.ts';
import { PageCache } from './page-cache.ts';
import { PagesOnRequest } from './pages-on-request.ts';
import type { PageScripts } from './bundle.ts';
import type { PipelineOutput, StageTimes } from './pipeline.ts';
import { assertSafeOutDir, OutputFolder, withPrecompressed, type OutputFiles, type OutputSink } from './write.ts';

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
  pages: PageReport[];
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
/** Batches compressed and written at once: memory holds no more pages than these. */
export const BATCHES_AT_ONCE = 3;

/** Where a build is: rendering (or reading renders back), then making, compressing and writing the pages. */
export interface BuildProgress {
  step: 'render' | 'write';
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
  const last = record?.check<PageReport>();
  if (last) {
    const files = new PagesOnRequest(new Map(), last.files, (file) => readFileSync(join(options.out, file)));
    const none = { fresh: 0, cached: 0 };
    return {
      config: last.config,
      pages: last.pages,
      files,
      inputs: last.inputs,
      compressed: none,
      rendered: { kept: 0, made: 0 },
      images: { encoded: 0, kept: 0 },
      upToDate: true,
      written: 0,
      times: { unchanged: since(started) },
      ms: since(started),
    };
  }
  // Loaded only now: a build with nothing changed needs none of React, esbuild or lightningcss.
  const { Pipeline } = await import('./pipeline.ts');
  const cache = options.cache === false ? PageCache.scratch() : PageCache.open(paths.cache, paths.config, base);
  // Without precompression nothing is compressed: no .br/.gz written, and the budgets (brotli sizes) are not checked.
  const compressor = options.precompress === false ? undefined : new Compressor({ store: cache });
  const onProgress = options.onProgress;
  const pipeline = new Pipeline({
    paths,
    base,
    mode: 'build',
    compressor,
    cache,
    onProgress: onProgress && ((done, total) => onProgress({ step: 'render', done, total })),
  });
  try {
    const run = await pipeline.run();
    if (!run.ok) throw run.error;
    const { output } = run;
    const times: BuildResult['times'] = { ...run.times };
    const began = performance.now();
    const memory: OutputFiles = new Map();
    const sink: OutputSink & { flush?: () => Promise<void> } =
      options.write === false
        ? { write: async (path, data) => void memory.set(path, data) }
        : await OutputFolder.open(options.out);
    let pages: PageReport[];
    try {
      pages = await writePages(output, sink, compressor, onProgress);
      // Every figure comes from the one compression of each file: the report, the budgets and the .br written agree.
      if (compressor)
        assertWithinBudget(
          pages.map((p) => ({ path: p.path, htmlBrotli: p.html.brotli, jsBrotli: p.js.brotli })),
          output.config.build.budgets,
        );
      const others = compressor ? await withPrecompressed(output.files, compressor) : output.files;
      for (const [path, data] of others) await sink.write(path, data);
      times.compress = since(began);
      if (sink instanceof OutputFolder) await sink.commit();
    } catch (error) {
      if (sink instanceof OutputFolder) await sink.abort();
      throw error;
    }
    times.write = since(began);
    const files =
      sink instanceof OutputFolder
        ? new PagesOnRequest(new Map(), [...sink.written].sort(), (file) => readFileSync(join(options.out, file)))
        : inOutputOrder(memory);
    await Promise.all([cache.save(), record?.save({ config: output.config, pages, inputs: output.inputs })]);
    const compressed = { fresh: compressor?.counts.compressed ?? 0, cached: compressor?.counts.cached ?? 0 };
    return {
      config: output.config,
      pages,
      files,
      inputs: output.inputs,
      compressed,
      rendered: cache.counts,
      images: { ...pipeline.imageCounts },
      upToDate: false,
      written: sink instanceof OutputFolder ? sink.written.length : 0,
      times,
      ms: since(started),
    };
  } finally {
    await pipeline.dispose();
    await cache.dispose();
  }
}

/**
 * The pages, a batch at a time: each page's document (read back from the cache when nothing it is made from changed),
 * its compression on the compression threads, the files written; then the batch is let go. Returns each page's report,
 * in the routes' order.
 */
export async function writePages(
  output: PipelineOutput,
  sink: OutputSink,
  compressor: Compressor | undefined,
  onProgress: BuildOptions['onProgress'],
): Promise<PageReport[]> {
  const reports: PageReport[] = new Array(output.pages.length);
  const scripts = new Map<string, Promise<PageReport['js']>>();
  const scriptsOf = (entry: string) => {
    let js = scripts.get(entry);
    if (!js) scripts.set(entry, (js = scriptWeight(output.client.pages.get(entry), output, compressor)));
    return js;
  };
  const total = output.pages.length;
  let done = 0;
  const running = new Set<Promise<void>>();
  for (let start = 0; start < total; start += BATCH) {
    while (running.size >= BATCHES_AT_ONCE) await Promise.race(running);
    const batch = output.pages.slice(start, start + BATCH).map((page, i) => {
      const began = performance.now();
      const made = output.document(page);
      return { page, index: start + i, ...made, ms: page.ms + performance.now() - began };
    });
    const written: Promise<void> = Promise.all(
      batch.map(async ({ page, index, html, criticalBytes, ms }) => {
        const [compressed, js] = await Promise.all([
          compressor?.compress(page.file, html, { keep: false }),
          scriptsOf(page.entry),
        ]);
        await sink.write(page.file, html);
        if (compressed && shouldPrecompress(page.file, byteLength(html))) {
          await sink.write(`${page.file}.br`, compressed.br);
          await sink.write(`${page.file}.gz`, compressed.gz);
        }
        reports[index] = {
          path: page.path,
          file: page.file,
          html: { raw: byteLength(html), brotli: compressed?.br.byteLength ?? 0 },
          inlineCss: { raw: criticalBytes },
          js,
          ms: Math.round(ms * 10) / 10,
        };
      }),
    ).then(() => {
      done += batch.length;
      onProgress?.({ step: 'write', done, total });
      running.delete(written);
    });
    running.add(written);
    // A failed batch fails the build at once, rather than after the others.
    written.catch(() => undefined);
  }
  await Promise.all(running);
  return reports;
}

/** What a page's scripts weigh: raw and brotli (0 without precompression), once per script entry. */
async function scriptWeight(
  scripts: PageScripts | undefined,
  output: PipelineOutput,
  compressor: Compressor | undefined,
): Promise<PageReport['js']> {
  const js = (scripts?.files ?? []).map((file) => ({ file, data: output.files.get(file)! }));
  const compressed = compressor ? await Promise.all(js.map(({ file, data }) => compressor.compress(file, data))) : [];
  return {
    raw: js.reduce((sum, { data }) => sum + byteLength(data), 0),
    brotli: compressed.reduce((sum, result) => sum + result.br.byteLength, 0),
    files: js.length,
  };
}

/** The files in one order whatever order they were made in: by path, each file followed by its .br and .gz. */
function inOutputOrder(files: OutputFiles): OutputFiles {
  const original = (path: string) => path.replace(/\.(br|gz)$/, '');
  const rank = (path: string) => (path.endsWith('.br') ? 1 : path.endsWith('.gz') ? 2 : 0);
  return new Map([...files].sort(([a], [b]) => original(a).localeCompare(original(b)) || rank(a) - rank(b)));
}
