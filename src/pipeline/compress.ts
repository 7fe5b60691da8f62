// Brotli and gzip of the output: settings per kind of file, each distinct content compressed once, off the main thread, kept between builds.
import { digest, shortHex } from '../core/digest.ts';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip as gzipAsync, gzipSync } from 'node:zlib';
import { isCompressible } from '../core/http/compressible.ts';
import { isSitemapFile } from '../core/http/paths.ts';

/** How a file is compressed. Part of every cache key, so a change of settings never serves an old result. */
export interface CompressionSettings {
  brotliQuality: number;
  gzipLevel: number;
  /**
   * A page whose brotli at `brotliQuality` lands in this range of bytes is compressed again at `quality`: see
   * FIRST_FLIGHT below.
   */
  retry?: { above: number; upTo: number; quality: number };
  /** The largest brotli window, as log2 of its bytes (brotli's own largest, 22, when absent): see SITEMAP_WINDOW. */
  brotliWindow?: number;
}

/**
 * A page is painted after its first round trip only if the compressed HTML and its response headers fit in the
 * server's first flight of packets (ten segments, about 14.6 KB; the headers with the CSP take about 1 KB). Brotli 11
 * makes a page about 10% smaller than brotli 6, at 30-50 times the time: so only a page that quality 6 leaves just past
 * or near that line (12 to 16.5 KB) is compressed again at 11, where those bytes can save a round trip (the home
 * page: 14.0 KB at 6, 12.6 KB at 11, and Lighthouse's LCP 0.89 s against 0.74 s). A smaller page fits either way,
 * and a larger one needs a second round trip either way: both keep quality 6.
 */
const FIRST_FLIGHT = { above: 12_000, upTo: 16_500, quality: 11 };

/**
 * Above this size a file that is not a page is compressed at brotli 5, not 11. Quality 11 costs about 2 microseconds a
 * byte, and its encoder's memory grows with the file: quality 9 took 33 MB whatever the file's size, 5 takes 3 to 5 MB
 * (React's server renderer, 459 KB: 74.6 KB at 5 against 70.6 KB at 9). The site's scripts (React's chunk: 214 KB)
 * stay under it.
 */
const LARGE_FILE = 256 * 1024;

/**
 * A sitemap's brotli window: 256 KB (2^18), not the 4 MB a part of 50,000 URLs would be given. Its lines repeat what
 * is near, not what is megabytes back: 50,000 URLs (2.6 MB) came to 42.5 KB at 18 against 46.3 KB at 22, in 16 ms
 * against 20, with the encoder's memory 5 MB against 10. A site's sitemap parts grow in number with its pages, and at
 * the build's end they were its highest memory: 100,003 pages peaked 17 MB above their render while two parts were
 * compressed.
 */
const SITEMAP_WINDOW = 18;

/**
 * Pages are compressed at brotli 6: they are unique per page and made again by every content change, so their cost
 * grows with the site (quality 11 takes ~35 ms for a 33 KB page, quality 6 under 1 ms, for 9% more bytes). So is the
 * sitemap (and its parts), made again whenever a page is added, and read by crawlers rather than visitors; on its
 * long runs of like lines quality 11 does worse besides: 4,003 pages' (244 KB) took 0.4 s at 11 for 4,589 bytes, 3 ms at
 * 6 for 3,647; 50,000 URLs (3.4 MB) 6.5 s for 55.7 KB, 50 ms for 47.3 KB (the same bytes as quality 5, and 2 MB more of
 * the encoder's memory), and with a smaller window (SITEMAP_WINDOW). Everything else (scripts, stylesheets, SVG) is
 * compressed at 11: named by content, shared by every page, compressed once and then kept in the disk cache, so the
 * best ratio costs nothing after the first build; but at 5 when larger than LARGE_FILE (`size`, in bytes).
 */
export function compressionSettings(path: string, size: number): CompressionSettings {
  if (/\.html$/.test(path)) return { brotliQuality: 6, gzipLevel: 9, retry: FIRST_FLIGHT };
  if (isSitemapFile(path)) return { brotliQuality: 6, gzipLevel: 9, brotliWindow: SITEMAP_WINDOW };
  return { brotliQuality: size > LARGE_FILE ? 5 : 11, gzipLevel: 9 };
}

/** A file and the .br and .gz siblings a build writes beside it when it is precompressed. */
export function withSiblings(file: string): [string, string, string] {
  return [file, `${file}.br`, `${file}.gz`];
}

