// Releases, rollback and the deploy lock against a real S3 API (s3rver) and the CloudFront stand-in: rollback restores
// a release byte for byte without its files, two deploys never interleave, old pages keep their assets.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DeployError, EXIT_LOCKED, LockedError, UsageError } from '../../src/core/errors.ts';
import { deploy } from '../../src/deploy/deploy.ts';
import { listReleases } from '../../src/deploy/list-releases.ts';
import type { CloudFrontOptions, DeployOptions } from '../../src/deploy/options.ts';
import { keepBeforeChange } from '../../src/deploy/keep.ts';
import { ciJob, describeHolder, whoAmI } from '../../src/deploy/lock.ts';
import { commitText, gitInfo, newReleaseId, readIndex, readRecord, releasesToKeep } from '../../src/deploy/releases.ts';
import { chooseRelease, rollback, type RollbackOptions } from '../../src/deploy/rollback.ts';
import { startCloudFrontStandIn, type CloudFrontStandIn } from '../helpers/cloudfront.ts';
import { S3RVER_CREDENTIALS, startS3rver, testDeployOptions, type S3rverHandle } from '../helpers/s3rver.ts';

const DISTRIBUTION = 'E2TESTDIST0002';

const page = (title: string, script: string) =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="/assets/site-0a1b2c3d.css">` +
  `<script type="module" src="/assets/${script}"></script></head><body><h1>${title}</h1></body></html>`;

/** Release A as built. */
function siteA(): Record<string, string> {
  return {
    'index.html': page('Home A', 'home-3f9a1c2b.js'),
    'contact/index.html': page('Contact', 'home-3f9a1c2b.js'),
    '404.html': page('Not found', 'home-3f9a1c2b.js'),
    'assets/home-3f9a1c2b.js': 'console.log("home A");',
    'assets/site-0a1b2c3d.css': 'body { color: red }',
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'robots.txt': 'User-agent: *\nAllow: /\n',
  };
}

/** Release B: the home page changed (with a new script), a page added. */
function siteB(): Record<string, string> {
  const files = siteA();
  files['index.html'] = page('Home B', 'home-7d8e9f0a.js');
  delete files['assets/home-3f9a1c2b.js'];
  files['assets/home-7d8e9f0a.js'] = 'console.log("home B");';
  files['contact/index.html'] = page('Contact', 'home-7d8e9f0a.js');
  files['404.html'] = page('Not found', 'home-7d8e9f0a.js');
  files['pricing/index.html'] = page('Pricing', 'home-7d8e9f0a.js');
  return files;
}

/** Release C: B with another script, so B's is no longer used. */
function siteC(): Record<string, string> {
  const files = siteB();
  delete files['assets/home-7d8e9f0a.js'];
  files['assets/home-C0C0C0C1.js'] = 'console.log("home C");';
  for (const path of ['index.html', 'contact/index.html', '404.html', 'pricing/index.html']) {
    files[path] = files[path]!.replace('home-7d8e9f0a.js', 'home-C0C0C0C1.js').replace('Home B', 'Home C');
  }
  return files;
}

/** The keys a deploy of `files` stores: each page also under its folder's name. */
function keysOf(files: Record<string, string>): string[] {
  return Object.keys(files)
    .flatMap((path) => (path.endsWith('/index.html') ? [path, path.slice(0, -'/index.html'.length)] : [path]))
    .sort();
}

/** Awaits `run`, which must fail with an error that matches `check`: a pattern of its message, its class, or a function that asserts. */
async function rejects(
  run: () => Promise<unknown>,
  check: RegExp | (new (...args: never[]) => Error) | ((error: unknown) => unknown),
): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (check instanceof RegExp) assert.match((error as Error).message, check);
    else if (check.prototype instanceof Error) assert.instance(error, check);
    else (check as (error: unknown) => unknown)(error);
    return;
  }
  assert.unreachable('should have failed');
}

async function writeSite(dir: string, files: Record<string, string>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

const h = {} as {
  server: S3rverHandle;
  client: S3Client;
  tmp: string;
  calls: string[];
  cdn: CloudFrontStandIn;
  cdnClient: CloudFrontClient;
};
let buckets = 0;

async function freshBucket(): Promise<string> {
  buckets += 1;
  const bucket = `releases-${buckets}`;
  await h.client.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
}

/** Builds `files` into a folder of its own and deploys it; returns the folder and what the deploy printed. */
async function deploySite(
  bucket: string,
  name: string,
  files: Record<string, string>,
  extra: Partial<DeployOptions> = {},
): Promise<{ out: string; output: string; result: Awaited<ReturnType<typeof deploy>> }> {
  const out = join(h.tmp, `${bucket}-${name}`);
  await writeSite(out, files);
  let output = '';
  const result = await deploy(testDeployOptions(h.client, bucket, out, (chunk) => void (output += chunk), extra));
  return { out, output, result };
}

async function rollbackTo(bucket: string, extra: Partial<RollbackOptions> = {}) {
  let output = '';
  h.calls.length = 0;
  const result = await rollback({
    bucket,
    prefix: '',
    dryRun: false,
    concurrency: 4,
    client: h.client,
    output: { write: (chunk: string) => void (output += chunk) },
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    lock: { leaseMs: 60_000, settleMs: 20 },
    ...extra,
  });
  return { result, output };
}

async function allKeys(bucket: string, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await h.client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, ContinuationToken: token }),
    );
    for (const item of page.Contents ?? []) keys.push(item.Key!);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

/** Every object of the site (site-gen's own records aside): its body's MD5 and the headers it is served with. */
async function siteState(bucket: string): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const key of await allKeys(bucket)) {
    if (key.startsWith('.site-gen/')) continue;
    const answer = await h.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const body = Buffer.from(await answer.Body!.transformToByteArray());
    state[key] = [
      createHash('md5').update(body).digest('hex'),
      answer.ContentType,
      answer.CacheControl,
      answer.ContentEncoding ?? 'identity',
      answer.Metadata?.md5 ?? '',
    ].join(' ');
  }
  return state;
}

/** As a visitor's browser asks the website endpoint: status and body. */
async function visit(bucket: string, path: string): Promise<{ status: number; body: string }> {
  const answer = await fetch(`${h.server.endpoint}/${bucket}/${path}`);
  return { status: answer.status, body: await answer.text() };
}

async function putLock(bucket: string, record: Record<string, unknown>): Promise<void> {
  await h.client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: '.site-gen/lock.json',
      Body: Buffer.from(JSON.stringify({ version: 1, token: 'other-run', command: 'deploy', ...record })),
    }),
  );
}

const WRITES = /^(PutObject|CopyObject|DeleteObjects?) /;

// ---------------------------------------------------------------------------------------------------------------
// The pure parts: ids, which release to restore, which to keep, which bodies to copy aside, who holds a lock

const pure = suite('releases without a bucket');

const summary = (id: string) => ({ id, createdAt: '2026-11-25T14:30:12.000Z', by: 'ann@laptop', objects: 1, bytes: 1 });
const indexOf = (ids: string[], live?: string) => ({ version: 1 as const, live, releases: ids.map(summary) });

pure('release ids sort by time: UTC date and time, then four hex digits', () => {
  assert.is(
    newReleaseId(new Date('2026-11-25T14:30:12.345Z'), () => '3f9a'),
    '20261125-143012-3f9a',
  );
  assert.match(newReleaseId(new Date()), /^\d{8}-\d{6}-[0-9a-f]{4}$/);
});

pure('rollback restores the release made before the live one, or the one named', () => {
  const index = indexOf(['r1', 'r2', 'r3'], 'r3');
  assert.is(chooseRelease(index, undefined, 's3://b/').id, 'r2');
  assert.is(
    chooseRelease(indexOf(['r1', 'r2', 'r3'], 'r2'), undefined, 's3://b/').id,
    'r1',
    'after a rollback, one more back',
  );
  assert.is(chooseRelease(index, 'r1', 's3://b/').id, 'r1');
  assert.throws(
    () => chooseRelease(index, 'r9', 's3://b/'),
    /--to r9: no such release in s3:\/\/b\/\. The kept ones are: r3, r2, r1\./,
  );
  assert.throws(
    () => chooseRelease(indexOf(['r1'], 'r1'), undefined, 's3://b/'),
    /r1 is the oldest kept in s3:\/\/b\/: there is none before it/,
  );
  assert.throws(() => chooseRelease(indexOf([]), undefined, 's3://b/'), /No releases are recorded in s3:\/\/b\//);
  assert.throws(
    () => chooseRelease(indexOf(['r1', 'r2']), undefined, 's3://b/'),
    /No release is live .* name one with --to ID/,
  );
});

pure('the newest releases are kept, and the live one whatever its age', () => {
  const { kept, dropped } = releasesToKeep(indexOf(['r1', 'r2', 'r3', 'r4'], 'r1'), 2);
  assert.equal(
    kept.map((release) => release.id),
    ['r4', 'r3', 'r1'],
  );
  assert.equal(
    dropped.map((release) => release.id),
    ['r2'],
  );
});

pure('only bodies of the live release are copied aside before a change, each once, none already kept', () => {
  const objects = new Map(
    ['a.html', 'a', 'b.html', 'stray.txt', 'assets/old-3f9a1c2b.js'].map((key, n) => [
      key,
      { key, size: 1, etag: key === 'a' ? 'e0' : `e${n}` },
    ]),
  );
  const live = {
    version: 1 as const,
    generation: 3,
    release: 'r3',
    objects: { 'a.html': { etag: 'e0', size: 1 }, a: { etag: 'e0', size: 1 }, 'b.html': { etag: 'e2', size: 1 } },
    retired: { 'assets/old-3f9a1c2b.js': 3 },
  };
  assert.equal(
    keepBeforeChange(
      ['a.html', 'a', 'b.html', 'stray.txt', 'assets/old-3f9a1c2b.js', 'new.html'],
      objects,
      { manifest: live },
      new Set(['e2']),
    ),
    [
      { key: 'a.html', etag: 'e0' },
      { key: 'assets/old-3f9a1c2b.js', etag: 'e4' },
    ],
    'the page and its alias share one copy; b.html is kept already; a stray file and a new key are no release of ours',
  );
  assert.equal(
    keepBeforeChange(['a.html'], objects, { manifest: { ...live, release: undefined } }, new Set()),
    [],
    'no live release, nothing to keep',
  );
});

pure('a body restored by a copy is kept under the ETag its release records, not the one the store gives it', () => {
  const live = {
    version: 1 as const,
    generation: 3,
    release: 'r3',
    objects: { 'index.html': { etag: 'e-a', storeEtag: 'e-copy', size: 10 } },
    retired: {},
  };
  const stored = { manifest: live };
  const listed = (etag: string, size = 10) => new Map([['index.html', { key: 'index.html', size, etag }]]);
  assert.equal(
    keepBeforeChange(['index.html'], listed('e-copy'), stored, new Set()),
    [{ key: 'index.html', etag: 'e-a' }],
    'the restore noted the ETag its copy was given (SSE-KMS, s3rver): the body is the one its release records',
  );
  assert.equal(
    keepBeforeChange(['index.html'], listed('e-copy'), stored, new Set(['e-a'])),
    [],
    'and that body is kept already',
  );
  assert.equal(
    keepBeforeChange(['index.html'], listed('e-other'), stored, new Set()),
    [],
    'another ETag (written since, by a run that died or by hand): no body of the release',
  );
  assert.equal(
    keepBeforeChange(['index.html'], listed('e-copy', 11), stored, new Set()),
    [],
    'another size: no body of the release',
  );
});

pure('the holder is user@host and the CI job, with a link', () => {
  assert.is(
    ciJob({ GITHUB_ACTIONS: 'true', GITHUB_RUN_ID: '42', GITHUB_REPOSITORY: 'acme/site', GITHUB_JOB: 'deploy' }),
    'GitHub Actions job deploy (https://github.com/acme/site/actions/runs/42)',
  );
  assert.is(
    ciJob({ GITLAB_CI: 'true', CI_JOB_NAME: 'pages', CI_JOB_URL: 'https://gitlab.com/a/b/-/jobs/7' }),
    'GitLab CI job pages (https://gitlab.com/a/b/-/jobs/7)',
  );
  assert.is(ciJob({}), undefined);
  assert.is(describeHolder({ user: 'ann', host: 'laptop' }), 'ann@laptop');
  assert.equal(gitInfo('/', { GITHUB_SHA: 'abc123', GITHUB_REF_NAME: 'main' }), { commit: 'abc123', branch: 'main' });
});

pure('a release of a working folder with changes beside its commit says so (-dirty)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-git-'));
  try {
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'page.md'), 'one');
    git('add', '.');
    git('commit', '-q', '-m', 'one');
    const clean = gitInfo(dir, {});
    assert.equal(Object.keys(clean ?? {}).sort(), ['branch', 'commit'], 'a clean checkout: no dirty mark');
    assert.is(commitText(clean!), clean!.commit.slice(0, 12));
    writeFileSync(join(dir, 'page.md'), 'two');
    const edited = gitInfo(dir, {});
    assert.equal(edited, { commit: clean!.commit, branch: 'main', dirty: true });
    assert.is(commitText(edited!), `${clean!.commit.slice(0, 12)}-dirty`);
    git('checkout', '-q', '--', 'page.md');
    writeFileSync(join(dir, 'new.md'), 'a new file');
    assert.is(gitInfo(dir, {})?.dirty, true, 'a new file not ignored counts too');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

pure.run();

const releases = suite('releases and rollback (s3rver)');

releases.before(async () => {
  h.tmp = await mkdtemp(join(tmpdir(), 'site-gen-releases-'));
  h.server = await startS3rver();
  h.client = h.server.client();
  h.calls = [];
  h.client.middlewareStack.add(
    (next, context) => async (args) => {
      const key = (args.input as { Key?: string }).Key;
      h.calls.push(`${(context.commandName ?? '').replace(/Command$/, '')} ${key ?? ''}`);
      return next(args);
    },
    { step: 'initialize', name: 'recordCalls' },
  );
  h.cdn = await startCloudFrontStandIn({ distributions: [DISTRIBUTION] });
  h.cdnClient = new CloudFrontClient({
    endpoint: h.cdn.endpoint,
    region: 'us-east-1',
    credentials: S3RVER_CREDENTIALS,
    maxAttempts: 1,
  });
});

releases.after(async () => {
  h.cdnClient.destroy();
  await h.cdn.close();
  await h.server.dispose();
  await rm(h.tmp, { recursive: true, force: true });
});

releases('rollback restores release A byte for byte without its folder, and removes the page B added', async () => {
  const bucket = await freshBucket();
  const a = await deploySite(bucket, 'a', siteA());
  const stateA = await siteState(bucket);
  const b = await deploySite(bucket, 'b', siteB());
  assert.ok((await siteState(bucket))['pricing/index.html'], 'B added a page');
  await rm(a.out, { recursive: true });
  await rm(b.out, { recursive: true });

  const { result, output } = await rollbackTo(bucket);
  const calls = [...h.calls];
  assert.equal(
    calls.filter((call) => call.startsWith('ListObjects')),
    [],
    'planned from the records: the bucket is not listed',
  );
  assert.is(result.listed, false);
  assert.is(result.to, a.result.release, 'the default target is the release before the live one');
  assert.is(result.from, b.result.release);
  const after = await siteState(bucket);
  assert.not.ok(after['pricing/index.html'], "B's added page is gone");
  assert.not.ok(after.pricing, 'and its alias');
  for (const [key, state] of Object.entries(stateA)) assert.is(after[key], state, `${key} is A's, body and headers`);
  assert.equal(
    Object.keys(after).filter((key) => !(key in stateA)),
    ['assets/home-7d8e9f0a.js'],
    "the only other object is B's script, kept for B's pages still open",
  );
  const writes = calls.filter((call) => WRITES.test(call) && !call.includes('.site-gen/'));
  assert.equal(
    writes
      .filter((call) => call.startsWith('CopyObject'))
      .map((call) => call.slice('CopyObject '.length))
      .sort(),
    ['404.html', 'assets/home-3f9a1c2b.js', 'contact', 'contact/index.html', 'index.html'],
    'only what differs is copied back, server-side: no PutObject of the site',
  );
  assert.match(output, new RegExp(`Rolled back s3://${bucket}/ to release ${a.result.release}`));

  const index = await readIndex({
    client: h.client,
    bucket,
    prefix: '',
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
  });
  assert.is(index.live, a.result.release, 'the index marks A live');
  assert.not.ok(
    (await allKeys(bucket)).includes('.site-gen/lock.json'),
    'the lock is released when the rollback is done',
  );
});

