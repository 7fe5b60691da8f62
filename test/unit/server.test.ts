// The static server and `site-gen serve`: routing, headers, encodings, traversal, methods, lifecycle.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Command } from 'commander';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addServeCommand } from '../../src/cli/serve.ts';
import { parsePort } from '../../src/cli/options.ts';
import { createStaticServer } from '../../src/serve/server.ts';
import { CACHE_REVALIDATE } from '../../src/core/http/policy.ts';
import type { Handler, StaticServer } from '../../src/serve/server.ts';
import { UsageError } from '../../src/core/errors.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const HOME = '<!doctype html><html><head><title>Home</title></head><body><h1>Home page</h1></body></html>';
const CONTACT = '<!doctype html><html><body><h1>Contact page</h1></body></html>';
const NOT_FOUND = '<!doctype html><html><body><h1>Not found page</h1></body></html>';
const HASHED = '/assets/home-3f9a1c2b.js';
const CHUNK = '/assets/chunks/x-AB12CD34.js';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A raw HTTP request: the path goes on the wire exactly as written (fetch would normalise `..` and `%2e%2e`). */
function request(
  port: number,
  target: string,
  options: { method?: string; headers?: Record<string, string>; agent?: http.Agent } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The body as text, undoing the Content-Encoding the server chose. */
function decoded(reply: Reply): string {
  const encoding = reply.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(reply.body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(reply.body).toString('utf8');
  return reply.text;
}

async function writeTree(base: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(base, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/**
 * root/secret.txt and root/site-secret/secret.txt sit beside the served root/site/, where a traversal would find them.
 * Each compressed variant holds its own text, so a test knows which file was sent.
 */
async function makeSite(): Promise<{ root: string; site: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-gen-server-'));
  const site = path.join(root, 'site');
  await writeTree(root, {
    'secret.txt': 'TOP SECRET beside the folder',
    'site-secret/secret.txt': 'TOP SECRET in a sibling whose name starts like the folder',
  });
  await writeTree(site, {
    'index.html': HOME,
    'index.html.br': brotliCompressSync('<h1>Home page, brotli file</h1>'),
    'index.html.gz': gzipSync('<h1>Home page, gzip file</h1>'),
    'contact/index.html': CONTACT,
    '404.html': NOT_FOUND,
    '404.html.br': brotliCompressSync('<h1>Not found page, brotli file</h1>'),
    [HASHED]: 'console.log("plain file");',
    [`${HASHED}.br`]: brotliCompressSync('console.log("brotli file");'),
    [`${HASHED}.gz`]: gzipSync('console.log("gzip file");'),
    [CHUNK]: 'export const x = 1;',
    'assets/site.css': 'body { color: black }',
    'robots.txt': 'User-agent: *\n',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
    '.env': 'TOP SECRET dotfile',
    '100%.html': '<p>one hundred percent</p>',
    '.well-known/security.txt': 'Contact: mailto:security@example.com\n',
  });
  return { root, site };
}

/** Starts a server on a free port and returns it with its port. */
async function start(
  options: Parameters<typeof createStaticServer>[0],
): Promise<{ server: StaticServer; port: number; url: string }> {
  const server = createStaticServer({ ...options, port: 0 });
  const { port, url } = await server.listen();
  return { server, port, url };
}

interface Context {
  root: string;
  site: string;
  server: StaticServer;
  port: number;
  url: string;
}

/** A suite with its own temp site and server, started before its tests and removed after. */
function serverSuite(name: string, extra: Partial<Parameters<typeof createStaticServer>[0]> = {}) {
  const test = suite<Context>(name);
  test.before(async (context) => {
    const { root, site } = await makeSite();
    Object.assign(context, { root, site }, await start({ dir: site, ...extra }));
  });
  test.after(async (context) => {
    await context.server.close();
    await rm(context.root, { recursive: true, force: true });
  });
  return test;
}

const identity = { 'Accept-Encoding': 'identity' };

// ---------------------------------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------------------------------
const routing = serverSuite('static server routing');

routing('serves index.html at /', async ({ port }) => {
  const reply = await request(port, '/', { headers: identity });
  assert.is(reply.status, 200);
  assert.is(reply.text, HOME);
  assert.match(String(reply.headers['content-type']), /^text\/html/);
});

routing('serves contact/index.html at /contact and at /contact/', async ({ port }) => {
  for (const target of ['/contact', '/contact/', '/contact/index.html', '/contact?ref=nav']) {
    const reply = await request(port, target, { headers: identity });
    assert.is(reply.status, 200, `${target} answers 200`);
    assert.is(reply.text, CONTACT, `${target} is the contact page`);
  }
});

routing('serves 404.html with status 404 for unknown paths', async ({ port }) => {
  for (const target of ['/nope', '/contact/nope', '/assets/missing-3f9a1c2b.js', '/assets', '/assets/']) {
    const reply = await request(port, target, { headers: identity });
    assert.is(reply.status, 404, `${target} is not found`);
    assert.is(reply.text, NOT_FOUND, `${target} shows the 404 page`);
    assert.match(String(reply.headers['content-type']), /^text\/html/);
    assert.is(reply.headers['cache-control'], CACHE_REVALIDATE, `${target}: a 404 is never cached forever`);
  }
});

routing('serves files of every type with the Content-Type of their extension', async ({ port }) => {
  const cases: Array<[string, RegExp]> = [
    [HASHED, /^text\/javascript/],
    ['/assets/site.css', /^text\/css/],
    ['/favicon.svg', /^image\/svg\+xml/],
    ['/robots.txt', /^text\/plain/],
  ];
  for (const [target, type] of cases) {
    const reply = await request(port, target, { headers: identity });
    assert.is(reply.status, 200, `${target} is served`);
    assert.match(String(reply.headers['content-type']), type, `${target} has the right type`);
  }
});

routing('hides dotfiles but serves /.well-known/', async ({ port }) => {
  const dotfile = await request(port, '/.env');
  assert.is(dotfile.status, 404);
  assert.not.match(dotfile.text, /TOP SECRET/);
  const wellKnown = await request(port, '/.well-known/security.txt');
  assert.is(wellKnown.status, 200);
  assert.match(wellKnown.text, /^Contact:/);
});

routing('serves a file whose name holds a literal percent sign', async ({ port }) => {
  const reply = await request(port, '/100%25.html', { headers: identity });
  assert.is(reply.status, 200);
  assert.match(reply.text, /one hundred percent/);
});

routing('serves files added and rewritten after it started, in full', async ({ port, site }) => {
  await writeFile(path.join(site, 'late.txt'), 'added later');
  assert.is((await request(port, '/late.txt')).text, 'added later');
  const longer = `${CONTACT}<!-- ${'x'.repeat(5000)} -->`;
  await writeFile(path.join(site, 'contact/index.html'), longer);
  const reply = await request(port, '/contact', { headers: identity });
  assert.is(reply.text, longer, 'the rewritten page is sent whole, with its new length');
  await writeFile(path.join(site, 'contact/index.html'), CONTACT);
});

routing.run();

// ---------------------------------------------------------------------------------------------------------------------
const plain404 = suite('static server without a 404.html');

plain404('answers unknown paths with a plain-text 404', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-gen-server-'));
  await writeTree(root, { 'index.html': HOME });
  const { server, port } = await start({ dir: root });
  try {
    const reply = await request(port, '/nope');
    assert.is(reply.status, 404);
    assert.match(String(reply.headers['content-type']), /^text\/plain/);
    assert.match(reply.text, /404 Not Found: \/nope/);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

plain404('uses the notFoundPage it is given', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-gen-server-'));
  await writeTree(root, { 'index.html': HOME, 'errors/missing.html': '<p>custom missing page</p>' });
  const { server, port } = await start({ dir: root, notFoundPage: 'errors/missing.html' });
  try {
    const reply = await request(port, '/nope');
    assert.is(reply.status, 404);
    assert.match(reply.text, /custom missing page/);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

plain404('refuses a notFoundPage outside the folder', () => {
  assert.throws(
    () => createStaticServer({ dir: os.tmpdir(), notFoundPage: '../etc/passwd' }),
    (error: unknown) => error instanceof UsageError,
  );
});

plain404.run();

// ---------------------------------------------------------------------------------------------------------------------
const caching = serverSuite('static server caching headers');

caching('caches hashed assets for a year, immutable', async ({ port }) => {
  for (const target of [HASHED, CHUNK]) {
    const reply = await request(port, target);
    assert.is(reply.status, 200);
    assert.is(reply.headers['cache-control'], IMMUTABLE, `${target} is content-hashed`);
  }
});

caching('asks browsers to revalidate HTML and every other file', async ({ port }) => {
  for (const target of ['/', '/contact', '/contact/', '/robots.txt', '/favicon.svg', '/assets/site.css']) {
    const reply = await request(port, target);
    assert.is(reply.status, 200, `${target} is served`);
    assert.is(reply.headers['cache-control'], CACHE_REVALIDATE, `${target} must be revalidated`);
  }
});

caching('answers a matching If-None-Match with 304 and the same caching headers', async ({ port }) => {
  const first = await request(port, '/robots.txt');
  const etag = first.headers.etag;
  assert.type(etag, 'string', 'responses carry an ETag');
  const second = await request(port, '/robots.txt', { headers: { 'If-None-Match': String(etag) } });
  assert.is(second.status, 304);
  assert.is(second.body.length, 0);
  assert.is(second.headers['cache-control'], CACHE_REVALIDATE);
});

caching(
  'gives each encoding of a file its own ETag, so a 304 never confirms the bytes of another',
  async ({ port }) => {
    const tags = [];
    for (const encoding of ['br', 'gzip', 'identity']) {
      const reply = await request(port, HASHED, { headers: { 'Accept-Encoding': encoding } });
      tags.push(String(reply.headers.etag));
      const again = await request(port, HASHED, {
        headers: { 'Accept-Encoding': encoding, 'If-None-Match': `"other", ${reply.headers.etag}` },
      });
      assert.is(again.status, 304, `${encoding}: a list of tags that holds the current one is fresh`);
    }
    assert.is(new Set(tags).size, 3, tags.join(' '));
    const stale = await request(port, HASHED, { headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': tags[0]! } });
    assert.is(stale.status, 200, "the brotli file's tag does not confirm the gzip file");
    assert.is(decoded(stale), 'console.log("gzip file");');
  },
);

caching.run();

// ---------------------------------------------------------------------------------------------------------------------
const encodings = serverSuite('static server precompressed files');

encodings('prefers the .br file when brotli is accepted', async ({ port }) => {
  const reply = await request(port, HASHED, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
  assert.is(reply.status, 200);
  assert.is(reply.headers['content-encoding'], 'br');
  assert.is(reply.headers.vary, 'Accept-Encoding');
  assert.match(String(reply.headers['content-type']), /^text\/javascript/, 'the type of the original file, not of .br');
  assert.is(reply.headers['cache-control'], IMMUTABLE);
  assert.is(decoded(reply), 'console.log("brotli file");');
});

encodings('sends the .gz file when only gzip is accepted', async ({ port }) => {
  const reply = await request(port, HASHED, { headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(reply.headers['content-encoding'], 'gzip');
  assert.match(String(reply.headers['content-type']), /^text\/javascript/);
  assert.is(decoded(reply), 'console.log("gzip file");');
});

encodings('sends the plain file when no encoding is accepted, still with Vary', async ({ port }) => {
  for (const headers of [identity, {}]) {
    const reply = await request(port, HASHED, { headers });
    assert.is(reply.headers['content-encoding'], undefined);
    assert.is(reply.headers.vary, 'Accept-Encoding');
    assert.is(reply.text, 'console.log("plain file");');
  }
});

encodings('honours q-values: br;q=0 means no brotli, * means any', async ({ port }) => {
  const refused = await request(port, HASHED, { headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0.8' } });
  assert.is(refused.headers['content-encoding'], 'gzip');
  const none = await request(port, HASHED, { headers: { 'Accept-Encoding': 'br;q=0, gzip;q=0' } });
  assert.is(none.headers['content-encoding'], undefined);
  const any = await request(port, HASHED, { headers: { 'Accept-Encoding': '*' } });
  assert.is(any.headers['content-encoding'], 'br');
});

encodings('serves pages precompressed with the HTML Content-Type', async ({ port }) => {
  const reply = await request(port, '/', { headers: { 'Accept-Encoding': 'br' } });
  assert.is(reply.headers['content-encoding'], 'br');
  assert.match(String(reply.headers['content-type']), /^text\/html/);
  assert.is(decoded(reply), '<h1>Home page, brotli file</h1>');
});

encodings('serves the 404 page precompressed, with status 404', async ({ port }) => {
  const reply = await request(port, '/nope', { headers: { 'Accept-Encoding': 'gzip, br' } });
  assert.is(reply.status, 404);
  assert.is(reply.headers['content-encoding'], 'br');
  assert.is(reply.headers.vary, 'Accept-Encoding');
  assert.is(decoded(reply), '<h1>Not found page, brotli file</h1>');
});

encodings('works end to end with fetch, which decodes what it accepted', async ({ url }) => {
  const response = await fetch(`${url}${HASHED}`);
  assert.is(response.status, 200);
  const expected = { br: 'console.log("brotli file");', gzip: 'console.log("gzip file");' }[
    String(response.headers.get('content-encoding'))
  ];
  assert.ok(expected, 'fetch accepts gzip (and br from Node 22), so it gets a precompressed file');
  assert.is(await response.text(), expected);
  const page = await fetch(`${url}/contact/`);
  assert.is(page.status, 200);
  assert.is(await page.text(), CONTACT);
  const missing = await fetch(`${url}/nope`);
  assert.is(missing.status, 404);
});

encodings('answers one byte range with 206, and a range past the end with 416', async ({ port }) => {
  const whole = 'console.log("plain file");';
  const cases: Array<[string, string, string]> = [
    ['bytes=0-6', whole.slice(0, 7), `bytes 0-6/${whole.length}`],
    ['bytes=8-', whole.slice(8), `bytes 8-${whole.length - 1}/${whole.length}`],
    ['bytes=-5', whole.slice(-5), `bytes ${whole.length - 5}-${whole.length - 1}/${whole.length}`],
  ];
  for (const [range, body, contentRange] of cases) {
    const reply = await request(port, HASHED, { headers: { ...identity, Range: range } });
    assert.is(reply.status, 206, range);
    assert.is(reply.text, body, range);
    assert.is(reply.headers['content-range'], contentRange, range);
    assert.is(Number(reply.headers['content-length']), body.length, range);
  }
  const past = await request(port, HASHED, { headers: { ...identity, Range: 'bytes=999-' } });
  assert.is(past.status, 416);
  assert.is(past.headers['content-range'], `bytes */${whole.length}`);
  const several = await request(port, HASHED, { headers: { ...identity, Range: 'bytes=0-1,4-5' } });
  assert.is(several.status, 200, 'several ranges get the whole file');
  assert.is(several.text, whole);
});

encodings.run();

// ---------------------------------------------------------------------------------------------------------------------
const traversal = serverSuite('static server traversal protection');

const ESCAPES = [
  '/../secret.txt',
  '/../../secret.txt',
  '/contact/../../secret.txt',
  '//../secret.txt',
  '/../site-secret/secret.txt',
  '/%2e%2e/secret.txt',
  '/%2E%2E/secret.txt',
  '/.%2e/secret.txt',
  '/%2e%2e/site-secret/secret.txt',
  '/..%2fsecret.txt',
  '/..%2Fsecret.txt',
  '/%2e%2e%2fsecret.txt',
  '/assets/..%2f..%2fsecret.txt',
  '/..%5csecret.txt',
  '/..%5Csite-secret%5Csecret.txt',
  '/..\\secret.txt',
  '/%252e%252e/secret.txt',
  '/%252e%252e%252fsecret.txt',
  '/..%252fsecret.txt',
  '/%c0%ae%c0%ae/secret.txt',
  '/index.html%00',
  '/%00/../secret.txt',
  '/secret.txt%00.html',
  '/.env',
  '/%2eenv',
  'http://127.0.0.1/../secret.txt',
];

traversal('the secret files exist where a traversal would find them', ({ site }) => {
  assert.ok(existsSync(path.join(site, '../secret.txt')), 'root/secret.txt is one step above the served folder');
  assert.ok(existsSync(path.join(site, '../site-secret/secret.txt')), 'the sibling folder is one step above too');
});

traversal('answers every attempt to leave the folder with 404, never with a file outside it', async ({ port }) => {
  for (const target of ESCAPES) {
    const reply = await request(port, target, { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.is(reply.status, 404, `${target} must be not found`);
    assert.not.match(decoded(reply), /TOP SECRET/, `${target} must not reveal a file outside the folder`);
  }
});

traversal('attempts with HEAD are refused the same way', async ({ port }) => {
  for (const target of ESCAPES) {
    const reply = await request(port, target, { method: 'HEAD' });
    assert.is(reply.status, 404, `HEAD ${target} must be not found`);
  }
});

traversal.run();

// ---------------------------------------------------------------------------------------------------------------------
const methods = serverSuite('static server methods');

methods('answers HEAD with the headers of GET and no body', async ({ port }) => {
  const get = await request(port, '/contact', { headers: identity });
  const head = await request(port, '/contact', { method: 'HEAD', headers: identity });
  assert.is(head.status, 200);
  assert.is(head.body.length, 0);
  assert.is(head.headers['content-length'], get.headers['content-length']);
  assert.is(head.headers['content-type'], get.headers['content-type']);
  const missing = await request(port, '/nope', { method: 'HEAD' });
  assert.is(missing.status, 404);
  assert.is(missing.body.length, 0);
});

methods('answers other methods with 405 and Allow: GET, HEAD', async ({ port }) => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    const reply = await request(port, '/', { method });
    assert.is(reply.status, 405, `${method} is not allowed`);
    assert.is(reply.headers.allow, 'GET, HEAD');
  }
});

methods.run();

// ---------------------------------------------------------------------------------------------------------------------
const handlers = suite('static server handlers and injection');

handlers('lets handlers answer their own routes and pass the rest on', async () => {
  const { root, site } = await makeSite();
  const seen: string[] = [];
  const reload: Handler = (_req, res, pathname) => {
    seen.push(pathname);
    if (pathname !== '/__site-gen/reload.js') return false;
    res.writeHead(200, { 'Content-Type': 'text/javascript' });
    res.end('// reload client');
    return true;
  };
  const broken: Handler = async (_req, _res, pathname) => {
    if (pathname === '/__site-gen/broken') throw new Error('the handler failed on purpose');
    return false;
  };
  const { server, port } = await start({ dir: site, handlers: [reload, broken] });
  try {
    assert.is((await request(port, '/__site-gen/reload.js')).text, '// reload client');
    assert.is((await request(port, '/contact', { headers: identity })).text, CONTACT, 'other paths reach the files');
    const failed = await request(port, '/__site-gen/broken');
    assert.is(failed.status, 500);
    assert.match(failed.text, /the handler failed on purpose/);
    assert.is((await request(port, '/')).status, 200, 'the server keeps answering after a handler throws');
    await request(port, '/%2e%2e/secret.txt');
    await request(port, '/caf%C3%A9');
    assert.ok(seen.includes('/café'), 'handlers get the decoded path');
    assert.not.ok(
      seen.some((p) => p.includes('..')),
      'handlers never see a traversal attempt',
    );
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

handlers('inserts the inject snippet before </body> of pages and of the 404 page only', async () => {
  const { root, site } = await makeSite();
  const snippet = '<script type="module" src="/__site-gen/reload.js"></script>';
  const { server, port } = await start({ dir: site, inject: snippet });
  try {
    for (const target of ['/', '/contact', '/contact/', '/index.html']) {
      const reply = await request(port, target, { headers: { 'Accept-Encoding': 'br, gzip' } });
      assert.is(reply.status, 200);
      assert.is(reply.headers['content-encoding'], undefined, 'an injected page is sent as is');
      assert.is(Number(reply.headers['content-length']), reply.body.length);
      assert.ok(reply.text.endsWith(`${snippet}</body></html>`), `${target} carries the snippet before </body>`);
    }
    const missing = await request(port, '/nope');
    assert.is(missing.status, 404);
    assert.ok(missing.text.includes(`${snippet}</body>`), 'the 404 page carries it too');
    const asset = await request(port, HASHED, { headers: identity });
    assert.is(asset.text, 'console.log("plain file");', 'scripts are untouched');
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

handlers.run();

// ---------------------------------------------------------------------------------------------------------------------
const lifecycle = suite('static server lifecycle');

lifecycle('binds 127.0.0.1 by default and reports the port it got', async () => {
  const { root, site } = await makeSite();
  const { server, port, url } = await start({ dir: site });
  try {
    assert.ok(port > 0);
    assert.is(url, `http://127.0.0.1:${port}`);
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

lifecycle('rejects a port in use with a UsageError that names --port and suggests another', async () => {
  const { root, site } = await makeSite();
  const { server, port } = await start({ dir: site });
  try {
    const second = createStaticServer({ dir: site, port });
    const error = await second.listen().then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(error, UsageError);
    const message = (error as Error).message;
    assert.match(message, new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use`));
    assert.match(message, /--port \d+/);
    await second.close();
  } finally {
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
});

lifecycle('rejects a host that is not an address of this machine with a UsageError naming --host', async () => {
  const server = createStaticServer({ dir: os.tmpdir(), host: '192.0.2.1', port: 0 });
  const error = await server.listen().then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(error, UsageError);
  assert.match((error as Error).message, /--host 192\.0\.2\.1/);
});

lifecycle('close() ends idle keep-alive sockets and open streams, and frees the port', async () => {
  const { root, site } = await makeSite();
  let streaming: () => void = () => {};
  const streamOpen = new Promise<void>((resolve) => (streaming = resolve));
  const events: Handler = (_req, res, pathname) => {
    if (pathname !== '/__site-gen/events') return false;
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(': open\n\n');
    streaming();
    return true;
  };
  const { server, port } = await start({ dir: site, handlers: [events] });
  const agent = new http.Agent({ keepAlive: true });
  try {
    await request(port, '/', { agent });
    assert.is(Object.values(agent.freeSockets).flat().length, 1, 'one idle keep-alive socket is left open');
    const stream = new Promise<string>((resolve) => {
      http.get({ host: '127.0.0.1', port, path: '/__site-gen/events', agent: false }, (res) => {
        res.resume();
        res.on('close', () => resolve('stream closed'));
      });
    });
    await streamOpen;
    // close() waits for its connections: were the stream left open, it would never resolve. The 5 s bound only
    // turns that hang into a failure; it measures nothing.
    let bound: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      server.close().then(() => 'closed'),
      new Promise<string>((resolve) => (bound = setTimeout(resolve, 5000, 'still open'))),
    ]);
    clearTimeout(bound);
    assert.is(closed, 'closed', 'close() ends the open stream instead of waiting for it');
    assert.is(await stream, 'stream closed');
    const probe = net.createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', resolve);
    });
    await new Promise((resolve) => probe.close(resolve));
  } finally {
    agent.destroy();
    await rm(root, { recursive: true, force: true });
  }
});

lifecycle('survives a file that cannot be read after it was found', async () => {
  // A Unix socket stands where a file would be, and cannot be read (ENXIO), like a file a rebuild removed in between.
  const root = await mkdtemp(path.join(os.tmpdir(), 'sg-'));
  await writeTree(root, { 'index.html': HOME });
  const socketFile = net.createServer();
  await new Promise<void>((resolve) => socketFile.listen(path.join(root, 'gone.txt'), resolve));
  const { server, port } = await start({ dir: root });
  try {
    const failed = await request(port, '/gone.txt').then(
      () => 'answered',
      () => 'connection reset',
    );
    assert.ok(['answered', 'connection reset'].includes(failed));
    assert.is((await request(port, '/', { headers: identity })).text, HOME, 'the server still answers');
  } finally {
    await server.close();
    await new Promise((resolve) => socketFile.close(resolve));
    await rm(root, { recursive: true, force: true });
  }
});

lifecycle.run();

// ---------------------------------------------------------------------------------------------------------------------
const command = suite('site-gen serve');

/** Runs `serve` with these arguments through commander, as the CLI would, and returns what it threw. */
async function serveError(args: string[]): Promise<unknown> {
  const program = new Command().exitOverride();
  addServeCommand(program);
  return program.parseAsync(['serve', ...args], { from: 'user' }).then(
    () => undefined,
    (e: unknown) => e,
  );
}

command('accepts ports from 0 to 65535', () => {
  assert.is(parsePort('4321'), 4321);
  assert.is(parsePort('0'), 0);
  assert.is(parsePort('65535'), 65535);
});

command('rejects a port that is not a whole number from 0 to 65535, naming --port', () => {
  for (const value of ['65536', '-1', 'abc', '43.21', '', ' 80', '4321x', '1e3']) {
    assert.throws(
      () => parsePort(value),
      (error: unknown) => error instanceof UsageError && /--port/.test(error.message),
      `"${value}" is refused`,
    );
  }
});

command('refuses a bad --port before looking at the folder', async () => {
  const error = await serveError(['--port', 'http', '--out', os.tmpdir()]);
  assert.instance(error, UsageError);
  assert.match((error as Error).message, /--port must be a whole number/);
});

command('says to run site-gen build first when the output folder is missing', async () => {
  const missing = path.join(os.tmpdir(), 'site-gen-no-such-dist');
  const error = await serveError(['--out', missing, '--port', '0']);
  assert.instance(error, UsageError);
  assert.match((error as Error).message, /no built site at .*site-gen-no-such-dist/);
  assert.match((error as Error).message, /Run `site-gen build --out .*` first/);
});

command('serves the folder, prints where, and exits 0 on SIGINT and on SIGTERM', async () => {
  const { root } = await makeSite();
  const script = `
    import { Command } from ${JSON.stringify(import.meta.resolve('commander'))};
    import { addServeCommand } from ${JSON.stringify(pathToFileURL(path.join(ROOT, 'src/cli/serve.ts')).href)};
    const program = new Command();
    addServeCommand(program);
    await program.parseAsync(['serve', '--port', '0', '--out', 'site'], { from: 'user' });
  `;
  try {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const child = spawn(
        process.execPath,
        ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', script],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk;
          // The first line: a note (e.g. no _headers file) can arrive in the same chunk on a busy machine.
          if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')).trim());
        });
        child.on('exit', () => reject(new Error(`serve exited before printing; stderr: ${stderr}`)));
      });
      const match = /^Serving site\/ at (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
      assert.ok(match, `prints where it serves; got "${line}"`);
      const response = await fetch(`${match[1]}/contact/`); // fetch keeps its socket alive: the server must end it
      assert.is(response.status, 200);
      assert.is(await response.text(), CONTACT);
      child.kill(signal);
      assert.is(await exit, 0, `exits 0 on ${signal}; stderr: ${stderr}`);
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

command.run();
