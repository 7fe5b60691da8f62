// A Markdown worker that takes every chunk of the queue, answers the first with nothing rendered, then dies: the main
// thread must render what it took and highlight the blocks it never answered. It writes "<first body's file>.taken"
// once it holds every chunk, so a test can hold the main thread until then.
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { takeChunk, type WorkerReply, type WorkerTask } from '../../src/content/markdown-pool.ts';

const task = await new Promise<WorkerTask>((resolve) => parentPort!.once('message', resolve));
const first = takeChunk(task.next);
while (takeChunk(task.next) < task.bounds.length - 1);
const nothing: WorkerReply = {
  chunk: first,
  renders: Array.from({ length: task.bounds[first + 1]! - task.bounds[first]! }, () => null),
};
parentPort!.postMessage(nothing);
writeFileSync(`${task.bodies[0]!.file}.taken`, '');
process.exit(1);