/** The file a `.br` or `.gz` sibling stands beside, or undefined for any other path. */
export function siblingOf(path: string): string | undefined {
  return /\.(br|gz)$/.test(path) ? path.slice(0, -3) : undefined;
}

/** Where `path` is in withSiblings of its file: 1 for a `.br` sibling, 2 for a `.gz`, 0 for any other path. */
export function siblingIndex(path: string): 0 | 1 | 2 {
  return path.endsWith('.br') ? 1 : path.endsWith('.gz') ? 2 : 0;
}

/** Compressible files (see src/core/http/compressible.ts) over 1 KB get .br and .gz siblings. */
export function shouldPrecompress(path: string, size: number): boolean {
  return size > 1024 && isCompressible(path);
}

export function byteLength(data: Uint8Array | string): number {
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}

/**
 * Brotli's parameters for `data` with `settings`: its size, and a window just big enough for it (64 KB for a 35 KB
 * page rather than the default 4 MB), which the encoder sets up in a third less time and which gives the same bytes or
 * fewer; never more than the settings' `brotliWindow`.
 */
function brotliParams(
  data: Uint8Array | string,
  {
    brotliQuality,
    brotliWindow = constants.BROTLI_DEFAULT_WINDOW,
  }: Pick<CompressionSettings, 'brotliQuality' | 'brotliWindow'>,
): Record<number, number> {
  const size = byteLength(data);
  const window = Math.min(brotliWindow, Math.max(16, Math.ceil(Math.log2(Math.max(size, 1)))));
  return {
    [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_LGWIN]: window,
  };
}

function brotliOptions(data: Uint8Array | string, quality: number) {
  return { params: brotliParams(data, { brotliQuality: quality }) };
}

/** Brotli at `quality` (default 11), synchronously: for measuring (the bench), never inside the build. */
export function brotli(data: Uint8Array | string, quality = 11): Buffer {
  return brotliCompressSync(data, brotliOptions(data, quality));
}

/** Gzip level 9, synchronously: for measuring (the bench), never inside the build. */
export function gzip(data: Uint8Array | string): Buffer {
  return gzipSync(data, { level: 9 });
}

export interface Compressed {
  br: Buffer;
  gz: Buffer;
}

/**
 * What both the compression threads and the main thread (see CompressionThreads.helpWhile) run for a job: zlib's
 * synchronous calls, and the writes of a page with its .br and .gz, with synchronous calls too. Plain JavaScript,
 * evaluated as is (a worker does not inherit the TypeScript loader the tool may run under), and on the main thread
 * made into functions once (see here): one source for the bytes and the errors of either.
 */
const JOBS = `
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { brotliCompressSync, gzipSync } = require('node:zlib');

/** A job's input as bytes with its brotli (again at the retry's quality when it lands in the retry's range) and gzip. */
function compressOne({ data, brotliParams, gzipLevel, retry }) {
  const input = typeof data === 'string' ? Buffer.from(data) : data;
  let br = brotliCompressSync(input, { params: brotliParams });
  if (retry && br.length > retry.above && br.length <= retry.upTo) {
    br = brotliCompressSync(input, { params: { ...brotliParams, [retry.qualityParam]: retry.quality } });
  }
  const gz = gzipSync(input, { level: gzipLevel });
  return { input, br, gz };
}

/** Each file of \`files\` with its .br and .gz: three parts of \`parts\` each, in turn. */
function writeAll(files, parts) {
  const results = [];
  files.forEach(({ id, dest }, index) => {
    const [input, br, gz] = parts.slice(index * 3, index * 3 + 3);
    try {
      mkdirSync(dirname(dest), { recursive: true });
      writeFileSync(dest, input);
      writeFileSync(dest + '.br', br);
      writeFileSync(dest + '.gz', gz);
      results.push({ id, br: br.length, gz: gz.length, written: true });
    } catch (error) {
      results.push({ id, writeError: { message: error.message, code: error.code, path: error.path } });
    }
  });
  return results;
}
`;

/** The functions of JOBS on this thread, made when first needed. */
let here:
  | {
      compressOne: (job: JobMessage) => { input: Uint8Array; br: Buffer; gz: Buffer };
      writeAll: (files: Array<{ id: number; dest: string }>, parts: Uint8Array[]) => Reply['results'];
    }
  | undefined;
const jobsHere = () =>
  (here ??= new Function('require', `${JOBS}\nreturn { compressOne, writeAll };`)(createRequire(import.meta.url)));

