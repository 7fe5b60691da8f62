// The static file server behind `site-gen serve` and `site-gen watch`: serves a built folder the way a static host does.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_HOST, DEFAULT_PORT } from '../core/defaults.ts';
import { SiteGenError, UsageError } from '../core/errors.ts';
import { HASHED_FILES_PATH, isBuildMetadata, parseHashedFiles } from '../core/http/hashed-files.ts';
import { HEADERS_FILE, parseHeadersFile } from '../core/http/headers-file.ts';
import { NOT_FOUND_FILE, resolveOutputPath } from '../core/http/paths.ts';
import { createHttpPolicy, type HttpPolicy } from '../core/http/policy.ts';
import { sendFile } from './send-file.ts';

/**
 * A route placed in front of the files, for the dev server (issue 5): the SSE stream at /__site-gen/events, the
 * reload client at /__site-gen/reload.js, an error page while the last rebuild is broken, pages kept in memory.
 * Answer the request and return true, or return false to pass it on to the next handler and then to the files.
 * Handlers only see GET and HEAD requests whose path passed the traversal checks; `pathname` is that path, decoded.
 * A handler that throws gets a 500 with the error's message. `close()` ends its open responses (an SSE stream) too.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse, pathname: string) => boolean | Promise<boolean>;

export interface StaticServerOptions {
  /** The folder to serve (dist/). Looked up on every request, so a rebuild that swaps the folder shows at once. */
  dir: string;
  /** Address to bind. Default 127.0.0.1: the preview is not reachable from other machines unless asked. */
  host?: string;
  /** Default 4321; 0 picks a free port (listen() says which). */
  port?: number;
  /** Page served with status 404 for unknown paths, relative to `dir`. Default '404.html'. */
  notFoundPage?: string;
  /** HTML inserted before </body> of every page served (the 404 page too), e.g. the dev server's reload <script src>. */
  inject?: string;
  /** Routes tried in order before the files; see Handler. */
  handlers?: Handler[];
  /**
   * Answers what no file answers, and what was refused before any lookup (a traversal attempt), in place of the
   * folder's 404 page: the dev server's build in memory has its own. `pathname` is then the raw request path.
   */
  notFound?: Handler;
  /**
   * The HTTP policy of what is served, asked once per request: its security headers go on every answer, handlers'
   * included. Default: the policy of the build in `dir` (its list of hashed files and its _headers).
   */
  policy?: () => HttpPolicy;
}

export interface StaticServer {
  /** Starts listening. Rejects with a UsageError naming --port or --host when the address cannot be used. */
  listen(): Promise<{ url: string; port: number }>;
  /** Stops listening and ends every connection (idle keep-alive sockets and open streams alike), so the port is free at once. */
  close(): Promise<void>;
}

/** Whether a decoded path segment may be served: no parent or current-folder steps, no dotfiles but .well-known. */
function isSafeSegment(segment: string): boolean {
  if (segment === '.' || segment === '..') return false;
  return !segment.startsWith('.') || segment === '.well-known';
}

/** Whether a decoded path stays inside the folder: no NUL, no backslash (a separator on Windows), no unsafe segment. */
function isSafeDecodedPath(decoded: string): boolean {
  return decoded.startsWith('/') && !/[\0\\]/.test(decoded) && decoded.split('/').every(isSafeSegment);
}

/** One layer of percent-decoding, or null when it hides a separator or yields an unsafe path. */
function decodeLayer(encoded: string, literalPercentAllowed: boolean): string | null {
  // An encoded separator would pass the segment checks as one segment and become two on disk.
  if (/%(?:2f|5c)/i.test(encoded)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return literalPercentAllowed ? encoded : null;
  }
  return isSafeDecodedPath(decoded) ? decoded : null;
}

/**
 * The decoded path of a request URL, or null when the URL tries to leave the served folder: `..`, `%2e%2e`, encoded
 * slashes or backslashes, NUL, or any of these under a second layer of encoding (`%252e%252e`): neither this server
 * decodes twice, but a proxy in front of it might, so such a path is refused rather than trusted.
 */
