// Brotli and gzip of the output: settings per kind of file, each distinct content compressed once, off the main thread, cached on disk.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip as gzipAsync, gzipSync } from 'node:zlib';

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

/** One file per core at once, its brotli and gzip side by side: libuv's four threads and both cores stay busy. */
const COMPRESSIONS_AT_ONCE = Math.max(2, availableParallelism());

const brotliAsync = promisify(brotliCompress);
const gzipPromise = promisify(gzipAsync);

export interface Compressed {
  br: Buffer;
  gz: Buffer;
}

/**
 * Compresses output files, each distinct content once: results are kept in memory by content hash and settings, and
 * in `cacheDir` (when given) between builds. zlib's async calls run on libuv's thread pool, so every core works while
 * the main thread goes on. The cache is safe to delete; an entry is named by what it was made from, so never stale.
 */
export class Compressor {
  readonly #cacheDir: string | undefined;
  readonly #results = new Map<string, Promise<Compressed>>();
  #madeDir: Promise<unknown> | undefined;
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  /** How many results came from the disk cache and how many were compressed: for the build's summary and the bench. */
  readonly counts = { cached: 0, compressed: 0 };

  constructor(options: { cacheDir?: string } = {}) {
    this.#cacheDir = options.cacheDir;
  }

  /** `data` compressed with the settings of `path`'s kind of file. */
  compress(path: string, data: Uint8Array | string): Promise<Compressed> {
    const settings = compressionSettings(path);
    const key = createHash('sha256').update(`br${settings.brotliQuality}-gz${settings.gzipLevel}\0`).update(data).digest('hex').slice(0, 32);
    let result = this.#results.get(key);
    if (!result) {
      result = this.#load(key, data, settings);
      this.#results.set(key, result);
    }
    return result;
  }

  async #load(key: string, data: Uint8Array | string, settings: CompressionSettings): Promise<Compressed> {
    const files = this.#cacheDir ? { br: join(this.#cacheDir, `${key}.br`), gz: join(this.#cacheDir, `${key}.gz`) } : undefined;
    if (files) {
      try {
        const [br, gz] = await Promise.all([readFile(files.br), readFile(files.gz)]);
        this.counts.cached += 1;
        return { br, gz };
      } catch {
        // not cached yet (or half-deleted): compress
      }
    }
    await this.#slot();
    let br: Buffer;
    let gz: Buffer;
    try {
      [br, gz] = await Promise.all([brotliAsync(data, brotliOptions(data, settings.brotliQuality)), gzipPromise(data, { level: settings.gzipLevel })]);
    } finally {
      this.#release();
    }
    this.counts.compressed += 1;
    if (files) await this.#store(files, { br, gz });
    return { br, gz };
  }

  /**
   * Waits for one of the few compressions that run at once. Each zlib call holds its encoder's memory (megabytes for
   * brotli) from the moment it is made: a thousand pages asked for at once would hold a thousand encoders.
   */
  async #slot(): Promise<void> {
    if (this.#running < COMPRESSIONS_AT_ONCE) {
      this.#running += 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#running -= 1;
  }

  /** Writes beside, then renames: a build killed halfway never leaves a truncated entry. A failed write only costs the cache. */
  async #store(files: { br: string; gz: string }, result: Compressed): Promise<void> {
    try {
      this.#madeDir ??= mkdir(this.#cacheDir!, { recursive: true });
      await this.#madeDir;
      const temporary = `.${process.pid}-${Math.random().toString(36).slice(2)}`;
      await Promise.all([writeFile(files.br + temporary, result.br), writeFile(files.gz + temporary, result.gz)]);
      await Promise.all([rename(files.br + temporary, files.br), rename(files.gz + temporary, files.gz)]);
    } catch {
      // a read-only or full disk: the build still has the result
    }
  }
}

/** The compression cache of a project: in node_modules/.cache, where tools keep what they can make again. */
export function compressionCacheDir(cacheRoot: string): string {
  return join(cacheRoot, 'compressed');
}