/**
 * What the compression threads and the writer threads run (one script, `workerData.writer` telling which): JOBS, one
 * file after another, a batch of files per message. A compression thread writes a batch's files itself, or hands them,
 * their bytes in a shared buffer, to the writer thread the batch names, which answers the main thread. Compressed bytes
 * come back in one buffer, handed over rather than copied.
 */
const WORKER = `${JOBS}
const { parentPort, workerData } = require('node:worker_threads');

/** \`parts\` in one buffer of its own, which can be handed over (a small Buffer.concat comes from Node's shared pool). */
function pack(parts) {
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = Buffer.concat(parts, size);
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === size ? bytes : Uint8Array.prototype.slice.call(bytes);
}

if (workerData.writer) {
  parentPort.on('message', ({ port }) => {
    port.on('message', ({ files, sizes, bytes, free }) => {
      const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      let at = 0;
      const parts = sizes.map((size) => buffer.subarray(at, (at += size)));
      const results = writeAll(files, parts);
      Atomics.store(free, 0, 1);
      parentPort.postMessage({ results });
    });
  });
} else {
  const writers = new Map();
  /**
   * Shared buffers that a batch's files are copied into for a writer thread, which marks its slot free once it has
   * written them: reused, never garbage. (Handed over as plain buffers instead, they piled up on the writers, whose small
   * heaps rarely needed a collection: 60 MB more at 10,003 pages.) As many as batches under way at once.
   */
  const slots = [];
  /** A free slot (made larger or added as needed), taken, with \`parts\` copied into it. */
  function fill(parts) {
    const size = parts.reduce((sum, part) => sum + part.length, 0);
    const free = slots.filter((slot) => Atomics.load(slot.free, 0) === 1);
    let slot = free.find((each) => each.bytes.byteLength >= size);
    if (!slot) {
      slot = free[0] || { free: new Int32Array(new SharedArrayBuffer(4)) };
      if (!free[0]) slots.push(slot);
      // Room to spare, in whole MB, for the batches that follow.
      slot.bytes = new Uint8Array(new SharedArrayBuffer(Math.ceil((size * 1.25) / 2 ** 20) * 2 ** 20));
    }
    Atomics.store(slot.free, 0, 0);
    let at = 0;
    for (const part of parts) {
      slot.bytes.set(part, at);
      at += part.length;
    }
    return slot;
  }
  /**
   * Milliseconds a page, averaged over the last batches: its compression, and its writes when this thread made them.
   * A batch's writes go to a writer thread only while writing takes longer than compressing: on a disk that creates
   * files in a tenth of a millisecond, handing them over costs more than it saves (4,000 Markdown entries: 1.08x the
   * time). Every PROBE-th batch is written here all the same, to see whether the disk still is slow.
   */
  const average = { compress: 0, write: 0 };
  const PROBE = 8;
  let batches = 0;
  const measured = (key, ms, pages) => {
    average[key] = average[key] === 0 ? ms / pages : 0.8 * average[key] + (0.2 * ms) / pages;
  };
  /** 'measured' (the rule above) or 'always' (tests: see handWritesOver). */
  let handOff = workerData.handOff;
  /** Whether this thread, with no writer, has told the main thread that its writes take longer than compressing. */
  let toldSlow = false;
  parentPort.on('message', (message) => {
    if (message.port) {
      writers.set(message.writer, message.port);
      return;
    }
    if (message.handOff) {
      handOff = message.handOff;
      return;
    }
    const began = performance.now();
    const results = [];
    const parts = [];
    const files = [];
    const fileParts = [];
    for (const job of message.batch) {
      const { id, dest } = job;
      let input, br, gz;
      try {
        ({ input, br, gz } = compressOne(job));
      } catch (error) {
        results.push({ id, error: String((error && error.stack) || error) });
        continue;
      }
      if (dest === undefined) {
        results.push({ id, br: br.length, gz: gz.length });
        parts.push(br, gz);
      } else {
        files.push({ id, dest });
        fileParts.push(input, br, gz);
      }
    }
    const writer = writers.get(message.writer);
    if (files.length > 0) {
      measured('compress', performance.now() - began, message.batch.length);
      if (writer && (handOff === 'always' || (average.write > average.compress && ++batches % PROBE !== 0))) {
        const { bytes, free } = fill(fileParts);
        writer.postMessage({ files, sizes: fileParts.map((part) => part.length), bytes, free });
      } else {
        const writing = performance.now();
        results.push(...writeAll(files, fileParts));
        measured('write', performance.now() - writing, files.length);
      }
    }
    if (results.length === 0) return;
    const bytes = pack(parts);
    // The writer threads are started once writing is what holds this thread up (see WRITERS).
    const slowDisk = !writer && !toldSlow && average.write > average.compress;
    if (slowDisk) toldSlow = true;
    parentPort.postMessage({ results, bytes, slowDisk }, [bytes.buffer]);
  });
}
`;
/** What a compression thread that wrote the files itself gives back (see Compressor.compressTo): their sizes. */
export interface CompressedSizes {
  br: number;
  gz: number;
}

