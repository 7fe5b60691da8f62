// Integration: site-gen's deploy against a real S3 API (s3rver on 127.0.0.1), with a small generated dist/.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetBucketWebsiteCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deploy } from '../../src/deploy/deploy.ts';
import type { DeployOptions } from '../../src/deploy/options.ts';
import { DeployError, LockedError } from '../../src/core/errors.ts';
import { startS3rver, testDeployOptions, type S3rverHandle } from '../helpers/s3rver.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';
const HTML = 'text/html; charset=utf-8';

const page = (title: string, script = 'home-3f9a1c2b.js') =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="/assets/site-0a1b2c3d.css"><script type="module" src="/assets/${script}"></script></head><body><h1>${title}</h1>${'<p>filler text</p>'.repeat(80)}</body></html>`;

/** A small build output, as `site-gen build` writes it (with .br/.gz siblings beside big text files). */
function baseSite(): Record<string, string | Buffer> {
  const files: Record<string, string | Buffer> = {
    'index.html': page('Home'),
    'contact/index.html': page('Contact'),
    '404.html': page('Not found'),
    'assets/home-3f9a1c2b.js': 'import "./chunks/react-AB12CD34.js"; console.log("home");',
    'assets/chunks/react-AB12CD34.js': 'export const react = 1;',
    'assets/site-0a1b2c3d.css': 'body { color: red }',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'og-image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]),
    'sitemap.xml': '<?xml version="1.0"?><urlset/>',
    'robots.txt': 'User-agent: *\nAllow: /\n',
  };
  for (const name of ['index.html', 'contact/index.html', '404.html']) {
    files[`${name}.gz`] = gzipSync(files[name]!);
    files[`${name}.br`] = Buffer.from('brotli bytes');
  }
  return files;
}

async function writeSite(dir: string, files: Record<string, string | Buffer>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

interface Harness {
  server: S3rverHandle;
  client: S3Client;
  /** S3 commands sent by the deploy, by name, since the last reset. */
  calls: string[];
  tmp: string;
}

const h = {} as Harness;
let bucketCount = 0;

/** A new empty bucket and dist folder for one test. */
async function fresh(files = baseSite()): Promise<{ bucket: string; out: string }> {
  bucketCount += 1;
  const bucket = `site-${bucketCount}`;
  await h.client.send(new CreateBucketCommand({ Bucket: bucket }));
  const out = join(h.tmp, bucket);
  await writeSite(out, files);
  return { bucket, out };
}

interface Run {
  output: string;
  result: Awaited<ReturnType<typeof deploy>>;
  /** Keys uploaded (PutObject), the manifest excluded. */
  puts: string[];
}

async function run(bucket: string, out: string, extra: Partial<DeployOptions> = {}): Promise<Run> {
  let output = '';
  h.calls.length = 0;
  const result = await deploy(testDeployOptions(h.client, bucket, out, (chunk) => void (output += chunk), extra));
  const puts = h.calls
    .filter((call) => call.startsWith('PutObject ') && !call.includes('.site-gen/'))
    .map((call) => call.slice('PutObject '.length));
  return { output, result, puts };
}

/** The keys of the bucket, each release record's random id written as ID. */
async function keys(bucket: string): Promise<string[]> {
  return keysOf(h.client, bucket);
}

async function keysOf(client: S3Client, bucket: string): Promise<string[]> {
  const listing = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listing.Contents ?? []).map((item) => item.Key!.replace(/releases\/[^/]+\.json$/, 'releases/ID.json')).sort();
}

async function snapshot(bucket: string): Promise<string[]> {
  const listing = await h.client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listing.Contents ?? []).map((item) => `${item.Key} ${item.ETag} ${item.LastModified?.toISOString()}`).sort();
}

const head = (bucket: string, key: string) => h.client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));

async function body(bucket: string, key: string): Promise<Buffer> {
  const answer = await h.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await answer.Body!.transformToByteArray());
}

const SITE_KEYS = [
  '.site-gen/deploy-manifest.json',
  '.site-gen/releases.json',
  '.site-gen/releases/ID.json',
  '404.html',
  'assets/chunks/react-AB12CD34.js',
  'assets/home-3f9a1c2b.js',
  'assets/site-0a1b2c3d.css',
  'contact',
  'contact/index.html',
  'favicon.svg',
  'index.html',
  'og-image.png',
  'robots.txt',
  'sitemap.xml',
];

const s3 = suite('deploy to a real S3 API (s3rver)');

s3.before(async () => {
  h.tmp = await mkdtemp(join(tmpdir(), 'site-gen-deploy-'));
  h.server = await startS3rver();
  h.client = h.server.client();
  h.calls = [];
  h.client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { Key?: string };
      h.calls.push(
        `${(context.commandName ?? '').replace(/Command$/, '')}${input.Key !== undefined ? ` ${input.Key}` : ''}`,
      );
      return next(args);
    },
    { step: 'initialize', name: 'recordCalls' },
  );
});

s3.after(async () => {
  await h.server.dispose();
  await rm(h.tmp, { recursive: true, force: true });
});

s3('first deploy uploads every file with its Content-Type and Cache-Control, and skips .br/.gz siblings', async () => {
  const { bucket, out } = await fresh();
  const { result, output } = await run(bucket, out);
  assert.equal(await keys(bucket), SITE_KEYS);
  assert.is(result.uploaded, 11);
  assert.is(result.deleted, 0);

  const expected: Record<string, [string, string]> = {
    'index.html': [HTML, REVALIDATE],
    'contact/index.html': [HTML, REVALIDATE],
    contact: [HTML, REVALIDATE],
    '404.html': [HTML, REVALIDATE],
    'assets/home-3f9a1c2b.js': ['text/javascript; charset=utf-8', IMMUTABLE],
    'assets/chunks/react-AB12CD34.js': ['text/javascript; charset=utf-8', IMMUTABLE],
    'assets/site-0a1b2c3d.css': ['text/css; charset=utf-8', IMMUTABLE],
    'favicon.svg': ['image/svg+xml', REVALIDATE],
    'og-image.png': ['image/png', REVALIDATE],
    'sitemap.xml': ['application/xml; charset=utf-8', REVALIDATE],
    'robots.txt': ['text/plain; charset=utf-8', REVALIDATE],
  };
  for (const [key, [type, cache]] of Object.entries(expected)) {
    const answer = await head(bucket, key);
    assert.is(answer.ContentType, type, `${key} is stored as ${type}`);
    assert.is(answer.CacheControl, cache, `${key} is stored with ${cache}`);
    assert.is(answer.ContentEncoding, undefined, `${key} is stored as is without --gzip`);
  }
  assert.equal(await body(bucket, 'contact'), Buffer.from(page('Contact')), 'the contact key holds the contact page');
  assert.equal(await body(bucket, 'og-image.png'), baseSite()['og-image.png'], 'binary files arrive byte for byte');
  assert.match(output, /: 11 uploaded \(/, 'the summary counts the uploads');
  assert.match(output, /0 unchanged, in \d/, 'the summary gives the time');
});

s3('uploads hashed assets before pages, pages before 404.html, and sitemap.xml last', async () => {
  const { bucket, out } = await fresh();
  const { puts } = await run(bucket, out, { concurrency: 1 });
  const position = (key: string) => puts.indexOf(key);
  assert.ok(position('assets/chunks/react-AB12CD34.js') < position('favicon.svg'));
  assert.ok(position('assets/home-3f9a1c2b.js') < position('index.html'));
  assert.ok(position('og-image.png') < position('index.html'));
  assert.ok(position('index.html') < position('404.html'));
  assert.ok(position('404.html') < position('sitemap.xml'));
  assert.ok(position('404.html') < position('robots.txt'));
});

s3('a second deploy of the same dist writes nothing: no PUT, no DELETE, the manifest left as it was', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  const before = await snapshot(bucket);
  // S3 times have a resolution of one second: a rewrite within the same second would keep its LastModified.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const { result, output } = await run(bucket, out);
  assert.equal(
    h.calls.filter((call) => /^(PutObject|DeleteObjects?|CopyObject)\b/.test(call)),
    ['PutObject .site-gen/lock.json', 'DeleteObject .site-gen/lock.json'],
    'no write request but taking and releasing the lock: not to the site, not to the manifest',
  );
  assert.equal(await snapshot(bucket), before, 'every object, the manifest included, keeps its ETag and LastModified');
  assert.is(result.unchanged, 11);
  assert.is(result.manifestWritten, false);
  assert.not.ok(
    h.calls.some((call) => call.startsWith('HeadObject')),
    'the manifest vouches for every object',
  );
  assert.match(
    output,
    /Nothing to deploy to s3:\/\/site-\d+\/: 0 uploaded, 0 deleted, 11 unchanged; nothing was written/,
  );
});

s3('a deploy whose only change is a retired asset still writes the manifest that records it', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  const next = baseSite();
  delete next['assets/chunks/react-AB12CD34.js'];
  await writeSite(out, next);
  const { result } = await run(bucket, out);
  assert.is(result.uploaded, 0);
  assert.is(result.deleted, 0);
  assert.is(result.retained, 1, 'the old chunk is kept for one more deploy');
  assert.is(result.manifestWritten, true, 'the manifest records when the chunk was retired');
});

s3('after one change only the changed pages and assets upload; the old asset stays for one more deploy', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  const changed = baseSite();
  delete changed['assets/home-3f9a1c2b.js'];
  changed['assets/home-7e6d5c4b.js'] = 'import "./chunks/react-AB12CD34.js"; console.log("home, new");';
  changed['index.html'] = page('Home', 'home-7e6d5c4b.js');
  changed['contact/index.html'] = page('Contact us', 'home-7e6d5c4b.js');
  await writeSite(out, changed);

  const second = await run(bucket, out);
  assert.equal(second.puts.sort(), ['assets/home-7e6d5c4b.js', 'contact', 'contact/index.html', 'index.html']);
  assert.is(second.result.deleted, 0);
  assert.ok(
    (await keys(bucket)).includes('assets/home-3f9a1c2b.js'),
    'pages still open in browsers can load the old script',
  );

  const rerun = await run(bucket, out);
  assert.equal(rerun.puts, []);
  assert.ok((await keys(bucket)).includes('assets/home-3f9a1c2b.js'), 'a deploy that changes nothing keeps it too');

  changed['robots.txt'] = 'User-agent: *\nDisallow: /private/\n';
  await writeSite(out, changed);
  const third = await run(bucket, out);
  assert.equal(third.puts, ['robots.txt']);
  assert.is(third.result.deleted, 1);
  assert.not.ok(
    (await keys(bucket)).includes('assets/home-3f9a1c2b.js'),
    'the next deploy that changes the site deletes it',
  );
});

s3('deletes a removed page and its alias', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  const files = baseSite();
  delete files['contact/index.html'];
  delete files['contact/index.html.gz'];
  delete files['contact/index.html.br'];
  await writeSite(out, files);
  const { result, output } = await run(bucket, out);
  assert.is(result.deleted, 2);
  const now = await keys(bucket);
  assert.not.ok(now.includes('contact/index.html') || now.includes('contact'), 'both keys of the page are gone');
  assert.match(output, /deleted contact\/index\.html/);
});

s3('--dry-run prints the plan and changes nothing', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  const before = await snapshot(bucket);
  const files = baseSite();
  files['index.html'] = page('Home, changed');
  delete files['robots.txt'];
  await writeSite(out, files);
  const { result, output } = await run(bucket, out, { dryRun: true, configureWebsite: true });
  assert.equal(await snapshot(bucket), before, 'every object, ETag and time is as before');
  assert.ok(
    h.calls.every((call) => /^(ListObjectsV2|GetObject|HeadObject)/.test(call)),
    `only reads: ${h.calls.join(', ')}`,
  );
  assert.is(result.dryRun, true);
  assert.match(output, /upload {3}index\.html {2}[\d.]+ KB \(changed\)/);
  assert.match(output, /delete {3}robots\.txt/);
  assert.match(output, /website {2}index document index\.html, error document 404\.html/);
  assert.match(output, /Plan: 1 file to upload \([\d.]+ KB\), 1 to delete, 9 unchanged/);
});

s3('--max-deletes: more deletes than allowed deletes nothing and says so; uploads still happen', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  const files = baseSite();
  delete files['robots.txt'];
  delete files['sitemap.xml'];
  delete files['favicon.svg'];
  files['index.html'] = page('Home, changed');
  await writeSite(out, files);
  const blocked = await run(bucket, out, { maxDeletes: 2 });
  assert.is(blocked.result.deleted, 0);
  assert.ok(['robots.txt', 'sitemap.xml', 'favicon.svg'].every((key) => SITE_KEYS.includes(key)));
  const now = await keys(bucket);
  assert.ok(
    now.includes('robots.txt') && now.includes('sitemap.xml') && now.includes('favicon.svg'),
    'nothing was deleted',
  );
  assert.equal(blocked.puts, ['index.html']);
  assert.match(blocked.output, /Not deleting anything: 3 files would be deleted, more than --max-deletes 2 allows/);
  assert.match(blocked.output, /run again with --max-deletes 3/);

  const allowed = await run(bucket, out, { maxDeletes: 3 });
  assert.is(allowed.result.deleted, 3);
  assert.not.ok((await keys(bucket)).includes('robots.txt'));
});

s3(
  '--gzip stores text gzip-encoded, compares by the MD5 kept in metadata, and re-uploads nothing next time',
  async () => {
    const { bucket, out } = await fresh();
    await run(bucket, out, { gzip: true });
    const answer = await head(bucket, 'index.html');
    assert.is(answer.ContentEncoding, 'gzip');
    assert.is(answer.ContentType, HTML);
    assert.equal(
      gunzipSync(await body(bucket, 'index.html')).toString(),
      page('Home'),
      'the stored body gunzips to the page',
    );
    assert.is((await head(bucket, 'og-image.png')).ContentEncoding, undefined, 'images stay as they are');

    const again = await run(bucket, out, { gzip: true });
    assert.equal(again.puts, []);

    // Without the manifest the deploy reads each object's headers and metadata instead, and still uploads nothing.
    await h.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: '.site-gen/deploy-manifest.json' }));
    const withoutManifest = await run(bucket, out, { gzip: true });
    assert.equal(withoutManifest.puts, []);
    assert.ok(
      h.calls.filter((call) => call.startsWith('HeadObject')).length >= 11,
      'the headers came from HEAD requests',
    );

    const plain = await run(bucket, out, { gzip: false });
    assert.ok(
      plain.puts.includes('index.html') && !plain.puts.includes('og-image.png'),
      'turning gzip off re-uploads the text files only',
    );
    assert.is((await head(bucket, 'index.html')).ContentEncoding, undefined);
  },
);

s3('re-uploads a file someone replaced in the bucket, even though the manifest says otherwise', async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  await h.client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'favicon.svg',
      Body: Buffer.from('<svg>tampered</svg>'),
      ContentType: 'image/svg+xml',
    }),
  );
  const { puts } = await run(bucket, out);
  assert.equal(puts, ['favicon.svg']);
  assert.equal((await body(bucket, 'favicon.svg')).toString(), baseSite()['favicon.svg']);
});

s3("rebuilds an unreadable manifest from the objects' own headers and says so", async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out);
  await h.client.send(
    new PutObjectCommand({ Bucket: bucket, Key: '.site-gen/deploy-manifest.json', Body: Buffer.from('{ truncated') }),
  );
  const { puts, output } = await run(bucket, out);
  assert.equal(puts, [], 'the objects are still recognised as unchanged');
  assert.match(output, /note: the deploy manifest in s3:\/\/site-\d+\/ is not readable; checking each object instead/);
  const again = await run(bucket, out);
  assert.not.ok(
    h.calls.some((call) => call.startsWith('HeadObject')),
    'the rewritten manifest serves the next deploy',
  );
  assert.equal(again.puts, []);
});

s3('deploys under a prefix without touching the rest of the bucket', async () => {
  const { bucket, out } = await fresh();
  await h.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'other/keep.txt', Body: Buffer.from('not ours') }));
  await run(bucket, out, { prefix: 'preview/' });
  const now = await keys(bucket);
  assert.ok(now.includes('other/keep.txt'));
  assert.ok(
    now.includes('preview/index.html') &&
      now.includes('preview/contact') &&
      now.includes('preview/.site-gen/deploy-manifest.json'),
  );
  assert.not.ok(now.includes('index.html'));
});

s3("--configure-website sets index.html and 404.html as the bucket's documents", async () => {
  const { bucket, out } = await fresh();
  await run(bucket, out, { configureWebsite: true });
  const website = await h.client.send(new GetBucketWebsiteCommand({ Bucket: bucket }));
  assert.is(website.IndexDocument?.Suffix, 'index.html');
  assert.is(website.ErrorDocument?.Key, '404.html');
});

s3('refuses a folder without index.html before touching the bucket', async () => {
  const { bucket, out } = await fresh({ 'about.txt': 'not a site' });
  try {
    await run(bucket, out);
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, DeployError);
    assert.match(
      (error as Error).message,
      /has no index\.html, so it is not a built site\. Run `site-gen build` first/,
    );
  }
  assert.equal(h.calls, [], 'no request was sent');
});

s3('fails with the endpoint and the reason when nothing listens there', async () => {
  const { out } = await fresh();
  const stopped = await startS3rver();
  const endpoint = stopped.endpoint;
  await stopped.dispose();
  const client = stopped.client();
  try {
    await run('site-1', out, { client, endpoint });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, DeployError);
    assert.match(
      (error as Error).message,
      // The lock is the first thing read.
      new RegExp(
        `^Could not read s3://site-1/\\.site-gen/lock\\.json: ${endpoint.replace(/\./g, '\\.')} refused the connection`,
      ),
    );
  } finally {
    client.destroy();
  }
});

