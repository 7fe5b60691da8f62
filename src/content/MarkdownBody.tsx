// <Markdown entry={entry} />: a Markdown entry's body on a page, its links and pictures under the site's base.
import { createElement, useContext, type HTMLAttributes } from 'react';
import { useBase } from '../base.ts';
import { ImageContext } from '../images/context.ts';
import type { Entry } from './collection.ts';

export interface MarkdownProps extends HTMLAttributes<HTMLElement> {
  entry: Entry;
  /** The element around the body; default "div". */
  as?: 'div' | 'article' | 'section';
}

export function Markdown({ entry, as = 'div', ...props }: MarkdownProps) {
  const images = useContext(ImageContext);
  const base = useBase();
  // The page needs the body's picture files: noted for the encoder, as an <Image> on the page notes its own.
  images?.use(entry.images);
  return createElement(as, { ...props, dangerouslySetInnerHTML: { __html: withBaseUrls(entry.html, base) } });
}

/** The body was rendered for the base "/": its root-relative href, src and srcset URLs move under `base`. */
export function withBaseUrls(html: string, base: string): string {
  if (base === '/') return html;
  return html
    .replace(/(\s(?:href|src)=")\/(?!\/)/g, `$1${base}`)
    .replace(
      /(\ssrcset=")([^"]*)"/g,
      (_all, start: string, list: string) => `${start}${list.replace(/(^|, )\/(?!\/)/g, `$1${base}`)}"`,
    );
}