interface Job {
  resolve: (result: Compressed | CompressedSizes) => void;
  reject: (error: Error) => void;
  /** Its share of its thread's load (see jobCost). */
  cost: number;
  /** The compression thread it was sent to; none while it waits to be sent (see SENT_COST), or when done here. */
  thread?: Thread;
  /** The writer thread that writes its files, when one does (see WRITERS). */
  writer?: Writer;
}

interface Reply {
  results: Array<{
    id: number;
    br?: number;
    gz?: number;
    /** The thread wrote the file and its .br and .gz to the job's `dest`: no bytes come back. */
    written?: true;
    error?: string;
    writeError?: { message: string; code?: string; path?: string };
  }>;
  /** The compressed bytes of the results without `written`, in turn (none from a writer thread). */
  bytes?: Uint8Array;
  /** A compression thread with no writer thread takes longer to write its pages than to compress them. */
  slowDisk?: boolean;
}

interface JobMessage {
  id: number;
  data: Uint8Array | string;
  brotliParams: Record<number, number>;
  gzipLevel: number;
  retry?: { above: number; upTo: number; quality: number; qualityParam: number };
  /** Where the thread writes the file itself, its .br and .gz beside it (see Compressor.compressTo). */
  dest?: string;
}

/** A thread and the ids of its jobs not settled yet: it keeps the process alive while it has any. */
interface Running {
  worker: Worker;
  jobs: Set<number>;
}

interface Thread extends Running {
  /** The cost of its jobs not done yet (see jobCost). */
  load: number;
}

interface Writer extends Running {
  /** How the compression threads name it in their messages. */
  name: number;
}

/**
 * About how long a job takes, for sharing jobs between the threads by their work rather than their number: the bytes,
 * thirty times over at brotli 10 or 11 (see compressionSettings). The first page's scripts and stylesheet, at 11, take a
 * thread most of a second: counted as one job, the pages sent to that thread meanwhile would wait behind them.
 */
export function jobCost(message: Omit<JobMessage, 'id'>): number {
  const quality = message.brotliParams[constants.BROTLI_PARAM_QUALITY] ?? 11;
  return byteLength(message.data) * (quality >= 10 ? 30 : 1);
}

/**
 * Files sent to a thread in one message, at most: a build asks for thousands of pages in one loop, and a message (and
 * its reply) per page cost more than compressing a small page, in hand-offs between threads. Small enough that results
 * come back while the rest are compressed.
 */
const BATCH = 32;

/**
 * The work a compression thread is given ahead, at most (see jobCost: bytes at the usual qualities): about 40 ms of it
 * on these machines, 50 pages of the scale bench's or 400 Markdown entries'. The rest waits on this thread, where
 * the main thread takes it when it has nothing else to do (see CompressionThreads.helpWhile): a build of 10,003 pages
 * has its main thread wait for compression for a quarter of its time, with all its pages' work sent ahead to the one
 * compression thread. A thread is sent more whenever it answers, and the main thread turns the event loop every few
 * milliseconds (see YIELD_EVERY_MS in pipeline.ts), so a thread does not run dry while the main thread renders.
 */
const SENT_COST = 2_000_000;

/**
 * Writer threads, each making a batch's folders and files with synchronous calls, started once a build has asked for
 * more than WRITE_ALONE pages and a compression thread has found its writes slower than its compressing. Creating a
 * file on the disks of these machines takes from a tenth of a millisecond to a few milliseconds, depending on what else
 * the disk does; the thread waits for the file system's journal, it does not work. One compression thread writing 4,000
 * pages' 12,000 files after compressing them spent 9 s waiting in open and mkdir on a slow day, three times its zlib
 * time, the end of the build with the main thread idle; two threads waiting at once made the same files in half the
 * time or less. A compression thread hands its writes over only while they take it longer than compressing (see
 * WORKER's `average`). Both, with their shared buffers, add about 20 MB at the peak (docs/architecture.md): on a fast
 * disk they are never started.
 */
const WRITERS = 2;

/** Pages written before the writer threads start: a small site's writes take less than starting them (~40 ms of CPU each). */
const WRITE_ALONE = 2 * BATCH;