releases(
  'after a rollback, every asset of the restored release and of the replaced one is served; the next deploy drops the latter',
  async () => {
    const bucket = await freshBucket();
    await deploySite(bucket, 'a', siteA(), { configureWebsite: true });
    await deploySite(bucket, 'b', siteB());
    await rollbackTo(bucket);
    for (const [path, body] of [
      ['assets/home-3f9a1c2b.js', siteA()['assets/home-3f9a1c2b.js']],
      ['assets/site-0a1b2c3d.css', siteA()['assets/site-0a1b2c3d.css']],
      ['assets/home-7d8e9f0a.js', siteB()['assets/home-7d8e9f0a.js']],
    ] as const) {
      assert.equal(await visit(bucket, path), { status: 200, body }, `${path} is served`);
    }
    assert.match((await visit(bucket, 'index.html')).body, 'Home A', 'the home page is A again');
    assert.is((await visit(bucket, 'pricing/index.html')).status, 404, "B's page is gone");

    await deploySite(bucket, 'c', siteC());
    assert.is((await visit(bucket, 'assets/home-C0C0C0C1.js')).status, 200);
    assert.is(
      (await visit(bucket, 'assets/home-3f9a1c2b.js')).status,
      200,
      "A's script stays one more deploy, as a deploy keeps the previous release's assets",
    );
    assert.is(
      (await visit(bucket, 'assets/home-7d8e9f0a.js')).status,
      404,
      "B's script, kept through the rollback, goes now",
    );
  },
);

