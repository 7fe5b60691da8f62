// The head hook: what a site adds to every page's <head> (src/site/head.ts), which site-gen writes and covers by the CSP.
import type { SiteInfo } from './config.ts';
import type { PageHead } from './routes.ts';

export interface HeadContext<Content = unknown> {
  site: SiteInfo;
  /** The site's validated content, as the pages get it. */
  content: Content;
  /** Route path, "/contact". */
  path: string;
  /** URL base the site is built for, "/" or "/my-site/". */
  base: string;
  /** The page's own head (title, description, noindex). */
  head: PageHead;
}

export interface HeadContent {
  /** `<meta name content>` tags, placed after the canonical link; site-gen escapes both values. */
  meta?: Array<{ name: string; content: string }>;
  /** Inline scripts run before first paint (e.g. applying a stored theme); site-gen adds each one's hash to the CSP. */
  scripts?: string[];
  /** Structured data, each written as `<script type="application/ld+json">` at the end of the head. */
  jsonLd?: unknown[];
}

/** The named export `head` of src/site/head.ts. */
export type HeadHook<Content = unknown> = (context: HeadContext<Content>) => HeadContent;