function safePathname(url: string | undefined): string | null {
  if (!url?.startsWith('/')) return null;
  const once = decodeLayer(url.split(/[?#]/, 1)[0] ?? '/', false);
  if (once === null) return null;
  // After one layer, a % that does not decode is a literal one in a file name (100%.html).
  if (once.includes('%') && decodeLayer(once, true) === null) return null;
  return once;
}

/** Inserts `snippet` before the last </body>, or at the end when the page has none. */
function injectInto(html: string, snippet: string): string {
  const at = html.toLowerCase().lastIndexOf('</body>');
  return at === -1 ? html + snippet : html.slice(0, at) + snippet + html.slice(at);
}

function formatUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Turns a listen() failure into a message that says which flag to change. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): SiteGenError {
  switch (error.code) {
    case 'EADDRINUSE':
      return new UsageError(
        `Port ${port} on ${host} is already in use by another program. Stop that program, or choose another port with --port (for example --port ${port === 65535 ? port - 1 : port + 1}, or --port 0 for any free port).`,
        { cause: error },
      );
    case 'EACCES':
      return new UsageError(
        `Not allowed to listen on port ${port} (ports below 1024 need extra privileges). Choose another port with --port, for example --port 4321.`,
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new UsageError(
        `--host ${host} is not an address of this machine. Use --host 127.0.0.1 (the default) for this machine only, or --host 0.0.0.0 for every network interface.`,
        { cause: error },
      );
    default:
      return new SiteGenError(`Could not listen on ${formatUrl(host, port)}: ${error.message}`, { cause: error });
  }
}

/**
 * A build file of `dir` and a stamp that changes when a build rewrites it; undefined text when there is none. Read
 * through one open descriptor: a stat and then a read by name would read another file, or none (a 500), when a build
 * replaces it in between. The text is read only when the stamp differs from `known`.
 */
function buildFile(
  dir: string,
  name: string,
  known: string | undefined,
): { file: string; stamp: string; text?: string } {
  const file = path.join(dir, name);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { file, stamp: 'none' };
    throw error;
  }
  try {
    const info = fstatSync(fd);
    const stamp = `${info.ino}:${info.mtimeMs}:${info.size}`;
    return stamp === known ? { file, stamp } : { file, stamp, text: readFileSync(fd, 'utf8') };
  } finally {
    closeSync(fd);
  }
}

/**
 * The policy of the build in `dir`, re-read when a build rewrites its list of hashed files or its _headers. Read
 * synchronously (two small files, once per build): a handler that streams (the reload events) starts at once.
 */
function policyReader(dir: string): () => HttpPolicy {
  let cached: { hashed: string; headers: string; policy: HttpPolicy } | undefined;
  return () => {
    const hashed = buildFile(dir, HASHED_FILES_PATH, cached?.hashed);
    const headers = buildFile(dir, HEADERS_FILE, cached?.headers);
    if (cached?.hashed !== hashed.stamp || cached?.headers !== headers.stamp) {
      // The policy is made from the pair: a file whose stamp did not change is read again too.
      const text = (read: { stamp: string; text?: string }, name: string) =>
        read.stamp === 'none' ? undefined : (read.text ?? buildFile(dir, name, undefined).text);
      const [hashedText, headersText] = [text(hashed, HASHED_FILES_PATH), text(headers, HEADERS_FILE)];
      cached = {
        hashed: hashed.stamp,
        headers: headers.stamp,
        policy: createHttpPolicy(
          hashedText === undefined ? undefined : parseHashedFiles(hashedText, hashed.file),
          headersText === undefined ? undefined : parseHeadersFile(headersText, headers.file),
        ),
      };
    }
    return cached.policy;
  };
}

/**
 * A build replaces the served folder by two renames, the old one aside and the new one into place: between them the
 * folder is missing. A request in that instant waits for the new one (briefly) rather than getting a 404.
 */
const SWAP_WAIT_MS = 500;

async function folderInPlace(dir: string): Promise<void> {
  for (let waited = 0; waited < SWAP_WAIT_MS && !existsSync(dir); waited += 2) {
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}

function sendText(
  res: ServerResponse,
  policy: HttpPolicy,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...policy.textHeaders(), ...headers });
  res.end(`${text}\n`);
}

/** Drops what a response had set so far, but the security headers, which every answer carries. */
function clearHeaders(res: ServerResponse, policy: HttpPolicy): void {
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  for (const [name, value] of Object.entries(policy.security)) res.setHeader(name, value);
}

export function createStaticServer(options: StaticServerOptions): StaticServer {
  const dir = path.resolve(options.dir);
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  const notFoundPage = path.join(dir, options.notFoundPage ?? NOT_FOUND_FILE);
  const { inject, handlers = [] } = options;
  const currentPolicy = options.policy ?? policyReader(dir);
  if (!notFoundPage.startsWith(dir + path.sep)) {
    throw new UsageError(
      `notFoundPage "${options.notFoundPage}" is outside the served folder ${dir}; give a path inside it, like 404.html.`,
    );
  }

  // Files are looked up on every request rather than indexed once, so rebuilt files are served as they are now (an
  // index taken at start would send stale lengths for rewritten files). It costs a few stat calls per request.
  const outputFile = (pathname: string) =>
    resolveOutputPath({ has: (candidate) => isFile(path.join(dir, candidate)) }, pathname);

  async function sendPage(
    res: ServerResponse,
    policy: HttpPolicy,
    file: string,
    status: number,
    snippet: string,
  ): Promise<boolean> {
    // Gone since it was found (a build removed it): the caller looks again instead of failing with a 500.
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text === undefined) return false;
    const html = injectInto(text, snippet);
    res.writeHead(status, {
      ...policy.responseHeaders(path.relative(dir, file)),
      'Content-Length': Buffer.byteLength(html),
    });
    res.end(html);
    return true;
  }

  async function sendNotFound(
    req: IncomingMessage,
    res: ServerResponse,
    policy: HttpPolicy,
    pathname: string,
  ): Promise<void> {
    clearHeaders(res, policy);
    if (options.notFound && (await options.notFound(req, res, pathname))) return;
    const notFound = path.relative(dir, notFoundPage);
    // Missed while a build swapped the folder: once more when the folder is back.
    for (const retry of [false, true]) {
      if (retry) await folderInPlace(dir);
      if (inject !== undefined) {
        if (isFile(notFoundPage) && (await sendPage(res, policy, notFoundPage, 404, inject))) return;
      } else if (await sendFile(req, res, notFoundPage, policy.responseHeaders(notFound), 404)) return;
    }
    sendText(res, policy, 404, `404 Not Found: ${pathname}`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, policy: HttpPolicy): Promise<void> {
    // First, so every answer below carries them: writeHead() adds to headers set this way.
    for (const [name, value] of Object.entries(policy.security)) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(res, policy, 405, `405 Method Not Allowed: ${req.method} (this server answers GET and HEAD)`, {
        Allow: 'GET, HEAD',
      });
    }
    const pathname = safePathname(req.url);
    // Build metadata (the list of hashed files, _headers) is for servers and hosts, never for visitors.
    if (pathname === null || isBuildMetadata(pathname.slice(1))) return sendNotFound(req, res, policy, req.url ?? '');

    for (const handler of handlers) {
      if (await handler(req, res, pathname)) return;
    }

    // The one answer to "which file is this URL", as watch and deploy ask it (src/core/http/paths.ts). Missed (not
    // there, or deleted before it was opened) while a build swapped the folder: looked up once more when it is back.
    for (const retry of [false, true]) {
      if (retry) await folderInPlace(dir);
      const file = outputFile(pathname);
      if (file === undefined) continue;
      if (inject !== undefined && /\.html?$/.test(file)) {
        if (await sendPage(res, policy, path.join(dir, file), 200, inject)) return;
      } else if (await sendFile(req, res, path.join(dir, file), policy.responseHeaders(file))) return;
    }
    return sendNotFound(req, res, policy, pathname);
  }

  const server = http.createServer((req, res) => {
    // Without security headers only when the build's own policy could not be read (a damaged _headers).
    let policy = createHttpPolicy();
    // An async function runs up to its first await at once: a damaged build file becomes a 500 below, not a crash.
    const answer = async () => {
      // Only when it is missing (a build swapping it): otherwise handled in this tick, as a streaming handler expects.
      if (!existsSync(dir)) await folderInPlace(dir);
      return handle(req, res, (policy = currentPolicy()));
    };
    answer().catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      clearHeaders(res, policy);
      sendText(
        res,
        policy,
        500,
        `500 Internal Server Error: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  });

  return {
    listen() {
      return new Promise((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
        server.once('error', onError);
        server.listen(port, host, () => {
          server.off('error', onError);
          const bound = (server.address() as AddressInfo).port;
          resolve({ url: formatUrl(host, bound), port: bound });
        });
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