releases('rollback --to restores a named release, and rolling forward again works too', async () => {
  const bucket = await freshBucket();
  await deploySite(bucket, 'a', siteA());
  const b = await deploySite(bucket, 'b', siteB());
  const stateB = await siteState(bucket);
  await deploySite(bucket, 'c', siteC());
  await rollbackTo(bucket, { to: b.result.release });
  const after = await siteState(bucket);
  for (const key of keysOf(siteB())) assert.is(after[key], stateB[key], `${key} is B's`);
  await rejects(
    () => rollbackTo(bucket, { to: '20200101-000000-dead' }),
    (error: unknown) => {
      assert.instance(error, UsageError);
      assert.match(
        (error as Error).message,
        /--to 20200101-000000-dead: no such release in s3:\/\/releases-\d+\/\. The kept ones are: /,
      );
      return true;
    },
  );
});

releases(
  "rolling forward after a rollback restores the newer release byte for byte (a copy's ETag is not trusted)",
  async () => {
    const bucket = await freshBucket();
    await deploySite(bucket, 'a', siteA());
    const b = await deploySite(bucket, 'b', siteB());
    const stateB = await siteState(bucket);
    await rollbackTo(bucket);
    // s3rver answers a copy with replaced headers with the ETag of the body it overwrote, as the listing does after;
    // S3 with SSE-KMS answers one that is no MD5: the manifest must record the body the restore copied.
    const { result } = await rollbackTo(bucket, { to: b.result.release });
    assert.is(result.listed, false, 'planned from the records');
    assert.equal(await siteState(bucket), stateB, "every object is B's again, body and headers");
    const { result: again } = await rollbackTo(bucket, { to: b.result.release });
    assert.is(again.plan.restores.length, 0, 'and a second roll forward finds nothing to do');
    // The same from a listing, where s3rver names the restored page by the body it overwrote.
    await rollbackTo(bucket);
    const { result: listed } = await rollbackTo(bucket, { to: b.result.release, verify: true });
    assert.is(listed.listed, true);
    assert.equal(await siteState(bucket), stateB, "with --verify too, every object is B's again");
  },
);

