// The worker thread of markdown-pool.ts: highlights the code blocks the main thread sends, and in between takes chunks
// of bodies from the queue it shares with the main thread and posts their renders back, made by the same markdown-it
// and Shiki setup as the main thread's.
import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { highlighterFor } from './highlight.ts';
import type { RenderedMarkdown } from './markdown.ts';
import {
  type BodyToRender,
  type HighlightBatch,
  takeChunk,
  type WorkerReply,
  type WorkerTask,
} from './markdown-pool.ts';

const port = parentPort!;
// Shiki and its regular-expression engine load while the main thread reads the files.
const shiki = highlighterFor([]);
const task = await new Promise<WorkerTask>((resolve) => port.once('message', resolve));
await shiki;
const { bodies, bounds, next, languages, jobs } = task;
const highlighter = languages.length > 0 ? await highlighterFor(languages) : undefined;

const reply = (message: WorkerReply) => port.postMessage(message);

/**
 * markdown-it and the rest of markdown.ts, loaded when the worker first takes a chunk: with much code to highlight it
 * never does, and its first blocks are highlighted that much sooner.
 */
let markdown: typeof import('./markdown.ts') | undefined;

/**
 * A body rendered, or null for the main thread to render: it showed an image after all (images are read through the
 * main thread's store), or its render threw (so that it throws there, as without a worker).
 */
function render({ file, body, bodyLine }: BodyToRender): RenderedMarkdown | null {
  const { parseMarkdown, renderParsed } = markdown!;
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
  const blocks = batch.map(([code, lang]) => {
    try {
      return highlighter!.highlight(code, lang);
    } catch {
      return null;
    }
  });
  reply({ first, blocks });
}

// The main thread's blocks first (it waits for them at the end), then a chunk of bodies, until the queue is empty.
for (;;) {
  for (let waiting = receiveMessageOnPort(jobs); waiting; waiting = receiveMessageOnPort(jobs))
    highlight(waiting.message);
  const chunk = takeChunk(next);
  if (chunk >= bounds.length - 1) break;
  markdown ??= await import('./markdown.ts');
  reply({ chunk, renders: bodies.slice(bounds[chunk], bounds[chunk + 1]).map(render) });
}
jobs.on('message', highlight);
