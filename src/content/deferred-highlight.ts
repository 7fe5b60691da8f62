// Code blocks highlighted later, elsewhere: a highlighter that leaves a marker for each block and keeps its code, and
// the step that puts the highlighted blocks in place of the markers.
import type { CodeHighlighter } from './highlight.ts';

/** A code block to highlight: its code and its fence's language. */
export type HighlightJob = [code: string, lang: string];

/**
 * Stands in for the highlighter while a body renders: each block becomes "\0<job>\0". No other NUL reaches the HTML:
 * markdown-it replaces every NUL of its input (and a `&#0;`) with U+FFFD.
 */
export class DeferredHighlighter implements CodeHighlighter {
  readonly jobs: HighlightJob[] = [];
  /** Jobs before this one were handed out by `take`. */
  #taken = 0;

  highlight(code: string, lang: string): string {
    return `\0${this.jobs.push([code, lang]) - 1}\0`;
  }

  /** The jobs made since the last call, and the number of the first. */
  take(): { first: number; jobs: HighlightJob[] } {
    const first = this.#taken;
    this.#taken = this.jobs.length;
    return { first, jobs: this.jobs.slice(first) };
  }
}

/** `html` with each marker replaced by its highlighted block (`blocks[job]`). */
export function fillHighlights(html: string, blocks: readonly string[]): string {
  return html.includes('\0') ? html.replace(/\0(\d+)\0/g, (_, job: string) => blocks[Number(job)]!) : html;
}
