// One answer to "which file does this URL get": `site-gen serve` (from disk), `site-gen watch` (from memory) and a
// bucket `site-gen deploy` filled, as S3 website hosting routes it (s3rver), all answer as resolveOutputPath() says.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveOutputPath } from '../../src/core/http/paths.ts';
import { deploy } from '../../src/deploy/deploy.ts';
import { createNotFoundHandler, createOutputHandler, policyOf } from '../../src/dev/output.ts';
import { createStaticServer, type StaticServer } from '../../src/serve/server.ts';
import { startS3rver, testDeployOptions, type S3rverHandle } from '../helpers/s3rver.ts';

/** Each file names itself in its body, so an answer tells which file it is whatever wraps it. */
const FILES = ['index.html', 'contact/index.html', 'a/index.html', 'x.css', '404.html'];
const body = (file: string) =>
  file.endsWith('.html')
    ? `<!doctype html><html><head><title>${file}</title></head><body><p>FILE:${file}</p></body></html>`
    : `/* FILE:${file} */`;

/** URL as sent on the wire -> the file that answers it, and with which status. */
const TABLE: Array<[string, string, number]> = [
  ['/', 'index.html', 200],
  ['/contact', 'contact/index.html', 200],
  ['/contact/', 'contact/index.html', 200],
  ['/x.css', 'x.css', 200],
  ['/missing', '404.html', 404],
  ['/%2e%2e/secret', '404.html', 404],
  ['/a/index.html', 'a/index.html', 200],
];

interface Answer {
  status: number;
  file: string | undefined;
}

/** GETs `target` exactly as written (no normalising of `%2e%2e`), following redirects as a browser does. */
function ask(origin: string, target: string, hops = 3): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = new URL(origin);
    http
      .get({ host: url.hostname, port: url.port, path: url.pathname.replace(/\/$/, '') + target }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const location = res.headers.location;
          if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location && hops > 0) {
            const next = new URL(location, `${url.origin}${url.pathname}`);
            return resolve(ask(next.origin, next.pathname + next.search, hops - 1));
          }
          resolve({ status: res.statusCode ?? 0, file: /FILE:(\S+?)(?:<| \*)/.exec(text)?.[1] });
        });
      })
      .on('error', reject);
  });
}

interface Context {
  tmp: string;
  site: string;
  serve: StaticServer;
  watch: StaticServer;
  s3: S3rverHandle;
  origins: Record<'serve' | 'watch' | 'deploy', string>;
}

const agree = suite<Context>('serve, watch and a deployed bucket answer each URL with the same file');

agree.before(async (context) => {
  context.tmp = await mkdtemp(join(tmpdir(), 'site-gen-urls-'));
  context.site = join(context.tmp, 'site');
  // Where `/%2e%2e/secret` would lead if a server followed it out of the folder.
  await writeFile(join(context.tmp, 'secret'), 'FILE:secret');
  const files = new Map(FILES.map((file) => [file, body(file)]));
  for (const [file, text] of files) {
    await mkdir(dirname(join(context.site, file)), { recursive: true });
    await writeFile(join(context.site, file), text);
  }
  context.serve = createStaticServer({ dir: context.site, port: 0 });
  // The watch server as startWatch() makes it: every request answered from the build in memory.
  const served = () => ({ files, build: 'b.1' });
  context.watch = createStaticServer({
    dir: join(context.tmp, 'public'),
    port: 0,
    handlers: [createOutputHandler(served)],
    notFound: createNotFoundHandler(served),
    policy: () => policyOf(files),
  });
  context.s3 = await startS3rver({ buckets: [{ name: 'urls', website: true }] });
  await deploy(testDeployOptions(context.s3.client(), 'urls', context.site, () => {}));
  context.origins = {
    serve: (await context.serve.listen()).url,
    watch: (await context.watch.listen()).url,
    // S3 website hosting: plain GETs, path-style, under the bucket.
    deploy: `${context.s3.endpoint}/urls`,
  };
});

agree.after(async (context) => {
  await context.serve?.close();
  await context.watch?.close();
  await context.s3?.dispose();
  await rm(context.tmp, { recursive: true, force: true });
});

agree('resolveOutputPath() gives the table its answers', () => {
  const files = new Set(FILES);
  for (const [target, file, status] of TABLE) {
    const decoded = decodeURIComponent(target);
    if (decoded.split('/').includes('..')) continue; // refused by every server before any lookup
    assert.is(resolveOutputPath(files, decoded) ?? '404.html', file, target);
    assert.is(resolveOutputPath(files, decoded) === undefined, status === 404, target);
  }
});

agree('each URL gets the same file and status from serve, watch and the deployed bucket', async ({ origins }) => {
  for (const [target, file, status] of TABLE) {
    for (const [server, origin] of Object.entries(origins)) {
      const answer = await ask(origin, target);
      assert.equal(answer, { status, file }, `${server} answers ${target} with ${file} (${status})`);
    }
  }
});

agree.run();