releases('a deploy after a rollback records the restored bodies, so its own release can be restored', async () => {
  const bucket = await freshBucket();
  await deploySite(bucket, 'a', siteA());
  await deploySite(bucket, 'b', siteB());
  await rollbackTo(bucket);
  // A again with one more file: A's restored pages are unchanged and recorded in this release as they are.
  const a2 = await deploySite(bucket, 'a2', { ...siteA(), 'humans.txt': 'ann\n' });
  const stateA2 = await siteState(bucket);
  await deploySite(bucket, 'b2', siteB());
  await rollbackTo(bucket, { to: a2.result.release });
  assert.equal(
    await siteState(bucket),
    {
      ...stateA2,
      'assets/home-7d8e9f0a.js': (await siteState(bucket))['assets/home-7d8e9f0a.js'],
    },
    "every object is A2's, body and headers (B's script kept for its open pages)",
  );
});

releases('rollback --dry-run prints the plan and changes nothing', async () => {
  const bucket = await freshBucket();
  await deploySite(bucket, 'a', siteA());
  await deploySite(bucket, 'b', siteB());
  const listing = async () =>
    ((await h.client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map(
      (item) => `${item.Key} ${item.ETag} ${item.LastModified?.toISOString()}`,
    );
  const before = await listing();
  const { output, result } = await rollbackTo(bucket, { dryRun: true });
  assert.equal(
    h.calls.filter((call) => WRITES.test(call)),
    [],
    'no write request, not even the lock',
  );
  assert.equal(await listing(), before, 'every object as it was');
  assert.match(output, /^Dry run: nothing will be changed in s3:\/\/releases-\d+\/\./);
  assert.match(output, /restore {2}index\.html {2}\(from its kept copy\)/);
  assert.match(output, /delete {3}pricing\/index\.html/);
  assert.match(output, /keep {5}assets\/home-7d8e9f0a\.js/);
  assert.is(result.dryRun, true);
});

releases('two deploys started at the same moment: one refuses naming the other, the bucket is the winner', async () => {
  const bucket = await freshBucket();
  const outX = join(h.tmp, `${bucket}-x`);
  const outY = join(h.tmp, `${bucket}-y`);
  await writeSite(outX, siteA());
  await writeSite(outY, siteB());
  const lock = { leaseMs: 60_000, settleMs: 200 };
  const runs = await Promise.allSettled(
    [outX, outY].map((out) => deploy(testDeployOptions(h.client, bucket, out, () => {}, { lock }))),
  );
  const refused = runs.filter((run) => run.status === 'rejected');
  assert.is(refused.length, 1, 'exactly one refuses');
  const error = (refused[0] as PromiseRejectedResult).reason as LockedError;
  assert.instance(error, LockedError);
  assert.is(error.exitCode, EXIT_LOCKED);
  assert.match(error.message, /is locked by a deploy by [^@\s]+@[^,\s]+, started \d{4}-\d\d-\d\dT/, error.message);
  assert.match(error.message, /wait for it to finish and run this command again/);
  const winner = runs[0]!.status === 'fulfilled' ? siteA() : siteB();
  const state = await siteState(bucket);
  const expected = Object.keys(winner).flatMap((path) =>
    path.endsWith('/index.html') ? [path, path.slice(0, -11)] : [path],
  );
  assert.equal(Object.keys(state).sort(), expected.sort(), "the bucket holds the winner's files and nothing else");
  for (const [path, content] of Object.entries(winner)) {
    assert.is(state[path]!.split(' ')[0], createHash('md5').update(content).digest('hex'), `${path} is the winner's`);
  }
});

releases(
  'a lock held by a live run refuses at once with the holder and what to do; --force-unlock proceeds',
  async () => {
    const bucket = await freshBucket();
    const startedAt = new Date(Date.now() - 120_000).toISOString();
    await putLock(bucket, {
      host: 'runner-7',
      user: 'ci',
      ci: 'GitHub Actions job deploy (https://github.com/acme/site/actions/runs/42)',
      startedAt,
      renewedAt: new Date().toISOString(),
      leaseMs: 300_000,
    });
    const started = performance.now();
    await rejects(
      () => deploySite(bucket, 'a', siteA()),
      (error: unknown) => {
        assert.instance(error, LockedError);
        const message = (error as Error).message;
        assert.match(
          message,
          `is locked by a deploy by ci@runner-7, GitHub Actions job deploy (https://github.com/acme/site/actions/runs/42), started ${startedAt} (2 min 0 s ago)`,
        );
        assert.match(message, /--force-unlock/);
        return true;
      },
    );
    assert.ok(performance.now() - started < 5000, 'refused at once, without waiting for the lease');
    assert.equal(await allKeys(bucket), ['.site-gen/lock.json'], 'nothing was changed');

    const { output } = await deploySite(bucket, 'a', siteA(), { forceUnlock: true });
    assert.match(output, /warning: --force-unlock: removed the lock of s3:\/\/releases-\d+\/ held by ci@runner-7/);
    assert.ok((await allKeys(bucket)).includes('index.html'), 'the deploy went ahead');
    assert.not.ok((await allKeys(bucket)).includes('.site-gen/lock.json'), 'and released its own lock');
  },
);

releases('a lock not renewed within its lease (a crashed run) is taken over with a warning', async () => {
  const bucket = await freshBucket();
  const long = new Date(Date.now() - 3_600_000).toISOString();
  await putLock(bucket, { host: 'laptop', user: 'ann', startedAt: long, renewedAt: long, leaseMs: 1 });
  // The store's own time of the write counts as a renewal too: let the 1 ms lease pass after it.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const { output } = await deploySite(bucket, 'a', siteA());
  assert.match(output, /warning: taking over the lock of s3:\/\/releases-\d+\/ from ann@laptop \(a deploy started /);
  assert.ok((await allKeys(bucket)).includes('index.html'));
  assert.not.ok((await allKeys(bucket)).includes('.site-gen/lock.json'));
});

/** The plan's restores (key from source) and deletes, to compare two plans. */
const planOf = (result: Awaited<ReturnType<typeof rollback>>) => ({
  restores: result.plan.restores.map((restore) => `${restore.key} from ${restore.source}`),
  deletes: result.plan.deletes,
  retained: result.plan.retained.map((retained) => retained.key),
});

releases('rollback --verify lists the bucket and plans what the records plan', async () => {
  const bucket = await freshBucket();
  await deploySite(bucket, 'a', siteA());
  await deploySite(bucket, 'b', siteB());
  const recorded = await rollbackTo(bucket, { dryRun: true });
  assert.equal(
    h.calls.filter((call) => call.startsWith('ListObjects')),
    [],
    'the dry run does not list either',
  );
  const verified = await rollbackTo(bucket, { dryRun: true, verify: true });
  assert.ok(
    h.calls.some((call) => call.startsWith('ListObjects')),
    '--verify lists the bucket',
  );
  assert.is(verified.result.listed, true);
  assert.is(verified.result.fallback, undefined, 'and says no more: it was asked for');
  assert.equal(planOf(recorded.result), planOf(verified.result), 'the same plan either way');
  const stateA = await siteState(bucket);
  await rollbackTo(bucket, { verify: true });
  assert.ok(h.calls.some((call) => call.startsWith('ListObjects')));
  assert.not.equal(await siteState(bucket), stateA, 'rolled back');
});

releases(
  'a deploy that died mid-way is marked unfinished: the rollback lists the bucket and restores all it changed',
  async () => {
    const bucket = await freshBucket();
    const a = await deploySite(bucket, 'a', siteA());
    const stateA = await siteState(bucket);
    await deploySite(bucket, 'b', siteB());
    const a2 = await deploySite(bucket, 'a2', siteA());
    // C dies at its home page: its assets and other files are uploaded, its manifest and release never written.
    const failing = h.server.client();
    failing.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PutObjectCommand' && (args.input as { Key?: string }).Key === 'index.html') {
          throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
        }
        return next(args);
      },
      { step: 'initialize', name: 'denyIndex' },
    );
    const out = join(h.tmp, `${bucket}-c`);
    await writeSite(out, siteC());
    try {
      await rejects(() => deploy(testDeployOptions(failing, bucket, out, () => {})), DeployError);
    } finally {
      failing.destroy();
    }
    const context = { client: h.client, bucket, prefix: '', retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } };
    assert.is((await readIndex(context)).pending?.command, 'deploy', 'the index says a deploy did not finish');

    const { result, output } = await rollbackTo(bucket, { to: a.result.release });
    assert.is(result.listed, true);
    assert.match(result.fallback ?? '', /^a deploy by .+ started at .+ did not finish/);
    assert.match(output, /note: a deploy by .+ did not finish, so the bucket may differ from its records; listing/);
    assert.ok(
      h.calls.some((call) => call.startsWith('ListObjects')),
      'the bucket is listed',
    );
    const after = await siteState(bucket);
    for (const [key, state] of Object.entries(stateA)) assert.is(after[key], state, `${key} is A's, C's upload undone`);
    assert.is((await readIndex(context)).pending, undefined, 'the rollback cleared the mark');
    await rollbackTo(bucket, { dryRun: true, to: a2.result.release });
    assert.equal(
      h.calls.filter((call) => call.startsWith('ListObjects')),
      [],
      'so the next one trusts the records',
    );
  },
);

