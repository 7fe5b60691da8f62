// Renders many Markdown bodies on this thread and one worker thread together. Shiki (its load, its grammars' regular
// expressions compiled, its tokenizing: most of a body's cost) runs on the worker alone: every code block this thread
// meets is highlighted there. Both threads take chunks of bodies from one queue, the worker when it has no block to
// highlight and while the blocks left to it would not outlast this thread's bodies, so they finish together; the renders
// come back in order, byte for byte what this thread alone makes.
import { join } from 'node:path';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { toolModule } from '../core/paths.ts';
import { markdownFolders } from './files.ts';
import { DeferredHighlighter, fillHighlights, type HighlightJob } from './deferred-highlight.ts';
import { type CodeHighlighter, highlighterFor } from './highlight.ts';
import type { RenderedMarkdown } from './markdown.ts';

/** A body to render: its file (absolute), its text and the line it starts on. */
export interface BodyToRender {
  file: string;
  body: string;
  bodyLine: number;
}

/**
 * More bodies to render than this start a worker: it costs ~0.3-0.5 s to load markdown-it and Shiki, which a small
 * site, the scaffold and watch's one-file edits would wait for. One worker: on two cores a second would only fight
 * this thread for one.
 */
export const WORKER_FROM = 200;

export interface PoolOptions {
  /** Renders body `index` on this thread with `highlighter` (undefined: no fence names a language). */
  renderHere(index: number, highlighter: CodeHighlighter | undefined): RenderedMarkdown;
  /** The languages the bodies' fences name (see fenceLanguages). */
  languages: string[];
  /** More bodies than this start a worker (default WORKER_FROM; tests force either path). */
  workerFrom?: number;
  /** A worker started ahead (MarkdownWorker.start): used whatever the number of bodies, stopped once they are done. */
  worker?: MarkdownWorker;
}

/** What the worker is sent once the bodies are known. */
export interface WorkerTask {
  /** The bodies it may render: those that show no image. */
  bodies: BodyToRender[];
  /** Chunk `k` is bodies `bounds[k]` to `bounds[k + 1]`. */
  bounds: number[];
  /** One Int32: the next chunk to take, for both threads (Atomics.add). */
  next: SharedArrayBuffer;
  languages: string[];
  /** Where this thread sends the code blocks it meets, in batches. */
  jobs: MessagePort;
  /**
   * This thread's progress, which the worker weighs before it takes a chunk (see takesChunk): Int32 0 counts the chunks
   * this thread rendered (notified after each, its blocks sent first), Float64 1 its milliseconds per body so far.
   * Without it the worker takes a chunk whenever it has no block to highlight.
   */
  progress?: SharedArrayBuffer;
}

/** What the worker weighs before it takes the next chunk of bodies (see takesChunk). */
export interface ChunkChoice {
  /** Code blocks the worker has still to highlight, those not yet sent included (an estimate: see fenceCount). */
  blocksLeft: number;
  /** The worker's milliseconds per block so far; undefined before its first. */
  msPerBlock: number | undefined;
  /** The main thread's milliseconds per body so far; undefined before its first chunk. */
  msPerBody: number | undefined;
  /** The bodies of the chunks no thread has taken yet, and of the next of them. */
  bodiesLeft: number;
  chunkBodies: number;
}

/**
 * Whether the worker takes the next chunk rather than wait for blocks. It alone highlights, so it takes one only while
 * its blocks left and the chunk would not take it longer than the main thread takes over the bodies left after that
 * chunk: greedier, it ended with blocks the main thread waited for. With blocks left it waits until both rates are
 * known; with none it always takes one.
 */
export function takesChunk({ blocksLeft, msPerBlock, msPerBody, bodiesLeft, chunkBodies }: ChunkChoice): boolean {
  if (blocksLeft <= 0) return true;
  if (msPerBlock === undefined || msPerBody === undefined) return false;
  return blocksLeft * msPerBlock + chunkBodies * msPerBody <= (bodiesLeft - chunkBodies) * msPerBody;
}

