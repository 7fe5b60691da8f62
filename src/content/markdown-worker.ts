// The worker thread of markdown-pool.ts: highlights the code blocks the main thread sends, and in between takes chunks
// of bodies from the queue it shares with the main thread and posts their renders back, made by the same markdown-it
// and Shiki setup as the main thread's.
import { readFileSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { type CodeHighlighter, highlighterFor } from './highlight.ts';
import type { RenderedMarkdown } from './markdown.ts';
import {
  type BodyToRender,
  fenceCount,
  type HighlightBatch,
  likelyBlocks,
  takeChunk,
  takesChunk,
  type WorkerAhead,
  type WorkerReply,
  type WorkerTask,
} from './markdown-pool.ts';

const port = parentPort!;
// Shiki and its regular-expression engine load while the main thread loads its code and reads the files.
const shiki = highlighterFor([]);
let taskCame = false;
const task = new Promise<WorkerTask>((resolve) =>
  port.once('message', (message: WorkerTask) => {
    taskCame = true;
    resolve(message);
  }),
);
await shiki;
/**
 * markdown-it and the rest of markdown.ts, needed when the worker takes a chunk of bodies: with much code to highlight
 * it may never do, so they load now only if the task has not come (a worker started early has time to spare), else
 * when the first chunk is taken.
 */
let markdown: Promise<typeof import('./markdown.ts')> | undefined;
if (!taskCame) {
  markdown = import('./markdown.ts');
  // A failure to load is met, and ends this worker, when a chunk needs the module.
  markdown.catch(() => undefined);
}

/** Blocks highlighted before they were asked for (see highlightAhead), by language and code. */
const ahead = new Map<string, string>();

/**
 * Highlights the likely code blocks of the files (see likelyBlocks) before the main thread asks for any: a worker
 * started early has the time while that thread loads its code and reads the files, and each block asked for is then a
 * look-up. The same highlighter makes the same HTML, whenever asked. Hands the event loop back now and then, so that
 * the task is taken when it comes.
 */
async function highlightAhead(files: string[]): Promise<void> {
  const blocks = files.flatMap((file) => {
    try {
      return likelyBlocks(readFileSync(file, 'utf8'));
    } catch {
      return []; // read again, and its error met, by the main thread
    }
  });
  const shiki = await highlighterFor(new Set(blocks.map(([, lang]) => lang)));
  let turn = performance.now();
  for (const [code, lang] of blocks) {
    const key = `${lang}\0${code}`;
    if (ahead.has(key)) continue;
    try {
      ahead.set(key, shiki.highlight(code, lang));
    } catch {
      // highlighted again when asked, and its error met then
    }
    if (performance.now() - turn > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      turn = performance.now();
    }
  }
}

const files = (workerData as WorkerAhead | undefined)?.files;
if (files && !taskCame) await highlightAhead(files);
const { bodies, bounds, next, languages, jobs, progress } = await task;
const own = languages.length > 0 ? await highlighterFor(languages) : undefined;
const highlighter: CodeHighlighter | undefined = own && {
  highlight: (code, lang) => ahead.get(`${lang}\0${code}`) ?? own.highlight(code, lang),
};
const chunks = bounds.length - 1;
/** The main thread's chunks rendered so far and its milliseconds per body (see WorkerTask.progress). */
const mainChunks = progress && new Int32Array(progress, 0, 1);
const mainMsPerBody = progress && new Float64Array(progress, 8, 1);
/** Blocks this worker has still to highlight, about: those of every body it may render, less those it did. */
let blocksLeft = highlighter ? bodies.reduce((count, { body }) => count + fenceCount(body), 0) : 0;
let highlighted = 0;
let highlightMs = 0;

const reply = (message: WorkerReply) => port.postMessage(message);

/**
 * A body rendered, or null for the main thread to render: it showed an image after all (images are read through the
 * main thread's store), or its render threw (so that it throws there, as without a worker).
 */
function render(
  { parseMarkdown, renderParsed }: typeof import('./markdown.ts'),
  { file, body, bodyLine }: BodyToRender,
): RenderedMarkdown | null {
  let showsImage = false;
  try {
    const rendered = renderParsed(
      parseMarkdown(body, {
        file,
        bodyLine,
        readImage: () => {
          showsImage = true;
          throw new Error('images are read on the main thread');
        },
      }),
      highlighter,
    );
    return showsImage ? null : rendered;
  } catch {
    return null;
  }
}

function highlight({ first, jobs: batch }: HighlightBatch): void {
  const began = performance.now();
  const blocks = batch.map(([code, lang]) => {
    try {
      return highlighter!.highlight(code, lang);
    } catch {
      return null;
    }
  });
  highlightMs += performance.now() - began;
  highlighted += batch.length;
  blocksLeft -= batch.length;
  reply({ first, blocks });
}

/** Whether to take the next chunk (`at`) now, or wait for the main thread's next one (see takesChunk). */
function takesNow(at: number): boolean {
  if (!mainChunks || !mainMsPerBody) return true;
  return takesChunk({
    blocksLeft,
    msPerBlock: highlighted > 0 ? highlightMs / highlighted : undefined,
    msPerBody: mainMsPerBody[0]! > 0 ? mainMsPerBody[0] : undefined,
    bodiesLeft: bodies.length - bounds[at]!,
    chunkBodies: bounds[at + 1]! - bounds[at]!,
  });
}

// The main thread's blocks first (it waits for them at the end), then a chunk of bodies when it is time to take one,
// until the queue is empty.
for (;;) {
  for (let waiting = receiveMessageOnPort(jobs); waiting; waiting = receiveMessageOnPort(jobs))
    highlight(waiting.message);
  const seen = mainChunks ? Atomics.load(mainChunks, 0) : 0;
  const at = Atomics.load(new Int32Array(next), 0);
  if (at >= chunks) break;
  if (!takesNow(at)) {
    // Until the main thread renders its next chunk (its blocks sent first) or runs out of them; a while at most.
    Atomics.wait(mainChunks!, 0, seen, 50);
    continue;
  }
  const chunk = takeChunk(next);
  if (chunk >= chunks) break;
  markdown ??= import('./markdown.ts');
  const module = await markdown;
  const taken = bodies.slice(bounds[chunk], bounds[chunk + 1]);
  blocksLeft -= taken.reduce((count, { body }) => count + fenceCount(body), 0);
  reply({ chunk, renders: taken.map((body) => render(module, body)) });
}
jobs.on('message', highlight);