releases(
  'a rollback that died mid-way is marked unfinished too: the next one lists the bucket and finishes',
  async () => {
    const bucket = await freshBucket();
    await deploySite(bucket, 'a', siteA());
    const stateA = await siteState(bucket);
    await deploySite(bucket, 'b', siteB());
    const failing = h.server.client();
    failing.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'CopyObjectCommand' && (args.input as { Key?: string }).Key === 'index.html') {
          throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
        }
        return next(args);
      },
      { step: 'initialize', name: 'denyIndex' },
    );
    try {
      await rejects(
        () => rollbackTo(bucket, { client: failing }),
        /Could not restore s3:\/\/releases-\d+\/index\.html/,
      );
    } finally {
      failing.destroy();
    }
    const { result } = await rollbackTo(bucket);
    assert.match(result.fallback ?? '', /^a rollback by .+ did not finish/);
    assert.ok(
      h.calls.some((call) => call.startsWith('ListObjects')),
      'the bucket is listed',
    );
    const after = await siteState(bucket);
    for (const [key, state] of Object.entries(stateA)) assert.is(after[key], state, `${key} is A's`);
    assert.not.ok(after['pricing/index.html'], "B's page is gone");
  },
);

releases('a manifest that names no release (an older site-gen deployed since): the rollback lists', async () => {
  const bucket = await freshBucket();
  await deploySite(bucket, 'a', siteA());
  await deploySite(bucket, 'b', siteB());
  const key = '.site-gen/deploy-manifest.json';
  const text = await (
    await h.client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))
  ).Body!.transformToString();
  const { release: _, ...older } = JSON.parse(text) as Record<string, unknown>;
  await h.client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify(older) }));
  const { result } = await rollbackTo(bucket, { dryRun: true });
  assert.match(result.fallback ?? '', /^the deploy manifest names no release, not the live release \d{8}-/);
  assert.ok(
    h.calls.some((call) => call.startsWith('ListObjects')),
    'the bucket is listed',
  );
});