/** The code blocks of a body, about: half its fence lines (an unclosed fence counts as one). */
export function fenceCount(body: string): number {
  return Math.ceil((body.match(/^[ \t]{0,3}(?:`{3,}|~{3,})/gm)?.length ?? 0) / 2);
}

/** A batch of code blocks to highlight; `first` numbers the first of them. */
export interface HighlightBatch {
  first: number;
  jobs: HighlightJob[];
}

/** What the worker posts back: a chunk's renders, or a batch's highlighted blocks. */
export type WorkerReply =
  /** null: a body left to this thread (it showed an image after all, or its render threw). */
  | { chunk: number; renders: Array<RenderedMarkdown | null> }
  /** null: a block whose highlighting threw, highlighted again here so that it throws here. */
  | { first: number; blocks: Array<string | null> };

/**
 * A body that may show an image: rendered on this thread, where images are read through the build's image store.
 * Over-matches (an `![` in code, an `<img` in raw HTML) rather than ever missing one: markdown-it only makes an image
 * of a literal "![".
 */
export function mayShowImage(body: string): boolean {
  return /!\[|<img/i.test(body);
}

/**
 * Chunk boundaries over `count` bodies: an eighth of what is left, 16 to 100 bodies a chunk, so the queue hands out big
 * chunks first (fewer messages) and small ones last (neither thread waits long for the other's last chunk).
 */
export function chunkBounds(count: number): number[] {
  const bounds = [0];
  for (let start = 0; start < count; ) {
    start = Math.min(count, start + Math.min(100, Math.max(16, Math.ceil((count - start) / 8))));
    bounds.push(start);
  }
  return bounds;
}

/** The next chunk of the shared queue, for whichever thread asks first; `bounds.length - 1` or more once empty. */
export function takeChunk(next: SharedArrayBuffer): number {
  return Atomics.add(new Int32Array(next), 0, 1);
}

/**
 * The worker thread: started before the bodies are known (see MarkdownCollections.prepare) so that loading markdown-it
 * and Shiki overlaps reading the files; given one task, then stopped.
 */
export class MarkdownWorker {
  readonly #thread: Worker;
  /** Settles when the thread is gone: it failed to start, threw, or was stopped. */
  readonly gone: Promise<void>;

  private constructor(thread: Worker) {
    this.#thread = thread;
    this.gone = new Promise((resolve) => {
      thread.on('error', () => resolve());
      thread.on('exit', () => resolve());
    });
    // A worker never keeps the process alive by itself: `renderBodies` refs it while it waits for it.
    thread.unref();
  }

  /**
   * From the compiled module beside this one; or, when the tool runs from source under tsx (the unit tests), from the
   * TypeScript module: on Node 20 tsx registers its loader on the main thread only, so the worker registers it first.
   * A worker that cannot load fails on its thread, and the bodies are rendered here.
   */
  static start(module = toolModule('content/markdown-worker'), ahead?: WorkerAhead): MarkdownWorker {
    const tsx = module.endsWith('.ts') ? resolvable('tsx/esm/api') : undefined;
    if (!tsx) return new MarkdownWorker(new Worker(module, { workerData: ahead }));
    const register = `import(${JSON.stringify(tsx)}).then(({ register }) => register())`;
    return new MarkdownWorker(
      new Worker(`${register}.then(() => import(${JSON.stringify(pathToFileURL(module).href)}))`, {
        eval: true,
        workerData: ahead,
      }),
    );
  }

  run(task: WorkerTask, onReply: (reply: WorkerReply) => void): void {
    this.#thread.ref();
    this.#thread.on('message', onReply);
    this.#thread.postMessage(task, [task.jobs]);
  }

  stop(): void {
    void this.#thread.terminate();
  }
}

/**
 * The worker of a build whose content folders hold more .md files than `workerFrom` (in a new process, every body is
 * still to render), started before the pipeline's code loads: Shiki then loads on the other core while this thread
 * loads React, esbuild and markdown-it, and the worker highlights the files' code ahead (see highlightAhead in
 * markdown-worker.ts) until the first bodies come. Undefined for fewer files.
 */
export function earlyWorker(contentDir: string, workerFrom = WORKER_FROM): MarkdownWorker | undefined {
  let files: string[];
  try {
    files = markdownFolders(contentDir).flatMap(({ dir, names }) => names.map((name) => join(dir, name)));
  } catch {
    return undefined; // no content folder: nothing to render
  }
  return files.length > workerFrom ? MarkdownWorker.start(undefined, { files }) : undefined;
}

function resolvable(specifier: string): string | undefined {
  try {
    return import.meta.resolve(specifier);
  } catch {
    return undefined;
  }
}

/** What a worker started early is given (see earlyWorker): the Markdown files whose code it may highlight ahead. */
export interface WorkerAhead {
  files: string[];
}

/**
 * The code blocks of a Markdown text as markdown-it most often finds them (a fence at the start of a line, closed by
 * the same fence), each as its highlighter is asked for it: the code with its last newline, and the fence's first word.
 * A guess, for highlighting ahead: a block found otherwise (indented in a list, an info string with escapes) is simply
 * not among them, and highlighted when asked.
 */
export function likelyBlocks(text: string): HighlightJob[] {
  return [...text.matchAll(/^(`{3,}|~{3,})([^\n`]*)\n([\s\S]*?)^\1[ \t]*$/gm)].map((match) => [
    match[3]!,
    match[2]!.trim().split(/\s+/)[0] ?? '',
  ]);
}

/** What the worker did: the bodies it rendered and the code blocks it highlighted for this thread. */
export interface WorkerCounts {
  bodies: number;
  blocks: number;
}

/**
 * Every body rendered, in order, and what the worker did. A worker that fails to start or dies leaves
 * what it took to this thread; a body or a block whose render threw on the worker is made again here, so that it
 * throws here as it would have without a worker.
 */
export async function renderBodies(
  bodies: BodyToRender[],
  options: PoolOptions,
): Promise<{ renders: RenderedMarkdown[]; onWorker: WorkerCounts }> {
  const { renderHere, languages, workerFrom = WORKER_FROM } = options;
  const worker = options.worker ?? (bodies.length > workerFrom ? MarkdownWorker.start() : undefined);
  if (!worker) {
    const highlighter = languages.length > 0 ? await highlighterFor(languages) : undefined;
    return { renders: bodies.map((_, index) => renderHere(index, highlighter)), onWorker: { bodies: 0, blocks: 0 } };
  }
  try {
    return await renderShared(worker, bodies, options);
  } finally {
    worker.stop();
  }
}

async function renderShared(
  worker: MarkdownWorker,
  bodies: BodyToRender[],
  { renderHere, languages }: PoolOptions,
): Promise<{ renders: RenderedMarkdown[]; onWorker: WorkerCounts }> {
  // Filled, not sparse: `some` and `map` below must see every body the worker left.
  const renders: Array<RenderedMarkdown | undefined> = bodies.map(() => undefined);
  const shared = bodies.flatMap((item, index) => (mayShowImage(item.body) ? [] : [index]));
  const bounds = chunkBounds(shared.length);
  const chunks = bounds.length - 1;
  const next = new SharedArrayBuffer(4);
  const progress = new SharedArrayBuffer(16);
  const chunksHere = new Int32Array(progress, 0, 1);
  const msPerBody = new Float64Array(progress, 8, 1);
  const deferred = new DeferredHighlighter();
  const highlighter = languages.length > 0 ? deferred : undefined;
  /** The highlighted blocks, by job. */
  const blocks: Array<string | undefined> = [];
  /** Bodies rendered here, whose blocks are filled in at the end. */
  const here: number[] = [];
  const { port1: jobs, port2: workerJobs } = new MessageChannel();
  let chunksLeft = chunks;
  let batchesOut = 0;
  let ownDone = false;
  const onWorker: WorkerCounts = { bodies: 0, blocks: 0 };
  let settle: () => void = () => undefined;
  // Every chunk rendered and every block highlighted, or the worker gone (what it left is then made here).
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  void worker.gone.then(settle);
  const check = () => {
    if (ownDone && chunksLeft === 0 && batchesOut === 0) settle();
  };
  const sendJobs = () => {
    const batch = deferred.take();
    if (batch.jobs.length === 0) return;
    jobs.postMessage(batch satisfies HighlightBatch);
    batchesOut += 1;
  };
  const render = (index: number) => {
    renders[index] = renderHere(index, highlighter);
    here.push(index);
  };
  /** Tells a worker waiting to choose (see takesChunk) that this thread rendered a chunk, or ran out of them. */
  const advance = () => {
    Atomics.add(chunksHere, 0, 1);
    Atomics.notify(chunksHere, 0);
  };
  const task = { bodies: shared.map((index) => bodies[index]!), bounds, next, languages, jobs: workerJobs, progress };
  worker.run(task, (reply) => {
    if ('chunk' in reply) {
      reply.renders.forEach((rendered, offset) => {
        if (!rendered) return;
        renders[shared[bounds[reply.chunk]! + offset]!] = rendered;
        onWorker.bodies += 1;
      });
      chunksLeft -= 1;
    } else {
      reply.blocks.forEach((block, offset) => {
        if (block === null) return;
        blocks[reply.first + offset] = block;
        onWorker.blocks += 1;
      });
      batchesOut -= 1;
    }
    check();
  });
  try {
    // This thread's own bodies first (the worker is starting meanwhile), then chunks of the queue.
    const own = new Set(shared);
    bodies.forEach((_, index) => {
      if (!own.has(index)) render(index);
    });
    sendJobs();
    let renderedMs = 0;
    let renderedBodies = 0;
    for (let chunk = takeChunk(next); chunk < chunks; chunk = takeChunk(next)) {
      const began = performance.now();
      for (let at = bounds[chunk]!; at < bounds[chunk + 1]!; at += 1) render(shared[at]!);
      renderedMs += performance.now() - began;
      renderedBodies += bounds[chunk + 1]! - bounds[chunk]!;
      msPerBody[0] = renderedMs / renderedBodies;
      chunksLeft -= 1;
      sendJobs();
      advance();
      // Lets the worker's replies in between, rather than all at the end.
      await new Promise((resolve) => setImmediate(resolve));
    }
    advance();
    ownDone = true;
    check();
    await settled;
  } finally {
    jobs.close();
  }
  // What the worker left or did not finish, made here with a highlighter of this thread's own.
  const missing = renders.some((rendered) => !rendered) || deferred.jobs.some((_, job) => blocks[job] === undefined);
  const own = missing && languages.length > 0 ? await highlighterFor(languages) : undefined;
  deferred.jobs.forEach(([code, lang], job) => {
    blocks[job] ??= own!.highlight(code, lang);
  });
  for (const index of here)
    renders[index] = { ...renders[index]!, html: fillHighlights(renders[index]!.html, blocks as string[]) };
  return { renders: renders.map((rendered, index) => rendered ?? renderHere(index, own)), onWorker };
}
