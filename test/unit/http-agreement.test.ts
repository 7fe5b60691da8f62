// Builds the real site, then asks `site-gen serve`, `site-gen watch` and `site-gen deploy` how each output file is
// served: the three must give the same Content-Type and Cache-Control for every file.
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite } from '../../src/pipeline/build.ts';
import { readTree } from '../../src/pipeline/write.ts';
import { localTargets } from '../../src/deploy/deploy.ts';
import { createStaticServer, type StaticServer } from '../../src/serve/server.ts';
import { startWatch, type WatchSession } from '../../src/dev/watch.ts';
import { HASHED_FILES_PATH, isBuildMetadata } from '../../src/core/http/hashed-files.ts';
import { HEADERS_FILE } from '../../src/core/http/headers-file.ts';
import { CACHE_IMMUTABLE, CACHE_REVALIDATE } from '../../src/core/http/policy.ts';

interface Answer {
  status: number;
  contentType: string;
  cacheControl: string;
}

function ask(base: string, file: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const url = `${base}/${file.split('/').map(encodeURIComponent).join('/')}`;
    http
      .get(url, { headers: { 'Accept-Encoding': 'identity' } }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            cacheControl: String(res.headers['cache-control']),
          }),
        );
      })
      .on('error', reject);
  });
}

interface Folder {
  /** Every file the folder holds. */
  files: string[];
  /** `site-gen serve` over the folder. */
  serve: StaticServer;
  serveUrl: string;
  /** What `site-gen deploy` would store for each file (page aliases left out), by path. */
  deployed: Map<string, { contentType: string; cacheControl: string }>;
}

interface Context {
  tmp: string;
  /** What `site-gen build` wrote. */
  dist: Folder;
  /** What `site-gen watch --out` wrote: the same site, with its own hashes (its pages load the reload client). */
  watched: Folder;
  watch: WatchSession;
}

async function open(dir: string): Promise<Folder> {
  const serve = createStaticServer({ dir, port: 0 });
  const serveUrl = (await serve.listen()).url;
  const targets = await localTargets(dir, { prefix: '', gzip: false });
  const deployed = new Map(targets.filter((target) => !target.alias).map((target) => [target.path, target]));
  return { files: [...(await readTree(dir)).keys()], serve, serveUrl, deployed };
}

const isSibling = (file: string, files: string[]) => /\.(br|gz)$/.test(file) && files.includes(file.slice(0, -3));

const agree = suite<Context>('serve, watch and deploy agree on every output file of the real site');

agree.before(async (context) => {
  context.tmp = await mkdtemp(join(tmpdir(), 'site-gen-agree-'));
  await buildSite({ config: 'site.config.ts', out: join(context.tmp, 'dist') });
  context.dist = await open(join(context.tmp, 'dist'));
  context.watch = await startWatch({
    config: 'site.config.ts',
    host: '127.0.0.1',
    port: 0,
    out: join(context.tmp, 'watch-out'),
    info: () => {},
    error: () => {},
  });
  context.watched = await open(join(context.tmp, 'watch-out'));
});

agree.after(async (context) => {
  await context.watch?.close();
  await context.dist?.serve.close();
  await context.watched?.serve.close();
  await rm(context.tmp, { recursive: true, force: true });
});

agree(
  'the build lists its hashed files, and deploy uploads every file but .br/.gz siblings and that list',
  ({ dist }) => {
    assert.ok(dist.files.includes(HASHED_FILES_PATH), 'dist/ holds the list of hashed files');
    const expected = dist.files.filter((file) => !isBuildMetadata(file) && !isSibling(file, dist.files));
    assert.equal([...dist.deployed.keys()].sort(), expected.sort());
    const immutable = [...dist.deployed.keys()].filter(
      (file) => dist.deployed.get(file)!.cacheControl === CACHE_IMMUTABLE,
    );
    assert.equal(
      immutable,
      expected.filter((file) => /^assets\/.*\.(js|css|woff2|preload\.json)$/.test(file)),
      "the stylesheet, its fonts, the scripts and their entries' chunk graphs, and nothing else",
    );
    assert.ok(immutable.length >= 3);
    for (const file of ['index.html', 'favicon.svg', 'og-image.png', 'robots.txt'])
      assert.is(dist.deployed.get(file)?.cacheControl, CACHE_REVALIDATE, file);
  },
);

agree('serve and deploy agree on every file of dist/', async ({ dist }) => {
  for (const [file, stored] of dist.deployed) {
    const served = await ask(dist.serveUrl, file);
    assert.is(served.status, 200, `serve answers ${file}`);
    assert.equal(
      [served.contentType, served.cacheControl],
      [stored.contentType, stored.cacheControl],
      `${file}: serve and deploy agree`,
    );
  }
});

agree('watch, serve and deploy agree on every file watch builds', async ({ watch, watched }) => {
  assert.ok(watched.deployed.size > 10, 'watch wrote the whole site');
  assert.equal(
    watched.files.filter((file) => !watched.deployed.has(file)).sort(),
    [HASHED_FILES_PATH, HEADERS_FILE].sort(),
    'watch writes every file plus the list and _headers, no siblings',
  );
  for (const [file, stored] of watched.deployed) {
    const live = await ask(watch.url, file);
    const served = await ask(watched.serveUrl, file);
    assert.is(live.status, 200, `watch answers ${file}`);
    assert.equal(
      [live.contentType, live.cacheControl],
      [stored.contentType, stored.cacheControl],
      `${file}: watch and deploy agree`,
    );
    assert.equal(
      [served.contentType, served.cacheControl],
      [stored.contentType, stored.cacheControl],
      `${file}: serve and deploy agree`,
    );
  }
});

agree(
  'the .br/.gz siblings are cached as their twin, and the build list and _headers are never served',
  async ({ dist, watch }) => {
    const siblings = dist.files.filter((file) => isSibling(file, dist.files));
    assert.ok(siblings.length > 0);
    for (const file of siblings) {
      const served = await ask(dist.serveUrl, file);
      assert.is(
        served.cacheControl,
        dist.deployed.get(file.slice(0, -3))!.cacheControl,
        `${file} is cached as its twin`,
      );
    }
    for (const base of [dist.serveUrl, watch.url]) {
      for (const file of [HASHED_FILES_PATH, HEADERS_FILE])
        assert.is((await ask(base, file)).status, 404, `${base} does not serve the build's own ${file}`);
    }
  },
);

agree.run();
