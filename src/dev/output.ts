// Serves the dev build from memory by the rules `site-gen serve` applies to dist/, or the error page while the build is broken.
import type { ServerResponse } from 'node:http';
import mime from 'mime';
import { escapeAttribute } from '../build/render.tsx';
import type { OutputFiles } from '../build/write.ts';
import { isHashedAsset, type Handler } from './server.ts';

/** What the server answers with: swapped whole after each rebuild, so a request never sees half of one. */
export interface ServedBuild {
  /** The last good output. */
  files: OutputFiles;
  /** Names this build in every page, so the page's reload client can tell when it missed a rebuild. */
  build: string;
  /** While the last rebuild is broken: the document every page request gets, with status 500. */
  errorPage?: string;
  /** The document a page request gets, with status 500, when that page fails as it is rendered on request. */
  failedPage?(error: unknown): string;
}

/**
 * The output file a URL path names, as `site-gen serve` finds it in dist/: the file itself, else `<path>.html`,
 * else `<path>/index.html`; a path ending in "/" names a page, never a file.
 */
export function resolveOutputPath(files: ReadonlyMap<string, unknown>, pathname: string): string | undefined {
  const path = pathname.replace(/^\/+/, '');
  const route = path.replace(/\/+$/, '');
  const candidates = route === '' ? ['index.html'] : path.endsWith('/') ? [`${route}.html`, `${route}/index.html`] : [route, `${route}.html`, `${route}/index.html`];
  return candidates.find((candidate) => files.has(candidate));
}

/** Tells a page's reload client which build it was served from and which output file it is (none for the error page). */
export function withBuildMeta(html: string, build: string, file?: string): string {
  const meta = [
    `<meta name="site-gen-build" content="${escapeAttribute(build)}">`,
    file === undefined ? '' : `<meta name="site-gen-page" content="${escapeAttribute(file)}">`,
  ].join('');
  const at = html.search(/<\/head>/i);
  return at === -1 ? meta + html : `${html.slice(0, at)}${meta}\n${html.slice(at)}`;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const TEXT = /^(text\/|application\/(javascript|json|xml|manifest\+json)|image\/svg\+xml)/;

function contentType(file: string): string {
  const type = mime.getType(file) ?? 'application/octet-stream';
  return TEXT.test(type) ? `${type}; charset=utf-8` : type;
}

function text(data: Uint8Array | string): string {
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
}

function send(res: ServerResponse, method: string | undefined, status: number, headers: Record<string, string>, body: Uint8Array | string): void {
  res.writeHead(status, { ...headers, 'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) });
  res.end(method === 'HEAD' ? undefined : body);
}

/**
 * Answers every request from `current()` (read once per request): files by path, hashed assets cached for good as in
 * production, pages marked with their build, `404.html` with status 404 for anything else. While the build is broken,
 * page requests and unknown paths get the error page with status 500; assets still come from the last good build.
 */
export function createOutputHandler(current: () => ServedBuild): Handler {
  return (req, res, pathname) => {
    const { files, build, errorPage, failedPage } = current();
    const file = resolveOutputPath(files, pathname);
    const page = (html: string, status: number, served?: string) =>
      send(res, req.method, status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' }, withBuildMeta(html, build, served));
    // A page is rendered when first read, and may fail then: it gets the error screen, the other pages are served.
    const pageFile = (name: string, status: number) => {
      let html: string;
      try {
        html = text(files.get(name)!);
      } catch (error) {
        if (!failedPage) throw error;
        return page(failedPage(error), 500);
      }
      page(html, status, name);
    };

    if (errorPage !== undefined && (!file || file.endsWith('.html'))) page(errorPage, 500);
    else if (file?.endsWith('.html')) pageFile(file, 200);
    else if (file) {
      send(res, req.method, 200, { 'Content-Type': contentType(file), 'Cache-Control': isHashedAsset(pathname) ? IMMUTABLE : 'no-cache' }, files.get(file)!);
    } else if (files.has('404.html')) pageFile('404.html', 404);
    else send(res, req.method, 404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' }, `404 Not Found: ${pathname}\n`);
    return true;
  };
}