releases('the lock is released when a deploy fails', async () => {
  const bucket = await freshBucket();
  const failing = h.server.client();
  failing.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'PutObjectCommand' && (args.input as { Key?: string }).Key === 'index.html') {
        throw Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
      }
      return next(args);
    },
    { step: 'initialize', name: 'denyIndex' },
  );
  const out = join(h.tmp, `${bucket}-fail`);
  await writeSite(out, siteA());
  try {
    await rejects(() => deploy(testDeployOptions(failing, bucket, out, () => {})), DeployError);
  } finally {
    failing.destroy();
  }
  assert.not.ok((await allKeys(bucket)).includes('.site-gen/lock.json'), 'no lock left behind');
  await deploySite(bucket, 'a', siteA());
});

/** A client to the same server that, once `down()` says so, fails every request as a server that went away does. */
function failingOnce(down: (command: string, key: string) => boolean): S3Client {
  const client = h.server.client();
  let gone = false;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context.commandName ?? '').replace(/Command$/, '');
      const key = (args.input as { Key?: string }).Key ?? '';
      gone ||= down(command, key);
      if (gone) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED' });
      return next(args);
    },
    { step: 'initialize', name: 'goDown' },
  );
  return client;
}

const LEFT_LOCK =
  /The deploy lock s3:\/\/releases-\d+\/\.site-gen\/lock\.json may still be there \(.+\): until it lapses at \d{4}-\d\d-\d\dT[\d:.]+Z \((1 min 0 s|\d\d\.\d s) from now\), the same command is refused with exit code 4\. To run it again sooner, add --force-unlock/;