/**
 * A job that would hold a compression thread longer than about this (see jobCost: a script over ~33 KB at brotli 11)
 * runs on libuv's threads instead (see compressAside). Pages come to the compression thread 32 at a time, a millisecond
 * each; React's 214 KB chunk at quality 11 took it 0.45 s, and the pages behind it waited, and the render behind them
 * (4,000 Markdown entries: the main thread idle 0.8 s early in the build).
 */
const ASIDE = 1_000_000;

/**
 * `message` compressed on libuv's threads (zlib's asynchronous calls), beside the compression threads rather than in
 * their queue: for the few large files of a build (see ASIDE), those over LARGE_FILE one at a time (see
 * CompressionThreads.#large). The same bytes as a compression thread gives.
 */
async function compressAside({ data, brotliParams, gzipLevel }: Omit<JobMessage, 'id'>): Promise<Compressed> {
  const input = typeof data === 'string' ? Buffer.from(data) : data;
  const [br, gz] = await Promise.all([
    promisify(brotliCompress)(input, { params: brotliParams }),
    promisify(gzipAsync)(input, { level: gzipLevel }),
  ]);
  return { br, gz };
}

/**
 * The compression threads (THREADS) and the writer threads (WRITERS), shared by every Compressor of the process, each
 * started when first needed. A thread with no job is unref'd, so it never keeps the process alive; one that fails
 * takes its jobs with it, and a compression thread is replaced.
 */
class CompressionThreads {
  readonly #threads: Thread[] = [];
  readonly #writers: Writer[] = [];
  readonly #jobs = new Map<number, Job>();
  #nextId = 0;
  /** Jobs not sent to a thread yet, in the order they came (see SENT_COST). */
  #waiting: JobMessage[] = [];
  /** Jobs this thread ran itself (see helpWhile). */
  doneHere = 0;
  #flushing = false;
  /** Pages asked to be written (see WRITE_ALONE). */
  #toWrite = 0;
  #handOff: HandOff = 'measured';
  #writersStarted = false;
  /** A compression thread found its writes slower than its compressing (see Reply.slowDisk). */
  #diskSlow = false;
  /**
   * The last job over LARGE_FILE run aside (see compressAside), which the next such job waits for: each holds its input
   * as bytes and an encoder of megabytes while it runs, and a build asks for all its other files at once (its
   * sitemap's parts among them, more of them the more pages: see writeOtherFiles). Two 50,000-URL parts at once took
   * 17 MB more at 100,003 pages' peak. One at a time, they take about as long on two cores. Smaller ones (React's chunk,
   * the stylesheet, each at brotli 11) run at once, as pages may wait for them.
   */
  #large: Promise<unknown> = Promise.resolve();

