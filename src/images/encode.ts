// Encodes the images pages use with sharp, each output file once: kept by name in memory and on disk between builds.
import { existsSync } from 'node:fs';
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
   * The output files of `jobs`, each encoded only if no earlier run made it. `onProgress` is told of the files to
   * encode (those neither made by this store nor kept in the cache folder), once before the first and after each; not
   * at all when every file is kept: a photo's AVIF at a few widths takes seconds, which a build shows.
   */
  async files(
    jobs: Iterable<ImageJob>,
    onProgress?: (done: number, total: number) => void,
  ): Promise<Map<string, Uint8Array>> {
    const unique = new Map<string, ImageJob>();
    for (const job of jobs) unique.set(job.file, job);
    const pending = [...unique.values()];
    const toEncode = new Set(
      onProgress ? pending.filter((job) => !this.#made.has(job.file) && !existsSync(this.#cached(job))) : [],
    );
    let encoded = 0;
    if (toEncode.size > 0) onProgress!(0, toEncode.size);
    const out = new Map<string, Uint8Array>();
    // sharp runs each encode on libvips' threads: a few at a time keeps every core busy without queueing them all.
    const lanes = Math.max(2, availableParallelism());
    const next = async (): Promise<void> => {
      for (let job = pending.shift(); job; job = pending.shift()) {
        out.set(job.file, await this.#file(job));
        if (toEncode.has(job)) onProgress!((encoded += 1), toEncode.size);
      }
    };
    await Promise.all(Array.from({ length: lanes }, next));
    return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
  }

  #file(job: ImageJob): Promise<Uint8Array> {
    let made = this.#made.get(job.file);
    if (made) {
      this.counts.kept += 1;
      return made;
    }
    made = this.#readOrEncode(job);
    made.catch(() => this.#made.delete(job.file));
    this.#made.set(job.file, made);
    return made;
  }

  /** Where the cache folder keeps the file of `job`. */
  #cached(job: ImageJob): string {
    return join(this.#dir, job.file.replace(/^.*\//, ''));
  }

  async #readOrEncode(job: ImageJob): Promise<Uint8Array> {
    const cached = this.#cached(job);
    try {
      const data = await readFile(cached);
      this.counts.kept += 1;
      return data;
    } catch {
      // not encoded yet
    }
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
    throw new ContentError(
      `${shown}: sharp could not read the image (${(error as Error).message}). Replace it with an intact JPEG, PNG, WebP or AVIF file.`,
      { cause: error },
    );
  }
}