s3.run();

const failure = suite('deploy interrupted by a failure');

failure(
  'a server stopped mid-deploy fails naming the file, uploads no page before its assets, and a re-run completes',
  async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'site-gen-deploy-fail-'));
    let server = await startS3rver({ buckets: [{ name: 'interrupted' }] });
    const { port, directory } = server;
    const client = server.client();
    let puts = 0;
    // Stop the server just as the third upload is about to be sent: a real connection failure, at a known point.
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const key = (args.input as { Key?: string }).Key ?? '';
        if (context.commandName === 'PutObjectCommand' && !key.startsWith('.site-gen/') && ++puts === 3)
          await server.stop();
        return next(args);
      },
      { step: 'initialize', name: 'stopServer' },
    );
    const out = join(tmp, 'dist');
    await writeSite(out, baseSite());
    let output = '';
    const options = testDeployOptions(client, 'interrupted', out, (chunk) => void (output += chunk), {
      concurrency: 1,
      endpoint: server.endpoint,
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    });
    try {
      try {
        await deploy(options);
        assert.unreachable('the deploy should fail');
      } catch (error) {
        assert.instance(error, DeployError);
        const message = (error as Error).message;
        assert.match(
          message,
          /^Could not upload .*assets\/site-0a1b2c3d\.css to s3:\/\/interrupted\/assets\/site-0a1b2c3d\.css: /,
        );
        assert.match(message, /refused the connection/);
        assert.match(message, /Run the same command again to finish/);
        assert.match(
          message,
          /The deploy lock s3:\/\/interrupted\/\.site-gen\/lock\.json may still be there \(removing it failed too\): until it lapses at .+, the same command is refused with exit code 4\. To run it again sooner, add --force-unlock/,
          'the failed run says it left its lock, and the way on',
        );
      }
      assert.match(
        output,
        /retrying assets\/site-0a1b2c3d\.css in \d+ ms \(try 2\)/,
        'the failure was retried before giving up',
      );

      server = await startS3rver({ directory, port });
      const check = server.client();
      const partial = ((await check.send(new ListObjectsV2Command({ Bucket: 'interrupted' }))).Contents ?? [])
        .map((item) => item.Key)
        .filter((key) => !key?.startsWith('.site-gen/'));
      assert.equal(
        partial.sort(),
        ['assets/chunks/react-AB12CD34.js', 'assets/home-3f9a1c2b.js'],
        'no page went up before its assets',
      );
      const index = await check.send(new GetObjectCommand({ Bucket: 'interrupted', Key: '.site-gen/releases.json' }));
      assert.match(
        await index.Body!.transformToString(),
        /"pending": \{\s*"command": "deploy"/,
        'the index marks the deploy unfinished, so a rollback will list the bucket',
      );

      // The failed run could not remove its lock (S3 was down): the next run refuses, naming it, until told.
      try {
        await deploy({ ...options, client: check, output: { write: () => {} } });
        assert.unreachable('the lock of the failed run should stop the re-run');
      } catch (error) {
        assert.instance(error, LockedError);
        assert.match((error as Error).message, /is locked by a deploy by .*@.*, started .*--force-unlock/);
      }
      const rerun = await deploy({ ...options, client: check, output: { write: () => {} }, forceUnlock: true });
      assert.is(rerun.uploaded, 9, 'the re-run uploads only what is missing');
      assert.is(rerun.unchanged, 2);
      assert.equal(await keysOf(check, 'interrupted'), SITE_KEYS);
    } finally {
      client.destroy();
      await server.dispose();
      await rm(directory, { recursive: true, force: true });
      await rm(tmp, { recursive: true, force: true });
    }
  },
);

failure.run();