  /** When the compression threads hand a batch's writes to a writer thread (see handWritesOver); starts the writers for 'always'. */
  handOff(when: HandOff): void {
    this.#handOff = when;
    for (const thread of this.#threads) thread.worker.postMessage({ handOff: when });
    if (when === 'always') this.#startWriters();
  }

  run(message: Omit<JobMessage, 'id' | 'dest'>): Promise<Compressed>;
  run(message: Omit<JobMessage, 'id'> & { dest: string }): Promise<CompressedSizes>;
  run(message: Omit<JobMessage, 'id'>): Promise<Compressed | CompressedSizes> {
    const cost = jobCost(message);
    if (message.dest === undefined && !message.retry && cost > ASIDE) {
      if (byteLength(message.data) <= LARGE_FILE) return compressAside(message);
      const made = this.#large.then(() => compressAside(message));
      this.#large = made.catch(() => undefined);
      return made;
    }
    const id = this.#nextId++;
    if (message.dest !== undefined && ++this.#toWrite === WRITE_ALONE + 1) this.#startWritersIfSlow();
    return new Promise((resolve, reject) => {
      this.#jobs.set(id, { resolve, reject, cost });
      this.#waiting.push({ id, ...message });
      if (this.#waiting.length >= BATCH) this.#send();
      else if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => {
          this.#flushing = false;
          this.#send();
        });
      }
    });
  }

  /** Starts every compression thread now, so that each is up, its code loaded, when the first files come (see Compressor.warm). */
  warm(): void {
    while (this.#threads.length < THREADS) this.#start();
  }

  /**
   * Until `waiting` settles, compresses (and writes) on this thread the jobs no compression thread was sent yet, the
   * last first, one at a time between turns of the event loop, so that the threads' answers are taken and they are
   * sent more meanwhile. For where the main thread would only wait for compression (see SENT_COST). Resolves when
   * `waiting` does; never rejects.
   */
  async helpWhile(waiting: Promise<unknown>): Promise<void> {
    let settled = false;
    const done = waiting.then(
      () => void (settled = true),
      () => void (settled = true),
    );
    while (!settled) {
      const job = this.#waiting.pop();
      if (!job) return done;
      this.#runHere(job);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** One job compressed, and written when it has a `dest`, on this thread: settled as a thread's answer would settle it. */
  #runHere(job: JobMessage): void {
    const { compressOne, writeAll } = jobsHere();
    this.doneHere += 1;
    let made: { input: Uint8Array; br: Buffer; gz: Buffer };
    try {
      made = compressOne(job);
    } catch (error) {
      this.#answer([{ id: job.id, error: String((error instanceof Error && error.stack) || error) }]);
      return;
    }
    // Bytes made here are handed on as they are: no reply buffer to share them, as a thread's are.
    if (job.dest === undefined) this.#settle(job.id)?.resolve({ br: made.br, gz: made.gz });
    else this.#answer(writeAll([{ id: job.id, dest: job.dest }], [made.input, made.br, made.gz]));
  }

  /**
   * Sends the jobs waiting to the compression threads, a batch at a time to the one with the least work, while it has
   * less than SENT_COST under way; those with files to write, to the writer thread with the fewest jobs, if any.
   */
  #send(): void {
    // A thread that stopped is replaced (its jobs failed with it).
    if (this.#waiting.length > 0) this.warm();
    while (this.#waiting.length > 0) {
      const thread = this.#least();
      if (thread.load >= SENT_COST) return;
      const batch: JobMessage[] = [];
      let cost = thread.load;
      while (batch.length < BATCH && this.#waiting.length > 0 && cost < SENT_COST) {
        const job = this.#waiting.shift()!;
        const entry = this.#jobs.get(job.id)!;
        cost += entry.cost;
        batch.push(job);
      }
      this.#post(thread, batch);
    }
  }

  #post(thread: Thread, batch: JobMessage[]): void {
    const writer = this.#writers.reduce<Writer | undefined>(
      (best, each) => (best === undefined || each.jobs.size < best.jobs.size ? each : best),
      undefined,
    );
    if (thread.jobs.size === 0) thread.worker.ref();
    for (const { id, dest } of batch) {
      const job = this.#jobs.get(id)!;
      job.thread = thread;
      thread.jobs.add(id);
      thread.load += job.cost;
      if (writer && dest !== undefined) {
        if (writer.jobs.size === 0) writer.worker.ref();
        writer.jobs.add(id);
        job.writer = writer;
      }
    }
    thread.worker.postMessage({ batch, writer: writer?.name });
  }

  /** The thread with the least work under way (see jobCost). */
  #least(): Thread {
    return this.#threads.reduce((best, thread) => (thread.load < best.load ? thread : best));
  }

