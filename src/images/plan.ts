// What one image on a page becomes: its output files (named by content and settings), srcset, sizes and <img> size.
// Pure: no file system, no sharp (the public <Image> component imports it, and the browser bundle may too).

export type SourceFormat = 'jpeg' | 'png' | 'webp' | 'avif';
export type OutputFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export interface ImageSource {
  /** Absolute path of the source file. */
  file: string;
  /** Hash of the file's bytes. */
  hash: string;
  format: SourceFormat;
  /** Intrinsic size, upright (after its EXIF orientation). */
  width: number;
  height: number;
}

/** One file the encoder writes: `file` is its path in the output folder, and the name of its copy in the cache. */
export interface ImageJob {
  file: string;
  source: string;
  sourceHash: string;
  width: number;
  format: OutputFormat;
  quality: number;
}

export interface PlannedImage {
  /** <source> elements, best format first: AVIF, then WebP. */
  sources: Array<{ type: string; srcset: string }>;
  /** The fallback <img>: the source's own format (PNG stays PNG; JPEG, WebP and AVIF fall back to JPEG). */
  img: { src: string; srcset: string; sizes: string; width: number; height: number };
  jobs: ImageJob[];
}

export interface PlanOptions {
  /** Width it is shown at, in CSS pixels; default the source's width, up to 1,200. Height follows the aspect ratio. */
  width?: number;
  /** The `sizes` attribute; default "(min-width: Wpx) Wpx, 100vw" for a shown width W. */
  sizes?: string;
  /** URL base of the site ("/", "/sub/"). */
  base: string;
}

/** Widths made below the largest one (the shown width at 2x, capped by the source): a phone, a tablet, a laptop. */
export const BREAKPOINTS = [480, 800, 1200, 1600] as const;
export const DEFAULT_MAX_WIDTH = 1200;
/** Encoder quality per format: AVIF and WebP reach JPEG 80's look at fewer bytes. Part of every output name. */
export const QUALITY: Record<OutputFormat, number> = { avif: 50, webp: 75, jpeg: 80, png: 100 };
const MIME: Record<OutputFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};
const EXTENSION: Record<OutputFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' };
/** Where the encoded files go in the output folder. */
export const IMAGE_DIR = 'assets/img/';

/**
 * The widths to encode for an image shown `shown` CSS pixels wide: the breakpoints below the largest, but none within
 * 15% of it (a 1,200 beside a 1,280 is three more encodes for a file no browser needs).
 */
export function widthsFor(source: ImageSource, shown: number): number[] {
  const largest = Math.min(source.width, Math.round(shown * 2));
  return [...new Set([...BREAKPOINTS.filter((w) => w <= largest * 0.85), largest])].sort((a, b) => a - b);
}

/** Output names, srcset and sizes of `source` shown as `options` says. */
export function planImage(source: ImageSource, options: PlanOptions): PlannedImage {
  const shownWidth = Math.max(1, Math.round(options.width ?? Math.min(source.width, DEFAULT_MAX_WIDTH)));
  const shownHeight = Math.max(1, Math.round((shownWidth * source.height) / source.width));
  const widths = widthsFor(source, shownWidth);
  const fallback: OutputFormat = source.format === 'png' ? 'png' : 'jpeg';
  const stem = source.file
    .replace(/^.*[\\/]/, '')
    .replace(/\.[^.]+$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  const jobs: ImageJob[] = [];
  const srcset = (format: OutputFormat) =>
    widths
      .map((width) => {
        const quality = QUALITY[format];
        // Named by the source's bytes and every setting that changes the output: equal names are equal files.
        const file = `${IMAGE_DIR}${stem || 'image'}-${source.hash.slice(0, 10)}-${width}q${quality}.${EXTENSION[format]}`;
        jobs.push({ file, source: source.file, sourceHash: source.hash, width, format, quality });
        return `${options.base}${file} ${width}w`;
      })
      .join(', ');
  const sources = (['avif', 'webp'] as const).map((format) => ({ type: MIME[format], srcset: srcset(format) }));
  const fallbackSet = srcset(fallback);
  const fallbackWidth = widths.find((w) => w >= shownWidth) ?? widths.at(-1)!;
  const src = jobs.find((job) => job.format === fallback && job.width === fallbackWidth)!.file;
  return {
    sources,
    img: {
      src: options.base + src,
      srcset: fallbackSet,
      sizes: options.sizes ?? `(min-width: ${shownWidth}px) ${shownWidth}px, 100vw`,
      width: shownWidth,
      height: shownHeight,
    },
    jobs,
  };
}

/**
 * First-screen images carry this attribute (valued by their shown area) until the page is rendered; then the largest
 * gets fetchpriority="high" and the others lose it (see `settlePriority`).
 */
export const FIRST_SCREEN_ATTRIBUTE = 'data-site-gen-first-screen';

/** Gives the page's largest first-screen image fetchpriority="high", and removes the marks of the others. */
export function settlePriority(html: string): string {
  if (!html.includes(FIRST_SCREEN_ATTRIBUTE)) return html;
  const marks = new RegExp(` ${FIRST_SCREEN_ATTRIBUTE}="(\\d+)"`, 'g');
  let largest = -1;
  let at = -1;
  for (const match of html.matchAll(marks)) {
    if (Number(match[1]) > largest) {
      largest = Number(match[1]);
      at = match.index;
    }
  }
  return html.replace(marks, (_mark, _area, offset: number) => (offset === at ? ' fetchpriority="high"' : ''));
}

/** The <picture> as HTML (for Markdown, rendered before React sees it); `<Image>` renders the same with React. */
export function pictureHtml(
  planned: PlannedImage,
  attributes: { alt: string; firstScreen: boolean; className?: string },
): string {
  const { img } = planned;
  const attr = (value: string) =>
    value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const sources = planned.sources
    .map((source) => `<source type="${source.type}" srcset="${attr(source.srcset)}" sizes="${attr(img.sizes)}">`)
    .join('');
  const loading = attributes.firstScreen
    ? `loading="eager" ${FIRST_SCREEN_ATTRIBUTE}="${img.width * img.height}"`
    : 'loading="lazy" decoding="async"';
  const className = attributes.className ? ` class="${attr(attributes.className)}"` : '';
  return `<picture>${sources}<img src="${attr(img.src)}" srcset="${attr(img.srcset)}" sizes="${attr(img.sizes)}" width="${img.width}" height="${img.height}" alt="${attr(attributes.alt)}"${className} ${loading}></picture>`;
}