releases('S3 going down mid-deploy: the failure says the lock is left, until when, and how to go on', async () => {
  const bucket = await freshBucket();
  const out = join(h.tmp, `${bucket}-down`);
  await writeSite(out, siteA());
  const client = failingOnce((command, key) => command === 'PutObject' && key === 'index.html');
  try {
    await rejects(
      () => deploy(testDeployOptions(client, bucket, out, () => {})),
      (error: unknown) => {
        assert.instance(error, DeployError);
        const message = (error as Error).message;
        assert.match(message, /Run the same command again to finish/);
        assert.match(message, LEFT_LOCK, message);
        return true;
      },
    );
  } finally {
    client.destroy();
  }
  assert.ok((await allKeys(bucket)).includes('.site-gen/lock.json'), 'the lock is indeed left');
  await rejects(() => deploySite(bucket, 'again', siteA()), LockedError);
  const { output } = await deploySite(bucket, 'forced', siteA(), { forceUnlock: true });
  assert.match(output, /removed the lock/, 'the way on the message gave works');
});

releases('S3 going down as the lock is read back: the lock left behind is said too', async () => {
  const bucket = await freshBucket();
  const out = join(h.tmp, `${bucket}-down`);
  await writeSite(out, siteA());
  let written = false;
  const client = failingOnce((command, key) => {
    const down = written && key === '.site-gen/lock.json';
    written ||= command === 'PutObject' && key === '.site-gen/lock.json';
    return down;
  });
  try {
    await rejects(
      () => deploy(testDeployOptions(client, bucket, out, () => {})),
      (error: unknown) => {
        const message = (error as Error).message;
        assert.match(message, /^Could not read s3:\/\/releases-\d+\/\.site-gen\/lock\.json: /, message);
        assert.match(message, LEFT_LOCK, message);
        return true;
      },
    );
  } finally {
    client.destroy();
  }
  assert.equal(await allKeys(bucket), ['.site-gen/lock.json'], 'nothing but the lock was written');
});

releases("a lock left by one's own run whose process is gone: the refusal says so and how to go on", async () => {
  const bucket = await freshBucket();
  const dead = spawnSync(process.execPath, ['-e', '']).pid!;
  const now = new Date().toISOString();
  const me = whoAmI();
  await putLock(bucket, { host: me.host, user: me.user, pid: dead, startedAt: now, renewedAt: now, leaseMs: 300_000 });
  await rejects(
    () => deploySite(bucket, 'a', siteA()),
    (error: unknown) => {
      assert.instance(error, LockedError, 'still refused: host and user alone do not prove it is ours');
      assert.match(
        (error as Error).message,
        `a run of yours on this machine whose process (pid ${dead}) is no longer running`,
      );
      assert.match((error as Error).message, /run this command again with --force-unlock to remove it now/);
      return true;
    },
  );
  await putLock(bucket, {
    host: 'elsewhere',
    user: me.user,
    pid: dead,
    startedAt: now,
    renewedAt: now,
    leaseMs: 300_000,
  });
  await rejects(
    () => deploySite(bucket, 'a', siteA()),
    (error: unknown) => {
      assert.not.match((error as Error).message, /a run of yours/, 'another host: nothing is known of its process');
      return true;
    },
  );
});

