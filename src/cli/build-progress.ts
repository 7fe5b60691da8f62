// What `site-gen build` shows while it runs: on a terminal a progress bar redrawn in place, elsewhere a line now and then.
import type { BuildProgress } from '../pipeline/build.ts';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  stream: ProgressStream;
  /** `bar`: redrawn in place (a terminal); `lines`: a line every `every` ms (CI, a log file, a pipe). */
  mode: 'bar' | 'lines';
  /** Milliseconds between two lines in `lines` mode; default 5,000. */
  every?: number;
  /** The clock, in ms (tests pass their own). */
  now?: () => number;
}

/** `bar` on a terminal, `lines` when the output is not one or the `CI` variable is set (as CI services set it). */
export function progressMode(stream: ProgressStream, env: NodeJS.ProcessEnv = process.env): 'bar' | 'lines' {
  return stream.isTTY && !env.CI ? 'bar' : 'lines';
}

const STEPS: Record<BuildProgress['step'], string> = { render: 'rendering', images: 'encoding', write: 'writing' };
/** What each step counts. */
const UNITS: Record<BuildProgress['step'], string> = { render: 'pages', images: 'image files', write: 'pages' };

/** Shows a build's progress: pages done out of the total, the rate, and the time left. */
export class ProgressView {
  readonly #options: Required<ProgressOptions>;
  #step: BuildProgress['step'] | undefined;
  #stepStarted = 0;
  /** Pages done when the step was first reported: a build writes most pages while they render (see PageWriter). */
  #doneAtStart = 0;
  #lastDrawn = Number.NEGATIVE_INFINITY;
  #drawn = false;
  /** Whether the step's last page was drawn: a build may report it twice (its last batch, then its end). */
  #finished = false;

  constructor(options: ProgressOptions) {
    this.#options = { every: 5000, now: () => performance.now(), ...options };
  }

  update(progress: BuildProgress): void {
    const now = this.#options.now();
    if (progress.step !== this.#step) {
      if (this.#options.mode === 'bar' && this.#drawn) this.#options.stream.write('\n');
      this.#step = progress.step;
      this.#stepStarted = now;
      this.#doneAtStart = progress.done;
      this.#lastDrawn = Number.NEGATIVE_INFINITY;
      this.#drawn = false;
      this.#finished = false;
    }
    const finished = progress.done >= progress.total;
    if (finished && this.#finished) return;
    this.#finished = finished;
    // A terminal redraws at most ten times a second; a log gets a line every few seconds and one when a step ends.
    const interval = this.#options.mode === 'bar' ? 100 : this.#options.every;
    if (!finished && now - this.#lastDrawn < interval) return;
    this.#lastDrawn = now;
    const text = describe(progress, now - this.#stepStarted, this.#doneAtStart);
    if (this.#options.mode === 'bar') this.#options.stream.write(`\r${this.#bar(progress)} ${text}\x1b[K`);
    else this.#options.stream.write(`site-gen build: ${STEPS[progress.step]} ${text}\n`);
    this.#drawn = true;
  }

  /** Ends the bar's line, so that what follows starts on a line of its own. */
  end(): void {
    if (this.#options.mode === 'bar' && this.#drawn) this.#options.stream.write('\n');
    this.#drawn = false;
  }

  #bar(progress: BuildProgress): string {
    const width = 24;
    const filled = progress.total === 0 ? width : Math.round((progress.done / progress.total) * width);
    return `${STEPS[progress.step].padEnd(9)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  }
}

const count = (n: number) => n.toLocaleString('en-US');

/**
 * "4,210/10,003 pages, 1,234 pages/s, about 5 s left", or "3/15 image files, about 20 s left" (a rate under one a
 * second is not shown). The rate counts what was done since the step began (`doneAtStart` were done then): the writing
 * step starts with the pages written while they rendered.
 */
export function describe(progress: BuildProgress, elapsedMs: number, doneAtStart = 0): string {
  const { done, total, step } = progress;
  const unit = UNITS[step];
  const parts = [`${count(done)}/${count(total)} ${unit}`];
  if (elapsedMs > 0 && done > doneAtStart) {
    const rate = ((done - doneAtStart) / elapsedMs) * 1000;
    if (rate >= 1) parts.push(`${count(Math.round(rate))} ${unit}/s`);
    if (done < total) parts.push(`about ${duration((total - done) / rate)} left`);
  }
  return parts.join(', ');
}

/** Seconds as "45 s" or "2 min 5 s". */
export function duration(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
