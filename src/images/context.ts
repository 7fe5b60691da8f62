// What a render gives the image components: how to read a source file and where to note the files a page needs.
import { createContext } from 'react';
import type { ImageJob, ImageSource } from './plan.ts';

export interface ImageRenderer {
  /** The project folder: an <Image src> is a path inside it. */
  root: string;
  /**
   * The image at an absolute path; throws an error naming `shown` when it is missing or unreadable (and, when missing,
   * saying its path is relative to `from`).
   */
  source(file: string, shown: string, from?: string): ImageSource;
  /** Notes the output files an image on the page needs (encoded after the render, see encode.ts). */
  use(jobs: readonly ImageJob[]): void;
}

/** Provided by the page renderer; null in the browser, where images are already made. */
// Pure: a browser bundle that never renders an <Image> drops it (and the whole images module) entirely.
export const ImageContext = /* @__PURE__ */ createContext<ImageRenderer | null>(null);
