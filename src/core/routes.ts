// The shape of a route: which page renders at which path, and what goes in its <head>.
import type { ComponentType } from 'react';
import type { SiteInfo } from './config.ts';

export interface PageProps<Content = unknown> {
  site: SiteInfo;
  content: Content;
  /** The route's path, e.g. "/contact". */
  path: string;
}

export interface PageHead {
  /** The page's own title: the document's `<title>` is it, then ` | ` and `site.name` (the name alone when they are the same). */
  title: string;
  description?: string;
  /** Keep the page out of search engines and the sitemap (the 404 page). */
  noindex?: boolean;
}

export interface Route<Content = unknown> {
  /** URL path: "/", "/contact". */
  path: string;
  /** File in the output folder; defaults to "index.html" under the path. */
  file?: string;
  page: ComponentType<PageProps<Content>>;
  head(props: PageProps<Content>): PageHead;
}