  #start(): Thread {
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { handOff: this.#handOff },
      resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_MB },
    });
    const thread: Thread = { worker, jobs: new Set(), load: 0 };
    this.#listen(thread, this.#threads);
    for (const writer of this.#writers) this.#connect(thread, writer);
    this.#threads.push(thread);
    return thread;
  }

  /** Starts the writer threads once the disk was found slow, past WRITE_ALONE pages (see WRITERS). */
  #startWritersIfSlow(): void {
    if (this.#diskSlow && this.#toWrite > WRITE_ALONE) this.#startWriters();
  }

  /** Starts the writer threads, once: one that fails is not replaced (its compression thread writes instead). */
  #startWriters(): void {
    if (this.#writersStarted) return;
    this.#writersStarted = true;
    for (let name = 0; name < WRITERS; name++) {
      const worker = new Worker(WORKER, {
        eval: true,
        workerData: { writer: true },
        resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_MB },
      });
      const writer: Writer = { worker, jobs: new Set(), name };
      this.#listen(writer, this.#writers);
      for (const thread of this.#threads) this.#connect(thread, writer);
      this.#writers.push(writer);
    }
  }

  /** A channel from `thread` to `writer`, which the thread names by the writer's name. */
  #connect(thread: Thread, writer: Writer): void {
    const { port1, port2 } = new MessageChannel();
    thread.worker.postMessage({ writer: writer.name, port: port1 }, [port1]);
    writer.worker.postMessage({ port: port2 }, [port2]);
  }

  /** Settles the jobs `running` answers for; when it fails, takes it out of `list` and rejects every job it has. */
  #listen<T extends Running>(running: T, list: T[]): void {
    running.worker.on('message', (reply: Reply) => {
      if (reply.slowDisk) {
        this.#diskSlow = true;
        this.#startWritersIfSlow();
      }
      this.#answer(reply.results, reply.bytes && asBuffer(reply.bytes));
      this.#send();
    });
    const fail = (error: unknown) => {
      const index = list.indexOf(running);
      if (index >= 0) list.splice(index, 1);
      for (const id of running.jobs)
        this.#settle(id)?.reject(new Error('site-gen: a compression thread stopped', { cause: error }));
      // The jobs not sent yet go to the thread that replaces it.
      this.#send();
    };
    running.worker.on('error', fail);
    running.worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    // After the listeners: adding a 'message' listener refs the worker again, and a thread warmed (see warm) but given
    // no job would keep the process alive.
    running.worker.unref();
  }

  /** Settles the jobs of `results`, with their compressed bytes in turn in `bytes` (those not written). */
  #answer(results: Reply['results'], bytes?: Buffer): void {
    let at = 0;
    for (const { id, br, gz, written, error, writeError } of results) {
      const job = this.#settle(id);
      if (error !== undefined) job?.reject(new Error(`site-gen: compression failed: ${error}`));
      // The file system's error as a write on this thread would give it: its code names the failure.
      else if (writeError) job?.reject(Object.assign(new Error(writeError.message), writeError));
      else if (written) job?.resolve({ br: br!, gz: gz! });
      else {
        job?.resolve({ br: bytes!.subarray(at, at + br!), gz: bytes!.subarray(at + br!, at + br! + gz!) });
        at += br! + gz!;
      }
    }
  }

  /** Job `id`, no longer counted by its threads; undefined when already settled. */
  #settle(id: number): Job | undefined {
    const job = this.#jobs.get(id);
    if (!job) return undefined;
    this.#jobs.delete(id);
    for (const running of [job.thread, job.writer]) {
      if (!running) continue;
      running.jobs.delete(id);
      if (running.jobs.size === 0) running.worker.unref();
    }
    if (job.thread) job.thread.load -= job.cost;
    return job;
  }
}

/**
 * A compression thread's young generation, in MB: a batch's texts and buffers live for one message, so a small one
 * collects them as soon as they are done with. V8's default (up to 48 MB a thread, grown because every message
 * allocates a batch's worth) was resident memory the thread held for garbage.
 */
const THREAD_YOUNG_MB = 8;

/** A writer thread's young generation, in MB: it allocates little more than a batch's list of files (see THREAD_YOUNG_MB). */
const WRITER_YOUNG_MB = 2;

/**
 * One thread per core but the main thread's: it renders and assembles on a core of its own. A thread more (one per
 * core) is three threads on two cores: whenever both threads have pages, the scheduler takes a third of the main
 * thread's time, and the main thread is the build's critical path. On 2 cores, one thread built 10,003 pages in 0.90x
 * the time of two (whole processes paired in turn, 3 pairs, 2026-11-27) and 1,003 pages in 0.94x; this 3-page site took the same time, and
 * 4,000 Markdown entries, whose pages are cheap to render so that compression weighs more, 1.01x and 1.07x (two sets of
 * pairs): docs/architecture.md.
 */
const THREADS = Math.max(1, availableParallelism() - 1);

let threads: CompressionThreads | undefined;

/** When a compression thread gives a batch's writes to a writer thread: see WORKER's `average`. */
export type HandOff = 'measured' | 'always';

/**
 * Makes every compression thread hand each batch's writes to the writer threads ('always'), whatever the disk's speed,
 * or go back to deciding by measure ('measured', the default). For tests: the hand-over is otherwise taken only when the
 * disk is slow.
 */
export function handWritesOver(when: HandOff): void {
  pool().handOff(when);
}

/** The process's compression threads, made when first asked for (see CompressionThreads). */
const pool = (): CompressionThreads => (threads ??= new CompressionThreads());

/** How many jobs the main thread compressed itself while it waited (see Compressor.whileWaiting): for tests. */
export const compressedHere = (): number => pool().doneHere;

/** The same bytes as a Buffer, without a copy: a worker's reply and V8's deserialization give plain Uint8Arrays. */
export const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Where compressed results are kept between builds (the page cache, see page-cache.ts), by content hash and settings. */
export interface CompressionStore {
  compressed(key: string): Compressed | undefined;
  setCompressed(key: string, result: Compressed): void;
}

/**
 * Compresses output files, each distinct content once: results are kept in memory by content hash and settings, and
 * in `store` (when given) between builds. The work runs on threads of its own (one per core but the main thread's), so
 * every core works while the main thread goes on. An entry is named by what it was made from, so never stale.
 */
