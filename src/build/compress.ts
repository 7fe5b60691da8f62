// Brotli and gzip of the output: settings per kind of file, each distinct content compressed once, off the main thread, cached on disk.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** How a file is compressed. Part of every cache key, so a change of settings never serves an old result. */
export interface CompressionSettings {
  brotliQuality: number;
  gzipLevel: number;
}

/**
 * Pages are compressed at brotli 6: they are unique per page and made again by every content change, so their cost
 * grows with the site (quality 11 takes ~35 ms for a 33 KB page, quality 6 under 1 ms, for 9% more bytes). Everything
 * else (scripts, stylesheets, SVG, the sitemap) is compressed at 11: named by content, shared by every page, compressed
 * once and then kept in the disk cache, so the best ratio costs nothing after the first build.
 */
export function compressionSettings(path: string): CompressionSettings {
  return { brotliQuality: /\.html$/.test(path) ? 6 : 11, gzipLevel: 9 };
}

const TEXT = /\.(html|css|js|mjs|json|svg|xml|txt|webmanifest|map|ico)$/;

/** Text files over 1 KB get .br and .gz siblings. */
export function shouldPrecompress(path: string, size: number): boolean {
  return TEXT.test(path) && size > 1024;
}

export function byteLength(data: Uint8Array | string): number {
  return typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
}

function brotliOptions(data: Uint8Array | string, quality: number) {
  return { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: byteLength(data) } };
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
 * What each compression thread runs: compresses with zlib's synchronous calls, reading and writing the disk cache
 * itself, so that neither the main thread nor libuv's pool (which writes the output) spends time on a file. An entry
 * is one file: the two lengths, then the brotli and gzip bytes; written beside and renamed, so a build killed halfway
 * never leaves a truncated entry, and one whose lengths do not add up is compressed again. Plain JavaScript, evaluated
 * as is: a worker does not inherit the TypeScript loader the tool may run under.
 */
const WORKER = `
const { parentPort } = require('node:worker_threads');
const { brotliCompressSync, constants, gzipSync } = require('node:zlib');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const made = new Set();
function read(file) {
  let entry;
  try { entry = readFileSync(file); } catch { return undefined; }
  if (entry.length < 8) return undefined;
  const brLength = entry.readUInt32LE(0);
  const gzLength = entry.readUInt32LE(4);
  if (8 + brLength + gzLength !== entry.length) return undefined;
  return { br: entry.subarray(8, 8 + brLength), gz: entry.subarray(8 + brLength) };
}
function store(file, br, gz) {
  try {
    const dir = dirname(file);
    if (!made.has(dir)) { mkdirSync(dir, { recursive: true }); made.add(dir); }
    const header = Buffer.alloc(8);
    header.writeUInt32LE(br.length, 0);
    header.writeUInt32LE(gz.length, 4);
    const temporary = file + '.' + process.pid + '-' + Math.random().toString(36).slice(2);
    writeFileSync(temporary, Buffer.concat([header, br, gz]));
    renameSync(temporary, file);
  } catch {
    // a read-only or full disk: the build still has the result
  }
}
parentPort.on('message', ({ id, data, brotliQuality, gzipLevel, file }) => {
  try {
    const kept = file && read(file);
    if (kept) return parentPort.postMessage({ id, br: kept.br, gz: kept.gz, cached: true });
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: size } });
    const gz = gzipSync(data, { level: gzipLevel });
    if (file) store(file, br, gz);
    parentPort.postMessage({ id, br, gz, cached: false });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.stack || error) });
  }
});
`;

interface Job {
  resolve: (result: Compressed & { cached: boolean }) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  jobs: Map<number, Job>;
}

/**
 * One compression thread per core, shared by every Compressor of the process, started when first needed. A thread
 * with no job is unref'd, so it never keeps the process alive; one that fails takes its jobs with it and is replaced.
 */
class CompressionThreads {
  readonly #threads: Thread[] = [];
  #nextId = 0;

