// Where a content link points from a given page: home-page anchors become "/#about" elsewhere, site paths get the URL base.
import { withBase } from 'site-gen-ssg';

/** The href to render for a content link on the page at `path` ("/", "/contact", "/404") of a site served under `base`. */
export function pageHref(href: string, path: string, base: string): string {
  if (href.startsWith('#') && href.length > 1 && path !== '/') return withBase(`/${href}`, base);
  return withBase(href, base);
}

/** Links that leave the site. */
export function isExternal(href: string): boolean {
  return /^https?:\/\//.test(href);
}
