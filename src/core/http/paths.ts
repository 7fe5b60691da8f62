// How URL paths and output files correspond: a page's file, and the file a request names. `site-gen build` writes
// pages where pageFile() says, `site-gen serve` and `site-gen watch` answer requests with resolveOutputPath(), and
// `site-gen deploy` stores a page's extra key where resolveOutputPath() finds it, so that S3's website routing agrees.

/** The file a folder's page is written to, and the document S3 website hosting serves for a folder. */
export const INDEX_FILE = 'index.html';

/** The page every server answers a miss with, status 404: S3 website hosting's error document too. */
export const NOT_FOUND_FILE = '404.html';

/**
 * The sitemap: the list of the site's indexed pages, or, past the sitemaps protocol's 50,000 URLs (or 50 MB) a file,
 * the index of its parts, `sitemap-1.xml` and on (see sitemapFiles in pipeline/assemble.ts). robots.txt names it.
 */
export const SITEMAP_FILE = 'sitemap.xml';

/** The file of the sitemap's `n`th part (from 1), when it has parts. */
export function sitemapPart(n: number): string {
  return `sitemap-${n}.xml`;
}

/** Whether `path` is the sitemap or one of its parts. */
export function isSitemapFile(path: string): boolean {
  return path === SITEMAP_FILE || /^sitemap-[1-9]\d*\.xml$/.test(path);
}

/** Whether `path` is one of the files that tell crawlers what the site has (the sitemap, its parts, robots.txt). */
export function isIndexFile(path: string): boolean {
  return isSitemapFile(path) || path === 'robots.txt';
}

/** The output file of a page path: "/" -> index.html, "/contact" (or "/contact/") -> contact/index.html. */
export function pageFile(pagePath: string): string {
  const folder = pagePath.replace(/^\/+|\/+$/g, '');
  return folder ? `${folder}/${INDEX_FILE}` : INDEX_FILE;
}

/** The page path an output file is the folder page of: index.html -> "/", contact/index.html -> "/contact"; else none. */
export function pagePathOf(file: string): string | undefined {
  if (file === INDEX_FILE) return '/';
  if (!file.endsWith(`/${INDEX_FILE}`)) return undefined;
  return `/${file.slice(0, -`/${INDEX_FILE}`.length)}`;
}

/**
 * The output file a URL path names, as a static host finds it: the file itself, else `<path>.html`, else
 * `<path>/index.html`; a path ending in "/" names a page, never a file. `pathname` is decoded and already judged safe
 * (the servers refuse traversal before asking); `files.has` says whether an output file exists. The one answer to
 * "which file is this URL" for serve, watch and deploy.
 */
export function resolveOutputPath(files: { has(path: string): boolean }, pathname: string): string | undefined {
  const path = pathname.replace(/^\/+/, '');
  const route = path.replace(/\/+$/, '');
  const candidates =
    route === ''
      ? [INDEX_FILE]
      : path.endsWith('/')
        ? [`${route}.html`, pageFile(route)]
        : [route, `${route}.html`, pageFile(route)];
  return candidates.find((candidate) => files.has(candidate));
}
