// `site-gen serve` while builds rewrite the folder it serves: every request gets a whole file, old or new, never a 500,
// a reset connection or a 404 for a file that exists in both builds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { HASHED_FILES_PATH, serializeHashedFiles } from '../../src/core/http/hashed-files.ts';
import { HEADERS_FILE, serializeHeadersFile } from '../../src/core/http/headers-file.ts';
import { type OutputFiles, writeOutput } from '../../src/pipeline/write.ts';
import { createStaticServer } from '../../src/serve/server.ts';

/** Build number `n`: pages, a hashed script and the build's metadata, as `site-gen build` writes them. */
function build(n: number): OutputFiles {
  const filler = `<p>${'build text '.repeat(2000)}</p>`;
  const page = (title: string) =>
    `<!doctype html><html><head><title>${title} ${n}</title><script src="/assets/app-3f9a1c2b.js"></script></head>` +
    `<body>${filler}<footer>build ${n}</footer></body></html>`;
  return new Map<string, string>([
    ['index.html', page('Home')],
    ['contact/index.html', page('Contact')],
    ['404.html', page('Not found')],
    ['assets/app-3f9a1c2b.js', `console.log(${JSON.stringify('x'.repeat(50_000))});`],
    [HASHED_FILES_PATH, serializeHashedFiles(['assets/app-3f9a1c2b.js'])],
    [HEADERS_FILE, serializeHeadersFile({ 'X-Frame-Options': 'DENY' })],
  ]);
}

const REQUESTS = [
  { path: '/', status: 200, file: 'index.html' },
  { path: '/contact', status: 200, file: 'contact/index.html' },
  { path: '/contact/', status: 200, file: 'contact/index.html' },
  { path: '/assets/app-3f9a1c2b.js', status: 200, file: 'assets/app-3f9a1c2b.js' },
  { path: '/missing', status: 404, file: '404.html' },
];

const rebuilds = suite('serve during rebuilds');

rebuilds('every request during 40 rebuilds gets a whole file with its status and headers, never a 500', async () => {
  const tmp = await mkdtemp(join(tmpdir(), 'site-gen-serve-rebuild-'));
  const dist = join(tmp, 'dist');
  await writeOutput(dist, build(0));
  const server = createStaticServer({ dir: dist, port: 0 });
  const { url } = await server.listen();
  const versions = new Map(REQUESTS.map(({ file }) => [file, new Set<string>()]));
  const problems: string[] = [];
  let answered = 0;
  let writing = true;
  const poll = async (offset: number) => {
    for (let i = offset; writing; i += 1) {
      const request = REQUESTS[i % REQUESTS.length]!;
      let status: number;
      let body: string;
      let cache: string | null;
      try {
        const response = await fetch(url + request.path, { headers: { 'accept-encoding': 'identity' } });
        status = response.status;
        cache = response.headers.get('cache-control');
        body = await response.text();
      } catch (error) {
        problems.push(`${request.path}: ${(error as Error).cause ?? error}`);
        continue;
      }
      answered += 1;
      const whole = [...Array(41).keys()].some((n) => body === build(n).get(request.file));
      if (status !== request.status || !whole) {
        problems.push(
          `${request.path}: ${status}, ${body.length} bytes${whole ? '' : ' (not a whole file of any build)'}`,
        );
      } else if (request.file.startsWith('assets/') && cache !== 'public, max-age=31536000, immutable') {
        problems.push(`${request.path}: Cache-Control ${cache} (the build's list of hashed files was not read)`);
      }
      versions.get(request.file)!.add(body);
    }
  };
  const pollers = [0, 1, 2, 3].map(poll);
  try {
    for (let n = 1; n <= 40; n += 1) await writeOutput(dist, build(n));
  } finally {
    writing = false;
    await Promise.all(pollers);
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  }
  assert.equal(problems, [], `${problems.length} of ${answered + problems.length} requests went wrong`);
  assert.ok(answered > 40, `requests were made throughout (${answered})`);
  assert.ok(versions.get('index.html')!.size > 1, 'the pollers saw more than one build');
});

rebuilds.run();
