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
const { bodies, bounds, next, languages, jobs } = await task;
const highlighter = languages.length > 0 ? await highlighterFor(languages) : undefined;

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
  markdown ??= import('./markdown.ts');
  const module = await markdown;
  reply({ chunk, renders: bodies.slice(bounds[chunk], bounds[chunk + 1]).map((body) => render(module, body)) });
}
jobs.on('message', highlight);
