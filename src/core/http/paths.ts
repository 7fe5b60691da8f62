// Which output file a URL path names, the same way for `site-gen serve` (on disk) and `site-gen watch` (in memory).

/**
 * The output file a URL path names, as a static host finds it: the file itself, else `<path>.html`, else
 * `<path>/index.html`; a path ending in "/" names a page, never a file. `files.has` says whether an output file exists.
 */
export function resolveOutputPath(files: { has(path: string): boolean }, pathname: string): string | undefined {
  const path = pathname.replace(/^\/+/, '');
  const route = path.replace(/\/+$/, '');
  const candidates =
    route === ''
      ? ['index.html']
      : path.endsWith('/')
        ? [`${route}.html`, `${route}/index.html`]
        : [route, `${route}.html`, `${route}/index.html`];
  return candidates.find((candidate) => files.has(candidate));
}
