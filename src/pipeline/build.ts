// `site-gen build`: the pipeline run once, then what only a build does: compress, check the budgets, write dist/ atomically.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import { normaliseBase } from '../core/base-path.ts';
import { BuildRecord } from './build-record.ts';
import { assertWithinBudget } from './check.ts';
import { byteLength, Compressor } from './compress.ts';
import { projectPaths } from '../core/paths.ts';
import { PageCache } from './page-cache.ts';
import { PagesOnRequest } from './pages-on-request.ts';
import type { PageScripts } from './bundle.ts';
import type { PageOutput, PipelineOutput, StageTimes } from './pipeline.ts';
import { assertSafeOutDir, withPrecompressed, writeOutput, type OutputFiles } from './write.ts';

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
  /**
   * Milliseconds of each step, from its start to its end; steps overlap (the stylesheet compiles while the site loads).
   * `unchanged`: checking the inputs and the output folder against the last build's record.
   */
  times: StageTimes & { unchanged?: number; compress?: number; write?: number };
  ms: number;
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
      times: { unchanged: since(started) },
      ms: since(started),
    };
  }
  // Loaded only now: a build with nothing changed needs none of React, esbuild or lightningcss.
  const [{ Pipeline }, { entryName }] = await Promise.all([import('./pipeline.ts'), import('./assemble.ts')]);
  const cache = options.cache === false ? undefined : PageCache.open(paths.cache, paths.config, base);
  const compressor = new Compressor({ store: cache });
  const precompress = options.precompress !== false;
  const pipeline = new Pipeline({
    paths,
    base,
    mode: 'build',
    compressor: precompress ? compressor : undefined,
    cache,
  });
  const run = await pipeline.run();
  if (!run.ok) throw run.error;
  const { output } = run;
  const times: BuildResult['times'] = { ...run.times };

  // Every figure comes from the one compression of each file: the report, the budgets and the .br written agree. The
  // files as they are go to the output folder meanwhile; it replaces the old one only once the budgets are met.
  const began = performance.now();
  let pages: PageReport[] = [];
  const precompressed = (async () => {
    if (!precompress) {
      pages = output.pages.map((page) => rawReport(page, output.client.pages.get(entryName(page.route)), output));
      return output.files;
    }
    pages = await Promise.all(
      output.pages.map((page) => report(page, output.client.pages.get(entryName(page.route)), output, compressor)),
    );
    assertWithinBudget(
      pages.map((p) => ({ path: p.path, htmlBrotli: p.html.brotli, jsBrotli: p.js.brotli })),
      output.config.build.budgets,
    );
    const files = await withPrecompressed(output.files, compressor);
    times.compress = since(began);
    return files;
  })();
  precompressed.catch(() => undefined); // awaited below, unless the write fails first
  // The page cache holds every result once compression is done: saved while the last files are written.
  const saved = precompressed.then(() => cache?.save());
  saved.catch(() => undefined);
  if (options.write !== false) await writeOutput(options.out, output.files, precompressed);
  const files = await precompressed;
  times.write = since(began);
  await Promise.all([saved, record?.save({ config: output.config, pages, inputs: output.inputs })]);
  const compressed = { fresh: compressor.counts.compressed, cached: compressor.counts.cached };
  return {
    config: output.config,
    pages,
    files,
    inputs: output.inputs,
    compressed,
    rendered: cache?.counts ?? { kept: 0, made: 0 },
    images: { ...pipeline.imageCounts },
    upToDate: false,
    times,
    ms: since(started),
  };
}

/** A page's report without compression (`precompress: false`): raw sizes, brotli sizes 0. */
function rawReport(page: PageOutput, scripts: PageScripts | undefined, output: PipelineOutput): PageReport {
  const js = (scripts?.files ?? []).map((file) => byteLength(output.files.get(file)!));
  return {
    path: page.route.path,
    file: page.file,
    html: { raw: byteLength(page.html), brotli: 0 },
    inlineCss: { raw: byteLength(page.critical) },
    js: { raw: js.reduce((sum, n) => sum + n, 0), brotli: 0, files: js.length },
  };
}

async function report(
  page: PageOutput,
  scripts: PageScripts | undefined,
  output: PipelineOutput,
  compressor: Compressor,
): Promise<PageReport> {
  const js = (scripts?.files ?? []).map((file) => ({ file, data: output.files.get(file)! }));
  const [html, ...jsCompressed] = await Promise.all([
    compressor.compress(page.file, page.html),
    ...js.map(({ file, data }) => compressor.compress(file, data)),
  ]);
  return {
    path: page.route.path,
    file: page.file,
    html: { raw: byteLength(page.html), brotli: html!.br.byteLength },
    inlineCss: { raw: byteLength(page.critical) },
    js: {
      raw: js.reduce((sum, { data }) => sum + byteLength(data), 0),
      brotli: jsCompressed.reduce((sum, result) => sum + result.br.byteLength, 0),
      files: js.length,
    },
  };
}
