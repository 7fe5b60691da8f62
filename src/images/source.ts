// Reads what a render needs to know of an image file, synchronously: its content hash, format and displayed size.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ContentError } from '../core/errors.ts';
import type { ImageSource, SourceFormat } from './plan.ts';

const FORMATS: Record<string, SourceFormat> = { jpg: 'jpeg', jpeg: 'jpeg', png: 'png', webp: 'webp', avif: 'avif' };

/** Image files by path, kept while their size and change time stay the same: a render reads each file once. */
export class ImageSources {
  readonly #known = new Map<string, { stamp: string; source: ImageSource }>();

  /**
   * The image at `file` (absolute); `shown` names it in errors (the project-relative path, or the Markdown file and line
   * that uses it), and `from` what its path is relative to. Throws a ContentError naming it when it is missing or not an
   * image sharp can encode from.
   */
  read(file: string, shown: string, from = 'the file using it'): ImageSource {
    let stamp: string;
    try {
      const info = statSync(file);
      stamp = `${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
    } catch {
      throw new ContentError(`${shown}: the image file does not exist. Check the path (relative to ${from}).`);
    }
    const kept = this.#known.get(file);
    if (kept?.stamp === stamp) return kept.source;
    const source = readSource(file, shown);
    this.#known.set(file, { stamp, source });
    return source;
  }

  /** Every image file read so far: the watcher reruns the renders when one changes. */
  files(): string[] {
    return [...this.#known.keys()];
  }
}

type ImageSize = typeof import('image-size').imageSize;
let imageSizeCode: ImageSize | undefined;

/**
 * image-size, loaded when the first image is read (a site that shows none never loads it), by `require` since a
 * render reads its images synchronously.
 */
function imageSize(bytes: Uint8Array): ReturnType<ImageSize> {
  imageSizeCode ??= (createRequire(import.meta.url)('image-size') as typeof import('image-size')).imageSize;
  return imageSizeCode(bytes);
}

/** Reads one image file: throws a ContentError naming `shown` when it is not a JPEG, PNG, WebP or AVIF file. */
export function readSource(file: string, shown: string): ImageSource {
  const bytes = readFileSync(file);
  let size: ReturnType<ImageSize>;
  try {
    size = imageSize(bytes);
  } catch (error) {
    // image-size's own words for bytes of no format it knows name none ("unsupported file type: undefined").
    const why = /unsupported file type/i.test((error as Error).message) ? 'no image format' : (error as Error).message;
    throw new ContentError(
      `${shown}: the file is not a readable image (${why}). Replace it with a JPEG, PNG, WebP or AVIF file.`,
      { cause: error },
    );
  }
  const format = FORMATS[size.type ?? ''];
  if (!format || !size.width || !size.height)
    throw new ContentError(
      `${shown}: the file is ${size.type ? `a ${size.type.toUpperCase()} image` : 'not an image'}; responsive images are made from JPEG, PNG, WebP or AVIF files.`,
    );
  // EXIF orientations 5 to 8 turn the picture a quarter: the encoder rotates it upright, so the shown size swaps.
  const turned = (size.orientation ?? 1) >= 5;
  return {
    file,
    hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
    format,
    width: turned ? size.height : size.width,
    height: turned ? size.width : size.height,
  };
}
