// <Image>: a responsive picture from an image file in the project: AVIF and WebP at a few widths, a fallback, its size.
import { createElement, useContext, type ImgHTMLAttributes } from 'react';
import { useBase } from '../base.ts';
import { ContentError } from '../core/errors.ts';
import { ImageContext } from './context.ts';
import { FIRST_SCREEN_ATTRIBUTE, planImage } from './plan.ts';

export interface ImageProps
  extends Omit<
    ImgHTMLAttributes<HTMLImageElement>,
    'src' | 'srcSet' | 'sizes' | 'width' | 'height' | 'loading' | 'decoding' | 'fetchPriority' | 'alt'
  > {
  /** The image file, relative to the project folder, under src/site/ or content/: "src/site/images/team.jpg". */
  src: string;
  /** What the picture shows, for those who cannot see it; "" only for a purely decorative image. */
  alt: string;
  /** Width it is shown at, in CSS pixels (default the file's width, up to 1,200); the height follows. */
  width?: number;
  /** The `sizes` attribute, when the picture is not shown at `width` up to the viewport's width. */
  sizes?: string;
  /**
   * On the first screen: loaded at once rather than lazily; the largest such image of the page gets
   * fetchpriority="high". Leave it off below the first screen.
   */
  priority?: boolean;
}

export function Image({ src, alt, width, sizes, priority = false, ...props }: ImageProps) {
  const images = useContext(ImageContext);
  const base = useBase();
  if (!images)
    throw new ContentError(
      `<Image src="${src}">: images are made when pages are rendered by site-gen; render <Image> in a page, not in an island.`,
    );
  if (typeof alt !== 'string')
    throw new ContentError(
      `<Image src="${src}"> has no alt. Describe the picture in alt="…" (alt="" only for a decorative image).`,
    );
  // Only there does the build look for a replaced image before reusing a page it rendered earlier (fingerprint.ts).
  if (!/^\.?\/?(src\/site|content)\//.test(src))
    throw new ContentError(
      `<Image src="${src}">: keep images under src/site/ or content/ (the path is relative to the project folder), e.g. src="src/site/images/team.jpg".`,
    );
  const planned = planImage(
    images.source(`${images.root}/${src.replace(/^\.?\//, '')}`, `<Image src="${src}">`, 'the project folder'),
    { width, sizes, base },
  );
  images.use(planned.jobs);
  const { img } = planned;
  const loading = priority
    ? { loading: 'eager' as const, [FIRST_SCREEN_ATTRIBUTE]: img.width * img.height }
    : { loading: 'lazy' as const, decoding: 'async' as const };
  // createElement rather than JSX: the public entry is bundled for the browser too, and a JSX runtime import there would
  // change every site's script chunks whether it shows an image or not.
  return createElement(
    'picture',
    null,
    ...planned.sources.map((source) =>
      createElement('source', { key: source.type, type: source.type, srcSet: source.srcset, sizes: img.sizes }),
    ),
    createElement('img', {
      src: img.src,
      srcSet: img.srcset,
      sizes: img.sizes,
      width: img.width,
      height: img.height,
      alt,
      ...props,
      ...loading,
    }),
  );
}
