// Serves the dev build from memory by the rules `site-gen serve` applies to dist/, or the error page while the build is broken.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PagesOnRequest } from '../pipeline/pages-on-request.ts';
import { escapeAttribute } from '../pipeline/render.tsx';
import type { OutputFiles } from '../pipeline/write.ts';
import { hashedFilesOf } from '../core/http/hashed-files.ts';
import { headersFileOf } from '../core/http/headers-file.ts';
import { NOT_FOUND_FILE, resolveOutputPath } from '../core/http/paths.ts';
import { createHttpPolicy, type HttpPolicy } from '../core/http/policy.ts';
import type { Handler } from '../serve/server.ts';

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

/** Tells a page's reload client which build it was served from and which output file it is (none for the error page). */
export function withBuildMeta(html: string, build: string, file?: string): string {
  const meta = [
    `<meta name="site-gen-build" content="${escapeAttribute(build)}">`,
    file === undefined ? '' : `<meta name="site-gen-page" content="${escapeAttribute(file)}">`,
  ].join('');
  const at = html.search(/<\/head>/i);
  return at === -1 ? meta + html : `${html.slice(0, at)}${meta}\n${html.slice(at)}`;
}

// One policy per build, made from the build's own list of hashed files and _headers (builds are swapped whole, never changed).
const policies = new WeakMap<OutputFiles, HttpPolicy>();

/** The HTTP policy of a build kept in memory, as `site-gen serve` makes it from the same files in dist/. */
export function policyOf(files: OutputFiles): HttpPolicy {
  let policy = policies.get(files);
  if (!policy) policies.set(files, (policy = createHttpPolicy(hashedFilesOf(files), headersFileOf(files))));
  return policy;
}

function text(data: Uint8Array | string): string {
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
}

function send(
  res: ServerResponse,
  method: string | undefined,
  status: number,
  headers: Record<string, string>,
  body: Uint8Array | string,
): void {
  res.writeHead(status, {
    ...headers,
    'Content-Length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  });
  res.end(method === 'HEAD' ? undefined : body);
}

/**
 * Answers every request from `current()` (read once per request): files by path (waiting for one still being made),
 * hashed assets cached for good as in production, pages marked with their build, `404.html` with status 404 for
 * anything else. While the build is broken, page requests and unknown paths get the error page with status 500; assets
 * still come from the last good build.
 */
export function createOutputHandler(current: () => ServedBuild): Handler {
  return async (req, res, pathname) => {
    const served = current();
    // A file still being made (a page's image, encoded after the page was served) is waited for, never a 404; from
    // the build that was current when the request came, so the answer is that build's.
    const later = served.files instanceof PagesOnRequest ? served.files.later(pathname.slice(1)) : undefined;
    if (later) {
      try {
        await later;
      } catch (error) {
        // As a page that fails on request.
        sendFailure(req, res, served, error);
        return true;
      }
    }
    respond(req, res, pathname, served, resolveOutputPath(served.files, pathname));
    return true;
  };
}

/**
 * Answers a request the server refused before any lookup (a path that tries to leave the site) as a miss is
 * answered: the 404 page, as `site-gen serve` and S3 answer it.
 */
export function createNotFoundHandler(current: () => ServedBuild): Handler {
  return (req, res, pathname) => {
    respond(req, res, pathname, current(), undefined);
    return true;
  };
}

/**
 * A page, or a file it named, that failed as it was made on request: the error screen with status 500 (the error is
 * printed once, by failedPage), or, with no screen, thrown for the server's plain 500 with the message.
 */
function sendFailure(req: IncomingMessage, res: ServerResponse, served: ServedBuild, error: unknown): void {
  if (!served.failedPage) throw error;
  const headers = policyOf(served.files).responseHeaders(NOT_FOUND_FILE);
  send(res, req.method, 500, headers, withBuildMeta(served.failedPage(error), served.build));
}

function respond(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  served: ServedBuild,
  file: string | undefined,
): void {
  const { files, build, errorPage } = served;
  const policy = policyOf(files);
  // The error page has no output file of its own: it is an HTML page that is never cached, as 404.html is.
  const page = (html: string, status: number, served?: string) =>
    send(res, req.method, status, policy.responseHeaders(served ?? NOT_FOUND_FILE), withBuildMeta(html, build, served));
  // A page is rendered when first read, and may fail then: it gets the error screen, the other pages are served.
  const pageFile = (name: string, status: number) => {
    let html: string;
    try {
      html = text(files.get(name)!);
    } catch (error) {
      return sendFailure(req, res, served, error);
    }
    page(html, status, name);
  };

  if (errorPage !== undefined && (!file || file.endsWith('.html'))) page(errorPage, 500);
  else if (file?.endsWith('.html')) pageFile(file, 200);
  else if (file) {
    send(res, req.method, 200, policy.responseHeaders(file), files.get(file)!);
  } else if (files.has(NOT_FOUND_FILE)) pageFile(NOT_FOUND_FILE, 404);
  else send(res, req.method, 404, policy.responseHeaders('404.txt'), `404 Not Found: ${pathname}\n`);
}