  run(message: { data: Uint8Array | string; brotliQuality: number; gzipLevel: number; file?: string }): Promise<Compressed & { cached: boolean }> {
    const thread = this.#least();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (thread.jobs.size === 0) thread.worker.ref();
      thread.jobs.set(id, { resolve, reject });
      thread.worker.postMessage({ id, ...message });
    });
  }

  /** The thread with the fewest jobs waiting, started if there are fewer threads than cores. */
  #least(): Thread {
    if (this.#threads.length < THREADS) {
      const idle = this.#threads.find((thread) => thread.jobs.size === 0);
      if (idle) return idle;
      return this.#start();
    }
    return this.#threads.reduce((best, thread) => (thread.jobs.size < best.jobs.size ? thread : best));
  }

  #start(): Thread {
    const thread: Thread = { worker: new Worker(WORKER, { eval: true }), jobs: new Map() };
    thread.worker.unref();
    thread.worker.on('message', (reply: { id: number; br?: Uint8Array; gz?: Uint8Array; cached?: boolean; error?: string }) => {
      const job = thread.jobs.get(reply.id);
      thread.jobs.delete(reply.id);
      if (thread.jobs.size === 0) thread.worker.unref();
      if (!job) return;
      if (reply.error !== undefined) job.reject(new Error(`site-gen: compression failed: ${reply.error}`));
      else job.resolve({ br: asBuffer(reply.br!), gz: asBuffer(reply.gz!), cached: reply.cached === true });
    });
    const fail = (error: unknown) => {
      const index = this.#threads.indexOf(thread);
      if (index >= 0) this.#threads.splice(index, 1);
      for (const job of thread.jobs.values()) job.reject(new Error('site-gen: a compression thread stopped', { cause: error }));
      thread.jobs.clear();
    };
    thread.worker.on('error', fail);
    thread.worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
    this.#threads.push(thread);
    return thread;
  }
}

/** One thread per core: the main thread renders and assembles meanwhile, so the threads take turns with it. */
const THREADS = Math.max(2, availableParallelism());

let threads: CompressionThreads | undefined;

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Compresses output files, each distinct content once: results are kept in memory by content hash and settings, and
 * in `cacheDir` (when given) between builds. The work runs on threads of its own (one per core), so every core works
 * while the main thread goes on. The cache is safe to delete; an entry is named by what it was made from, so never stale.
 */
export class Compressor {
  readonly #cacheDir: string | undefined;
  readonly #results = new Map<string, Promise<Compressed>>();
  /**
   * The last data asked for at each path and its result: the pipeline, the page report and the writer ask for the same
   * file, and each page's report for the same shared scripts, so the same bytes are not hashed again and again.
   */
  readonly #byPath = new Map<string, { data: Uint8Array | string; result: Promise<Compressed> }>();
  /** How many results came from the disk cache and how many were compressed: for the build's summary and the bench. */
  readonly counts = { cached: 0, compressed: 0 };

  constructor(options: { cacheDir?: string } = {}) {
    this.#cacheDir = options.cacheDir;
  }

  /** `data` compressed with the settings of `path`'s kind of file. */
  compress(path: string, data: Uint8Array | string): Promise<Compressed> {
    const last = this.#byPath.get(path);
    if (last && last.data === data) return last.result;
    const settings = compressionSettings(path);
    const key = createHash('sha256').update(`br${settings.brotliQuality}-gz${settings.gzipLevel}\0`).update(data).digest('hex').slice(0, 32);
    let result = this.#results.get(key);
    if (!result) {
      threads ??= new CompressionThreads();
      const file = this.#cacheDir && join(this.#cacheDir, key.slice(0, 2), key);
      result = threads.run({ data, ...settings, file }).then(({ br, gz, cached }) => {
        this.counts[cached ? 'cached' : 'compressed'] += 1;
        return { br, gz };
      });
      this.#results.set(key, result);
    }
    this.#byPath.set(path, { data, result });
    return result;
  }
}

/** The compression cache of a project: in node_modules/.cache, where tools keep what they can make again. */
export function compressionCacheDir(cacheRoot: string): string {
  return join(cacheRoot, 'compressed');
}
