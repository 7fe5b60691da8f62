// A build's page reports while it writes: a few numbers a page, in columns, made into PageReport objects as read.
import { roomFor } from '../core/columns.ts';
import type { PageReport } from './build.ts';

type Js = PageReport['js'];

/** Every page's report, made as it is read (see PageReports.reports). */
export interface ReportList extends Iterable<PageReport> {
  readonly length: number;
}

/** What a report names of its page: the route's path and output file. */
export interface ReportedPage {
  path: string;
  file: string;
}

/**
 * Each page's figures by its index in the routes, until the build has written them all: an object a page (the report,
 * its `html` and `inlineCss`) held about 290 bytes of heap a page to the build's end, 29 MB at 100,003 pages, at the
 * moment its memory is highest (the last page rendering). Here a page takes 24 bytes. A page's scripts are a set (see
 * PageWriter's #scripts) whose weight is known only at the end, or the weight a kept page's last report gave. The sizes
 * are whole numbers kept in Int32Arrays: the reports made of them hold them as small integers, where a number read from
 * a Float64Array was a boxed double of 16 bytes in each report to the build's end (48 bytes a page).
 */
export class PageReports {
  #htmlRaw = new Int32Array(1024);
  #htmlBrotli = new Int32Array(1024);
  #cssRaw = new Int32Array(1024);
  #ms = new Float64Array(1024);
  /** 0: no report yet; n > 0: script set n - 1; n < 0: the weight at -n - 1 in #weights (a kept page's). */
  #js = new Int32Array(1024);
  /** The scripts' weights kept pages' reports gave, each once. */
  readonly #weights: Js[] = [];
  readonly #weightIds = new Map<string, number>();

  /** A page written by this build, with the script set (a number from 0) whose weight its report takes at the end. */
  written(index: number, figures: { raw: number; brotli: number; css: number; ms: number }, scriptSet: number): void {
    this.#set(index, figures.raw, figures.brotli, figures.css, figures.ms, scriptSet + 1);
  }

  /** A page kept as the last build wrote it: its last report, with this build's milliseconds. */
  kept(index: number, report: PageReport, ms: number): void {
    const { raw, brotli, files } = report.js;
    const id = `${raw} ${brotli} ${files}`;
    let at = this.#weightIds.get(id);
    if (at === undefined) {
      at = this.#weights.push({ raw, brotli, files }) - 1;
      this.#weightIds.set(id, at);
    }
    this.#set(index, report.html.raw, report.html.brotli, report.inlineCss.raw, ms, -at - 1);
  }

  /**
   * Every page's report, in the routes' order, each script set's weight `setWeights[n]`, made as the list is iterated
   * (a report object a page only while it is read: at 100,003 pages, the reports as objects held 17 MB of heap while
   * the build record and the cache index were saved); a page not reported throws (a bug: every page is written or kept
   * before the end).
   */
  reports(pages: Iterable<ReportedPage>, setWeights: readonly Js[]): ReportList {
    const paths: string[] = [];
    const files: string[] = [];
    for (const { path, file } of pages) {
      paths.push(path);
      files.push(file);
    }
    const missing = files.findIndex((_, index) => (this.#js[index] ?? 0) === 0);
    if (missing !== -1) throw new Error(`site-gen: ${files[missing]} has no report; this is a bug.`);
    const report = (index: number): PageReport => {
      const js = this.#js[index]!;
      return {
        path: paths[index]!,
        file: files[index]!,
        html: { raw: this.#htmlRaw[index]!, brotli: this.#htmlBrotli[index]! },
        inlineCss: { raw: this.#cssRaw[index]! },
        js: js > 0 ? setWeights[js - 1]! : this.#weights[-js - 1]!,
        ms: this.#ms[index]!,
      };
    };
    return {
      length: files.length,
      *[Symbol.iterator]() {
        for (let index = 0; index < files.length; index += 1) yield report(index);
      },
    };
  }

  #set(index: number, raw: number, brotli: number, css: number, ms: number, js: number): void {
    this.#htmlRaw = roomFor(this.#htmlRaw, index);
    this.#htmlBrotli = roomFor(this.#htmlBrotli, index);
    this.#cssRaw = roomFor(this.#cssRaw, index);
    this.#ms = roomFor(this.#ms, index);
    this.#js = roomFor(this.#js, index);
    this.#htmlRaw[index] = raw;
    this.#htmlBrotli[index] = brotli;
    this.#cssRaw[index] = css;
    this.#ms[index] = Math.round(ms * 10) / 10;
    this.#js[index] = js;
  }
}