releases('keepReleases: only the newest releases are kept, and only the copies they need', async () => {
  const bucket = await freshBucket();
  const ids: string[] = [];
  const sites = [siteA(), siteB(), siteC(), { ...siteC(), 'index.html': page('Home D', 'home-C0C0C0C1.js') }];
  for (const [n, files] of sites.entries()) {
    ids.push((await deploySite(bucket, `v${n}`, files, { keepReleases: 2 })).result.release!);
  }
  const context = { client: h.client, bucket, prefix: '', retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } };
  const index = await readIndex(context);
  assert.equal(
    index.releases.map((release) => release.id),
    ids.slice(2),
    'the newest two, in the order they were made',
  );
  assert.equal(
    await allKeys(bucket, '.site-gen/releases/'),
    ids
      .slice(2)
      .map((id) => `.site-gen/releases/${id}.json`)
      .sort(),
    'the records of the others are deleted',
  );
  const needed = new Set(Object.values((await readRecord(context, ids[2]!)).objects).map((state) => state.etag));
  const kept = (await allKeys(bucket, '.site-gen/kept/')).map((key) => key.slice('.site-gen/kept/'.length));
  assert.ok(kept.length > 0, 'the older kept release has copies');
  assert.ok(
    kept.every((etag) => needed.has(etag)),
    'every kept copy is needed by the release that is not live',
  );
  await rejects(() => rollbackTo(bucket, { to: ids[0] }), /no such release/);
  await rollbackTo(bucket);
  assert.match(
    (await siteState(bucket))['index.html']!,
    createHash('md5').update(siteC()['index.html']!).digest('hex'),
  );
});

releases('`releases` lists the kept ones newest first, the live one marked', async () => {
  const bucket = await freshBucket();
  const a = await deploySite(bucket, 'a', siteA(), { git: { commit: 'a'.repeat(40), branch: 'main' } });
  const b = await deploySite(bucket, 'b', siteB(), { git: { commit: 'b'.repeat(40), branch: 'main' } });
  await rollbackTo(bucket);
  let output = '';
  await listReleases({
    bucket,
    prefix: '',
    json: false,
    client: h.client,
    output: { write: (chunk: string) => void (output += chunk) },
  });
  const lines = output.split('\n');
  assert.match(lines[0]!, /^Releases of s3:\/\/releases-\d+\/, newest first \(\* live\):$/);
  assert.match(
    lines[1]!,
    new RegExp(`^  ${b.result.release}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  bbbbbbbbbbbb main  10 files, `),
  );
  assert.match(lines[2]!, new RegExp(`^\\* ${a.result.release}  .* aaaaaaaaaaaa main  8 files, `));
});

releases(
  'CloudFront behind an origin path: the paths are those visitors request, for a deploy and a rollback',
  async () => {
    const bucket = await freshBucket();
    h.cdn.reset();
    h.cdn.set({ originPaths: { [DISTRIBUTION]: '/site' } });
    const cloudfront: CloudFrontOptions = {
      distribution: DISTRIBUTION,
      maxPaths: 100,
      wait: false,
      client: h.cdnClient,
    };
    await deploySite(bucket, 'a', siteA(), { prefix: 'site/', cloudfront });
    h.cdn.reset();
    await deploySite(bucket, 'b', siteB(), { prefix: 'site/', cloudfront });
    assert.equal(h.cdn.invalidations[0]!.paths, [
      '/',
      '/404.html',
      '/contact',
      '/contact/',
      '/contact/index.html',
      '/index.html',
      '/pricing',
      '/pricing/',
      '/pricing/index.html',
    ]);
    assert.is(h.cdn.configReads.length, 1, 'the origin path is read from the distribution');
    h.cdn.reset();
    await rollbackTo(bucket, { prefix: 'site/', cloudfront });
    assert.equal(
      h.cdn.invalidations[0]!.paths,
      h.cdn.invalidations[0]!.paths.filter((path) => !path.startsWith('/site')),
    );
    assert.ok(h.cdn.invalidations[0]!.paths.includes('/pricing/'), 'the deleted page, at its address');
    assert.ok(h.cdn.invalidations[0]!.paths.includes('/'), 'the restored home page');

    h.cdn.set({ originPaths: { [DISTRIBUTION]: '/other' } });
    const before = await allKeys(bucket);
    await rejects(
      () => deploySite(bucket, 'c', siteC(), { prefix: 'site/', cloudfront }),
      /serves s3:\/\/releases-\d+\/other\/ \(its origin path is "\/other"\), but this deploy writes to s3:\/\/releases-\d+\/site\/: its visitors would never see it/,
    );
    assert.equal(await allKeys(bucket), before, 'nothing was changed');
    h.cdn.set({ originPaths: {} });
  },
);

releases.run();