export class Compressor {
  readonly #store: CompressionStore | undefined;
  readonly #results = new Map<string, Promise<Compressed>>();
  /**
   * The last data asked for at each path and its result: the pipeline, the page report and the writer ask for the same
   * file, and each page's report for the same shared scripts, so the same bytes are not hashed again and again.
   */
  readonly #byPath = new Map<string, { data: Uint8Array | string; result: Promise<Compressed> }>();
  /** How many results came from the store and how many were compressed: for the build's summary and the bench. */
  readonly counts = { cached: 0, compressed: 0 };

  constructor(options: { store?: CompressionStore } = {}) {
    this.#store = options.store;
  }

  /**
   * Lets go of every file's data and compression held so far (a build's end: its files are written). At 100,003 pages
   * the sitemap's text, held by the path it was asked for at, was 7 MB of heap while the build record was saved.
   */
  releaseFiles(): void {
    this.#byPath.clear();
    this.#results.clear();
  }

  /** The key `data`'s compression is kept under: its bytes and the settings of `path`'s kind of file. */
  keyOf(path: string, data: Uint8Array | string): string {
    const settings = compressionSettings(path, byteLength(data));
    const params = brotliParams(data, settings);
    return shortHex(
      digest()
        .update(`${JSON.stringify(params)}-gz${settings.gzipLevel}-${JSON.stringify(settings.retry ?? null)}\0`)
        .update(data),
    );
  }

  /**
   * `data` compressed with the settings of `path`'s kind of file. `keep: false` (a build's pages, each asked for once):
   * the result is not held in memory after it is returned, so memory does not grow with the pages. `store: false`
   * (a build's pages again): nor kept in the store between builds, nor looked for there.
   */
  compress(
    path: string,
    data: Uint8Array | string,
    { keep = true, store = true }: { keep?: boolean; store?: boolean } = {},
  ): Promise<Compressed> {
    const last = this.#byPath.get(path);
    if (last && last.data === data) return last.result;
    const job = jobFor(path, data);
    if (!keep && !store) {
      return pool()
        .run(job)
        .then((made) => {
          this.counts.compressed += 1;
          return made;
        });
    }
    const key = this.keyOf(path, data);
    let result = this.#results.get(key);
    if (!result) {
      const kept = this.#store?.compressed(key);
      if (kept) {
        this.counts.cached += 1;
        result = Promise.resolve(kept);
      } else {
        result = pool()
          .run(job)
          .then((made) => {
            this.counts.compressed += 1;
            this.#store?.setCompressed(key, made);
            return made;
          });
      }
      if (keep) this.#results.set(key, result);
    }
    if (keep) this.#byPath.set(path, { data, result });
    return result;
  }

  /**
   * Starts the compression threads now rather than with the first file: a build calls it before it loads the site, so
   * the threads start on the other core while this one loads, and its first pages do not wait for them.
   */
  warm(): void {
    pool().warm();
  }

  /**
   * Resolves when `waiting` settles (never rejects), this thread compressing meanwhile what the compression threads
   * were not sent yet (see CompressionThreads.helpWhile): for where a build would only wait for its pages' compression.
   */
  whileWaiting(waiting: Promise<unknown>): Promise<void> {
    return pool().helpWhile(waiting);
  }

  /**
   * `data` compressed with the settings of `path`'s kind of file, and written with its .br and .gz beside it to `dest`
   * (a file's full path; its folder is made) by the compression thread itself: the compressed bytes never come back to
   * this thread, only their sizes, and this thread makes none of the writes. For a build's pages, each compressed once:
   * neither kept in memory nor in the store. A failed write rejects with the file system's error (its `code` set), for
   * the output folder to report (see OutputFolder.writeCompressed).
   */
  compressTo(path: string, data: Uint8Array | string, dest: string): Promise<CompressedSizes> {
    return pool()
      .run({ ...jobFor(path, data), dest })
      .then((sizes) => {
        this.counts.compressed += 1;
        return sizes;
      });
  }
}

/** What a thread needs to compress `data` with the settings of `path`'s kind of file. */
function jobFor(path: string, data: Uint8Array | string): Omit<JobMessage, 'id' | 'dest'> {
  const settings = compressionSettings(path, byteLength(data));
  return {
    data,
    brotliParams: brotliParams(data, settings),
    gzipLevel: settings.gzipLevel,
    retry: settings.retry && { ...settings.retry, qualityParam: constants.BROTLI_PARAM_QUALITY },
  };
}
