// Encodes the images pages use with sharp, each output file once: kept by name in memory and on disk between builds.
import { availableParallelism } from 'node:os';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ContentError } from '../core/errors.ts';
import type { ImageJob } from './plan.ts';
import { ImageSources } from './source.ts';

/**
 * What the pipeline keeps of images: the sources a render reads (see ImageSources) and every encoded file by name.
 * A name is made from the source's bytes and the settings, so a file of that name never needs encoding again.
 */
export class ImageStore {
  readonly sources = new ImageSources();
  /** Files encoded by this store, and files found already encoded (in memory or in the cache folder). */
  readonly counts = { encoded: 0, kept: 0 };
  readonly #dir: string;
  readonly #root: string;
  readonly #made = new Map<string, Promise<Uint8Array>>();

  /** `cacheDir`: where encoded files are kept between builds; `root`: the project, for the names in errors. */
  constructor(cacheDir: string, root: string) {
    this.#dir = join(cacheDir, 'images');
    this.#root = root;
  }

  /**
   * The output files of `jobs`: first those this store made or the cache folder keeps, read back; then the others,
   * encoded. `onProgress` is told of those to encode, once before the first (with the jobs) and after each (not at all
   * when every file is kept): a photo's AVIF at a few widths takes seconds, which a build shows.
   */
  async files(
    jobs: Iterable<ImageJob>,
    onProgress?: (done: number, total: number, encoding: readonly ImageJob[]) => void,
  ): Promise<Map<string, Uint8Array>> {
    const unique = new Map<string, ImageJob>();
    for (const job of jobs) unique.set(job.file, job);
    const out = new Map<string, Uint8Array>();
    const missing: ImageJob[] = [];
    await inLanes([...unique.values()], async (job) => {
      const kept = await this.#kept(job);
      if (kept) out.set(job.file, kept);
      else missing.push(job);
    });
    let encoded = 0;
    if (missing.length > 0) onProgress?.(0, missing.length, missing);
    await inLanes(missing, async (job) => {
      out.set(job.file, await this.#encoded(job));
      onProgress?.((encoded += 1), missing.length, missing);
    });
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The file of `job` if this store made it (or is making it) or the cache folder keeps it. */
  async #kept(job: ImageJob): Promise<Uint8Array | undefined> {
    const made = this.#made.get(job.file);
    if (made) {
      this.counts.kept += 1;
      return made;
    }
    let data: Uint8Array;
    try {
      data = await readFile(this.#cached(job));
    } catch {
      return undefined; // not encoded yet
    }
    this.counts.kept += 1;
    if (!this.#made.has(job.file)) this.#made.set(job.file, Promise.resolve(data));
    return data;
  }

  /** The file of `job`, encoded once however many ask for it at a time, and kept in the cache folder. */
  #encoded(job: ImageJob): Promise<Uint8Array> {
    let made = this.#made.get(job.file);
    if (made) {
      this.counts.kept += 1;
      return made;
    }
    made = this.#encode(job);
    made.catch(() => this.#made.delete(job.file));
    this.#made.set(job.file, made);
    return made;
  }

  /** Where the cache folder keeps the file of `job`. */
  #cached(job: ImageJob): string {
    return join(this.#dir, job.file.replace(/^.*\//, ''));
  }

  async #encode(job: ImageJob): Promise<Uint8Array> {
    const cached = this.#cached(job);
    const data = await encode(job, relative(this.#root, job.source));
    this.counts.encoded += 1;
    await mkdir(this.#dir, { recursive: true });
    // Written beside, then renamed: a build stopped halfway never leaves half a file under the final name.
    const partial = `${cached}.${process.pid}.partial`;
    await writeFile(partial, data);
    await rename(partial, cached);
    return data;
  }
}

/** Runs `each` over `items` a few at a time: sharp encodes on libvips' threads, and this keeps every core busy. */
async function inLanes<T>(items: T[], each: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const lane = async (): Promise<void> => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await each(item);
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, lane));
}

/** An image file whose header read well but whose pixels sharp could not decode (a truncated JPEG): `source`, its path. */
export class ImageEncodingError extends ContentError {
  constructor(
    readonly source: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** libvips may say it in several lines, the same one twice (one per thread that met it): once each, on one line. */
function oneLine(message: string): string {
  return [...new Set(message.split('\n').map((line) => line.trim()))].filter(Boolean).join('; ');
}

/** One output file, upright (EXIF orientation applied), without metadata. */
async function encode(job: ImageJob, shown: string): Promise<Uint8Array> {
  const { default: sharp } = await import('sharp');
  try {
    const image = sharp(job.source).rotate().resize({ width: job.width, withoutEnlargement: true });
    const options = { quality: job.quality };
    const encoded = {
      avif: () => image.avif({ ...options, effort: 4 }),
      webp: () => image.webp(options),
      jpeg: () => image.jpeg({ ...options, mozjpeg: true }),
      png: () => image.png({ compressionLevel: 9, palette: false }),
    }[job.format]();
    return await encoded.toBuffer();
  } catch (error) {
    throw new ImageEncodingError(
      job.source,
      `${shown}: sharp could not read the image (${oneLine((error as Error).message)}). Replace it with an intact JPEG, PNG, WebP or AVIF file.`,
      { cause: error },
    );
  }
}
