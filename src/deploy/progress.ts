// Live progress of a deploy: a redrawn bar on a terminal, one plain line per event otherwise (CI logs).
import { formatBytes, formatDuration, formatPlanTotals } from './summary.ts';
import type { Plan } from './plan.ts';
import type { Target } from './targets.ts';

/** Where progress goes: process.stdout, or anything with write() (tests). */
export interface Output {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface DeployReporter {
  start(plan: Plan, destination: string): void;
  uploaded(target: Target, bytes: number): void;
  retrying(what: string, attempt: number, delayMs: number, reason: string): void;
  deleted(keys: readonly string[]): void;
  /** A line of its own: a note or a warning. */
  message(line: string): void;
  /** A state that replaces the previous one (waiting for the CDN): redrawn in place of the bar, or one line in logs. */
  status(line: string): void;
  /** Removes the bar, before the summary or an error is printed. */
  stop(): void;
}

interface Counts {
  done: number;
  total: number;
  bytes: number;
  totalBytes: number;
}

function startCounts(plan: Plan): Counts {
  return { done: 0, total: plan.uploads.length, bytes: 0, totalBytes: plan.uploadBytes };
}

function startLine(plan: Plan, destination: string): string {
  return `Deploying to ${destination}: ${formatPlanTotals(plan)}.\n`;
}

function retryLine(what: string, attempt: number, delayMs: number, reason: string): string {
  return `retrying ${what} in ${formatDuration(delayMs)} (try ${attempt + 1}): ${reason}\n`;
}

/** One line per event, nothing redrawn. */
export function createLineReporter(output: Output): DeployReporter {
  let counts: Counts = { done: 0, total: 0, bytes: 0, totalBytes: 0 };
  return {
    start(plan, destination) {
      counts = startCounts(plan);
      output.write(startLine(plan, destination));
    },
    uploaded(target, bytes) {
      counts.done += 1;
      output.write(`uploaded ${target.key} (${formatBytes(bytes)}) [${counts.done}/${counts.total}]\n`);
    },
    retrying(what, attempt, delayMs, reason) {
      output.write(retryLine(what, attempt, delayMs, reason));
    },
    deleted(keys) {
      for (const key of keys) output.write(`deleted ${key}\n`);
    },
    message(line) {
      output.write(`${line}\n`);
    },
    status(line) {
      output.write(`${line}\n`);
    },
    stop() {},
  };
}

const BAR_WIDTH = 24;

/** The bar line: [#####-------] 12/40 files  1.2 MB/3.4 MB  assets/home-3f9a.js, cut to the terminal width. */
export function renderBar(counts: Counts, current: string, columns: number): string {
  const ratio =
    counts.totalBytes > 0 ? counts.bytes / counts.totalBytes : counts.total > 0 ? counts.done / counts.total : 1;
  const filled = Math.round(Math.min(1, ratio) * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
  return fit(
    `${bar} ${counts.done}/${counts.total} files  ${formatBytes(counts.bytes)}/${formatBytes(counts.totalBytes)}  ${current}`,
    columns,
  );
}

/** A line cut to the terminal width, so that redrawing it never wraps. */
function fit(line: string, columns: number): string {
  return line.length > columns - 1 ? line.slice(0, Math.max(0, columns - 2)) + '…' : line;
}

const CLEAR_LINE = '\r\x1b[2K';

/** A bar redrawn in place; other lines are printed above it. */
export function createBarReporter(output: Output): DeployReporter {
  let counts: Counts = { done: 0, total: 0, bytes: 0, totalBytes: 0 };
  let current = '';
  let statusLine: string | undefined;
  let shown = false;
  // A terminal that reports no size (0 columns) still gets a usable bar.
  const columns = () => output.columns || 80;
  const draw = () => {
    output.write(
      CLEAR_LINE + (statusLine === undefined ? renderBar(counts, current, columns()) : fit(statusLine, columns())),
    );
    shown = true;
  };
  const above = (text: string) => {
    output.write(CLEAR_LINE + text);
    if (shown) draw();
  };
  return {
    start(plan, destination) {
      counts = startCounts(plan);
      output.write(startLine(plan, destination));
      if (plan.uploads.length > 0) draw();
    },
    uploaded(target, bytes) {
      counts.done += 1;
      // Bytes on the bar are uncompressed, as totalBytes is.
      counts.bytes += target.size;
      current = `${target.key} (${formatBytes(bytes)})`;
      draw();
    },
    retrying(what, attempt, delayMs, reason) {
      above(retryLine(what, attempt, delayMs, reason));
    },
    deleted(keys) {
      current = `deleted ${keys.length} files`;
      if (shown) draw();
    },
    message(line) {
      above(`${line}\n`);
    },
    status(line) {
      statusLine = line;
      draw();
    },
    stop() {
      if (shown) output.write(CLEAR_LINE);
      shown = false;
      statusLine = undefined;
    },
  };
}

export function createReporter(output: Output): DeployReporter {
  return output.isTTY ? createBarReporter(output) : createLineReporter(output);
}
