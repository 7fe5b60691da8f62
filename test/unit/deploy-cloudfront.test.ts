// CloudFront after a deploy: which paths, one batch, the wildcard, the no-op, --wait, --dry-run and the errors, against
// s3rver and a local stand-in for the CloudFront API.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { deploy } from '../../src/deploy/deploy.ts';
import { addressesOf, invalidationFor } from '../../src/deploy/invalidation.ts';
import type { CloudFrontOptions, DeployOptions } from '../../src/deploy/options.ts';
import { resolveDeployOptions } from '../../src/deploy/options.ts';
import type { Plan } from '../../src/deploy/plan.ts';
import type { Target } from '../../src/deploy/targets.ts';
import { looksHashed } from '../../src/core/http/policy.ts';
import { CdnError, EXIT_CDN_NOT_INVALIDATED, UsageError } from '../../src/core/errors.ts';
import { startCloudFrontStandIn, type CloudFrontStandIn } from '../helpers/cloudfront.ts';
import { S3RVER_CREDENTIALS, startS3rver, testDeployOptions, type S3rverHandle } from '../helpers/s3rver.ts';

const DISTRIBUTION = 'E2TESTDIST0001';
const CONTACT_PATHS = ['/contact', '/contact/', '/contact/index.html'];

// ---------------------------------------------------------------------------------------------------------------
// The paths, from a plan alone

function target(path: string, prefix = ''): Target {
  return {
    key: prefix + path,
    path,
    absolutePath: `/dist/${path}`,
    size: 1,
    md5: '0'.repeat(32),
    contentType: 'text/html; charset=utf-8',
    cacheControl: 'public, max-age=0, must-revalidate',
    encoding: 'identity',
    // As the HTTP policy decides it from the build's list: here, by name.
    phase: looksHashed(path) ? 'hashed-assets' : 'pages',
    alias: false,
  };
}

function planOf(uploads: string[], deletes: string[] = [], prefix = ''): Plan {
  return {
    prefix,
    manifestKey: `${prefix}.site-gen/deploy-manifest.json`,
    uploads: uploads.map((path) => ({ target: target(path, prefix), reason: 'content' as const })),
    unchanged: [],
    deletes: deletes.map((path) => prefix + path),
    retained: [],
    generation: 2,
    uploadBytes: 0,
    previous: { version: 1, generation: 1, deployedAt: '', objects: {}, retired: {} },
  };
}

const paths = suite('invalidation paths');

paths('a page is invalidated under every address a visitor can request', () => {
  assert.equal(addressesOf('contact/index.html', ''), CONTACT_PATHS);
  assert.equal(addressesOf('index.html', ''), ['/', '/index.html'], 'the home page as / and /index.html');
  assert.equal(addressesOf('favicon.svg', ''), ['/favicon.svg'], 'any other file under its own address');
  assert.equal(
    addressesOf('docs/a b/index.html', ''),
    ['/docs/a%20b', '/docs/a%20b/', '/docs/a%20b/index.html'],
    'encoded as browsers request them',
  );
});

paths('the addresses carry the deploy prefix', () => {
  assert.equal(addressesOf('contact/index.html', 'v2/'), ['/v2/contact', '/v2/contact/', '/v2/contact/index.html']);
  assert.equal(addressesOf('index.html', 'v2/'), ['/v2/', '/v2/index.html']);
});

paths('a changed page and its alias make one set of paths; hashed assets never appear', () => {
  const plan = planOf(['assets/contact-AB12CD34.js', 'contact/index.html', 'assets/chunks/react-QQBUTPOS.js']);
  // The alias "contact" is stored from the same local file.
  plan.uploads.push({ target: { ...target('contact/index.html'), key: 'contact', alias: true }, reason: 'content' });
  assert.equal(invalidationFor(plan, 100), { paths: CONTACT_PATHS, addresses: 3, wildcard: false });
});

paths('a deleted page is invalidated under its addresses, its alias once, a deleted old asset never', () => {
  const plan = planOf([], ['about', 'about/index.html', 'assets/about-3f9a1c2b.js', 'robots.txt']);
  assert.equal(invalidationFor(plan, 100).paths, ['/about', '/about/', '/about/index.html', '/robots.txt']);
});

paths('over the limit, one wildcard for the prefix; at the limit, the paths themselves', () => {
  const plan = planOf(['index.html', 'contact/index.html']);
  assert.equal(invalidationFor(plan, 5), {
    paths: ['/', '/contact', '/contact/', '/contact/index.html', '/index.html'],
    addresses: 5,
    wildcard: false,
  });
  assert.equal(invalidationFor(plan, 4), { paths: ['/*'], addresses: 5, wildcard: true });
  assert.equal(
    invalidationFor(planOf(['index.html', 'contact/index.html'], [], 'v2/'), 4).paths,
    ['/v2/*'],
    'the wildcard stays inside the prefix',
  );
});

paths('nothing uploaded or deleted: nothing to invalidate', () => {
  assert.equal(invalidationFor(planOf([]), 100), { paths: [], addresses: 0, wildcard: false });
  assert.equal(
    invalidationFor(planOf(['assets/home-3f9a1c2b.js']), 100).paths,
    [],
    'a new hashed asset alone changes no address',
  );
});

paths.run();

// ---------------------------------------------------------------------------------------------------------------
// The options

const options = suite('CloudFront options');

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.instance(error, UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

options('takes the distribution and limit from deploy.cloudfront, flags first', () => {
  const config = {
    prefix: '',
    maxDeletes: 256,
    concurrency: 8,
    gzip: false,
    cloudfront: { distribution: 'E1CONFIG', maxPaths: 40 },
  };
  const fromConfig = resolveDeployOptions({ bucket: 'site' }, config, '/p').cloudfront;
  assert.equal(fromConfig, { distribution: 'E1CONFIG', endpoint: undefined, maxPaths: 40, wait: false });
  const fromFlags = resolveDeployOptions(
    {
      bucket: 'site',
      cloudfrontDistribution: 'E2FLAG',
      cloudfrontMaxPaths: '7',
      cloudfrontEndpoint: 'http://127.0.0.1:4450',
      wait: true,
    },
    config,
    '/p',
  ).cloudfront;
  assert.equal(fromFlags, { distribution: 'E2FLAG', endpoint: 'http://127.0.0.1:4450', maxPaths: 7, wait: true });
  assert.is(
    resolveDeployOptions({ bucket: 'site' }, undefined, '/p').cloudfront,
    undefined,
    'no distribution, no CDN step',
  );
  assert.is(
    resolveDeployOptions({ bucket: 'site', cloudfrontDistribution: 'E3' }, undefined, '/p').cloudfront?.maxPaths,
    100,
    'default limit 100',
  );
});

options('refuses a malformed ID, a limit outside 1 to 3000, and CloudFront flags without a distribution', () => {
  assert.match(
    usageMessage(() =>
      resolveDeployOptions(
        { bucket: 'site', cloudfrontDistribution: 'd111111abcdef8.cloudfront.net' },
        undefined,
        '/p',
      ),
    ),
    '--cloudfront-distribution "d111111abcdef8.cloudfront.net" is not a CloudFront distribution ID',
  );
  assert.match(
    usageMessage(() =>
      resolveDeployOptions(
        { bucket: 'site', cloudfrontDistribution: 'E1', cloudfrontMaxPaths: '3001' },
        undefined,
        '/p',
      ),
    ),
    '--cloudfront-max-paths 3001 is not valid: give a whole number from 1 to 3000.',
  );
  assert.match(
    usageMessage(() => resolveDeployOptions({ bucket: 'site', wait: true }, undefined, '/p')),
    '--wait needs a CloudFront distribution',
  );
  assert.match(
    usageMessage(() =>
      resolveDeployOptions(
        { bucket: 'site', cloudfrontDistribution: 'E1', cloudfrontEndpoint: 'localhost:1' },
        undefined,
        '/p',
      ),
    ),
    '--cloudfront-endpoint "localhost:1" is not an http(s) URL',
  );
});

options.run();

// ---------------------------------------------------------------------------------------------------------------
// Deploys against s3rver and the stand-in

const page = (title: string, script: string) =>
  `<!doctype html><html><head><title>${title}</title><script type="module" src="/assets/${script}"></script></head><body><h1>${title}</h1></body></html>`;

function site(contact = 'Contact', contactScript = 'contact-AB12CD34.js'): Record<string, string> {
  return {
    'index.html': page('Home', 'home-3f9a1c2b.js'),
    'contact/index.html': page(contact, contactScript),
    '404.html': page('Not found', 'home-3f9a1c2b.js'),
    'assets/home-3f9a1c2b.js': 'console.log("home")',
    [`assets/${contactScript}`]: `console.log(${JSON.stringify(contact)})`,
    'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
    'robots.txt': 'User-agent: *\nAllow: /\n',
  };
}

async function writeSite(dir: string, files: Record<string, string>): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

const h = {} as {
  s3: S3rverHandle;
  client: S3Client;
  cdn: CloudFrontStandIn;
  cdnClient: CloudFrontClient;
  tmp: string;
};
let buckets = 0;

async function freshBucket(): Promise<{ bucket: string; out: string }> {
  buckets += 1;
  const bucket = `cdn-${buckets}`;
  await h.client.send(new CreateBucketCommand({ Bucket: bucket }));
  const out = join(h.tmp, bucket);
  await writeSite(out, site());
  return { bucket, out };
}

async function run(
  bucket: string,
  out: string,
  cloudfront: Partial<CloudFrontOptions> = {},
  extra: Partial<DeployOptions> = {},
) {
  let output = '';
  const result = await deploy(
    testDeployOptions(h.client, bucket, out, (chunk) => void (output += chunk), {
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
      cloudfront: {
        distribution: DISTRIBUTION,
        maxPaths: 100,
        wait: false,
        client: h.cdnClient,
        waitPolicy: { firstDelayMs: 5, maxDelayMs: 20, timeoutMs: 10_000 },
        ...cloudfront,
      },
      ...extra,
    }),
  );
  return { result, output };
}

/** A deploy that must fail; the error it failed with and what it printed before. */
async function failing(bucket: string, out: string, cloudfront: Partial<CloudFrontOptions> = {}) {
  let output = '';
  try {
    await run(bucket, out, cloudfront, { output: { write: (chunk: string) => void (output += chunk) } });
  } catch (error) {
    return { error: error as CdnError, output };
  }
  throw new Error('expected the deploy to fail');
}

async function keys(bucket: string): Promise<string[]> {
  const listing = await h.client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (listing.Contents ?? []).map((item) => item.Key!).sort();
}

const cdn = suite('deploy with a CloudFront distribution (s3rver + CloudFront stand-in)');

cdn.before(async () => {
  h.tmp = await mkdtemp(join(tmpdir(), 'site-gen-cdn-'));
  h.s3 = await startS3rver();
  h.client = h.s3.client();
  h.cdn = await startCloudFrontStandIn({ distributions: [DISTRIBUTION] });
  h.cdnClient = new CloudFrontClient({
    region: 'us-east-1',
    endpoint: h.cdn.endpoint,
    credentials: S3RVER_CREDENTIALS,
    maxAttempts: 1,
  });
});

cdn.before.each(() => {
  h.cdn.set({ distributions: [DISTRIBUTION], denied: [], throttle: 0, pollsInProgress: 0 });
  h.cdn.reset();
});

cdn.after(async () => {
  h.cdnClient.destroy();
  await h.cdn.close();
  await h.s3.dispose();
  await rm(h.tmp, { recursive: true, force: true });
});

cdn(
  "a one-page change invalidates exactly that page's addresses, in one request, never its new hashed script",
  async () => {
    const { bucket, out } = await freshBucket();
    await run(bucket, out);
    h.cdn.reset();
    await writeSite(out, site('Contact us', 'contact-ZZ34YY56.js'));

    const { result, output } = await run(bucket, out);
    assert.is(h.cdn.requests.length, 1, 'one CreateInvalidation request');
    assert.is(h.cdn.requests[0]!.method, 'POST');
    assert.is(h.cdn.requests[0]!.path, `/2020-05-31/distribution/${DISTRIBUTION}/invalidation`);
    assert.equal(h.cdn.invalidations[0]!.paths, CONTACT_PATHS);
    assert.equal(result.invalidation?.paths, CONTACT_PATHS);
    assert.is(result.invalidation?.status, 'InProgress', 'without --wait the deploy does not wait');
    assert.match(
      output,
      /Deployed to s3:\/\/cdn-\d+\/: 3 uploaded[\s\S]*\nInvalidated 3 paths of the CloudFront distribution E2TESTDIST0001 \(invalidation I\d{13}\): in progress/,
    );
    assert.match(
      h.cdn.requests[0]!.authorization,
      /Credential=S3RVER\/\d{8}\/us-east-1\/cloudfront\/aws4_request/,
      'signed by the credentials S3 uses',
    );
  },
);

cdn('a first deploy invalidates every page and file but no hashed asset', async () => {
  const { bucket, out } = await freshBucket();
  await run(bucket, out);
  assert.equal(h.cdn.invalidations[0]!.paths, [
    '/',
    '/404.html',
    ...CONTACT_PATHS,
    '/favicon.svg',
    '/index.html',
    '/robots.txt',
  ]);
});

cdn('a no-op deploy sends no invalidation and says so', async () => {
  const { bucket, out } = await freshBucket();
  await run(bucket, out);
  h.cdn.reset();
  const { result, output } = await run(bucket, out);
  assert.is(h.cdn.requests.length, 0, 'no request to CloudFront');
  assert.is(result.invalidation, undefined);
  assert.match(
    output,
    /Nothing to invalidate in the CloudFront distribution E2TESTDIST0001: no page or file a visitor requests changed\./,
  );
});

cdn('a deleted page is invalidated; more paths than the limit make one wildcard', async () => {
  const { bucket, out } = await freshBucket();
  await run(bucket, out);
  h.cdn.reset();
  const files = site();
  delete files['contact/index.html'];
  await writeSite(out, files);
  await run(bucket, out, { maxPaths: 2 });
  assert.equal(h.cdn.invalidations[0]!.paths, ['/*'], '3 addresses over a limit of 2');
  assert.not.ok((await keys(bucket)).includes('contact/index.html'), 'the page is deleted from S3');

  await writeSite(out, site());
  h.cdn.reset();
  await run(bucket, out, { maxPaths: 3 });
  assert.equal(h.cdn.invalidations[0]!.paths, CONTACT_PATHS, 'at the limit, the paths themselves');
});

cdn('with a prefix the paths and the wildcard are under it', async () => {
  const { bucket, out } = await freshBucket();
  await run(bucket, out, {}, { prefix: 'v2/' });
  assert.ok(h.cdn.invalidations[0]!.paths.includes('/v2/contact/'));
  assert.ok(h.cdn.invalidations[0]!.paths.every((path) => path.startsWith('/v2/')));
  await writeSite(out, site('Contact v3', 'contact-ZZ34YY56.js'));
  h.cdn.reset();
  await run(bucket, out, { maxPaths: 1 }, { prefix: 'v2/' });
  assert.equal(h.cdn.invalidations[0]!.paths, ['/v2/*']);
});

cdn('--wait polls GetInvalidation until Completed and shows the wait on the progress display', async () => {
  const { bucket, out } = await freshBucket();
  h.cdn.set({ pollsInProgress: 2 });
  const { result, output } = await run(bucket, out, { wait: true });
  const polls = h.cdn.requests.filter((request) => request.method === 'GET');
  assert.is(polls.length, 3, 'InProgress twice, then Completed');
  const id = h.cdn.invalidations[0]!.id;
  assert.is(polls[0]!.path, `/2020-05-31/distribution/${DISTRIBUTION}/invalidation/${id}`);
  assert.is(result.invalidation?.status, 'Completed');
  assert.is(
    output.match(new RegExp(`^CloudFront invalidation ${id}: in progress, \\d+ ms$`, 'gm'))?.length,
    3,
    'one progress line per look (CI log mode)',
  );
  assert.match(output, new RegExp(`\\(invalidation ${id}\\): completed in \\d+ ms\\.\\n$`));
});

cdn('--wait on a terminal redraws one status line in place', async () => {
  const { bucket, out } = await freshBucket();
  h.cdn.set({ pollsInProgress: 1 });
  let output = '';
  await run(
    bucket,
    out,
    { wait: true },
    { output: { write: (chunk: string) => void (output += chunk), isTTY: true, columns: 100 } },
  );
  assert.match(
    output,
    /\r\x1b\[2KCloudFront invalidation I\d{13}: in progress, \d+ ms\r\x1b\[2KCloudFront invalidation/,
  );
  assert.match(
    output,
    /\r\x1b\[2KInvalidated 8 paths of the CloudFront distribution/,
    'the status line is cleared before the result',
  );
});

cdn('--dry-run prints the paths and sends nothing to S3 or CloudFront', async () => {
  const { bucket, out } = await freshBucket();
  await run(bucket, out);
  h.cdn.reset();
  await writeSite(out, site('Contact us', 'contact-ZZ34YY56.js'));
  const { output } = await run(bucket, out, {}, { dryRun: true });
  assert.is(h.cdn.requests.length, 0);
  assert.match(
    output,
    'Then invalidate 3 paths of the CloudFront distribution E2TESTDIST0001:\n  invalidate /contact\n  invalidate /contact/\n  invalidate /contact/index.html\n',
  );
  assert.ok(
    (await keys(bucket)).includes('assets/contact-AB12CD34.js') &&
      !(await keys(bucket)).includes('assets/contact-ZZ34YY56.js'),
    'S3 untouched',
  );
  const { output: wildcard } = await run(bucket, out, { maxPaths: 2 }, { dryRun: true });
  assert.match(
    wildcard,
    'Then invalidate 1 path of the CloudFront distribution E2TESTDIST0001 (3 changed addresses, over --cloudfront-max-paths: one wildcard instead):\n  invalidate /*\n',
  );
});

cdn(
  'an unknown distribution: S3 is deployed, then one CdnError with exit code 3 and the command to run by hand',
  async () => {
    const { bucket, out } = await freshBucket();
    const { error, output } = await failing(bucket, out, { distribution: 'E404UNKNOWN' });
    assert.instance(error, CdnError);
    assert.is(error.exitCode, EXIT_CDN_NOT_INVALIDATED);
    assert.is(EXIT_CDN_NOT_INVALIDATED, 3);
    assert.match(output, /Deployed to s3:\/\/cdn-\d+\/: 8 uploaded/, 'the S3 summary came first');
    assert.ok((await keys(bucket)).includes('contact/index.html'), 'the files are on S3');
    assert.match(
      error.message,
      /^Deployed to s3:\/\/cdn-\d+\/, but the CloudFront distribution E404UNKNOWN was not invalidated: CloudFront has no distribution "E404UNKNOWN"/,
    );
    assert.match(error.message, 'check --cloudfront-distribution (or deploy.cloudfront.distribution)');
    assert.match(
      error.message,
      'aws cloudfront create-invalidation --distribution-id E404UNKNOWN --paths "/" "/404.html" "/contact"',
    );
    assert.is(h.cdn.requests.length, 1, 'a 404 is not retried');
  },
);

cdn('access denied: one clear message naming the permission, exit code 3', async () => {
  const { bucket, out } = await freshBucket();
  h.cdn.set({ denied: [DISTRIBUTION] });
  const { error } = await failing(bucket, out);
  assert.is(error.exitCode, 3);
  assert.match(
    error.message,
    `access denied to the CloudFront distribution "${DISTRIBUTION}"; the credentials need cloudfront:CreateInvalidation`,
  );
  assert.is(h.cdn.requests.length, 1, 'a 403 is not retried');
});

cdn('throttling is retried with the same caller reference; throttling through every retry is a CdnError', async () => {
  const { bucket, out } = await freshBucket();
  h.cdn.set({ throttle: 2 });
  const { result, output } = await run(bucket, out);
  assert.is(h.cdn.requests.length, 3, 'two throttled tries, then the one that worked');
  const references = h.cdn.requests.map(
    (request) => /<CallerReference>(.*?)<\/CallerReference>/.exec(request.body)?.[1],
  );
  assert.is(new Set(references).size, 1, 'one caller reference, so a retry cannot make two invalidations');
  assert.is(h.cdn.invalidations.length, 1);
  assert.ok(result.invalidation);
  assert.match(output, /retrying invalidating 8 paths in CloudFront in \d+ ms \(try 2\)/);

  await writeSite(out, site('Contact us', 'contact-ZZ34YY56.js'));
  h.cdn.set({ throttle: Infinity });
  const { error } = await failing(bucket, out);
  assert.is(error.exitCode, 3);
  assert.match(
    error.message,
    'was not invalidated: CloudFront refused the request as too frequent (Throttling: Rate exceeded)',
  );
});

cdn('--wait that cannot read the invalidation says it was created and exits 3', async () => {
  const { bucket, out } = await freshBucket();
  h.cdn.set({ pollsInProgress: 5 });
  // Allowed to create, then denied: the policy lacks cloudfront:GetInvalidation.
  const original = h.cdnClient.send.bind(h.cdnClient);
  let sent = 0;
  h.cdnClient.send = ((command: Parameters<typeof original>[0]) => {
    // The distribution's config is read first, before the deploy: not counted.
    if (command.constructor.name !== 'GetDistributionConfigCommand') sent += 1;
    if (sent === 2) h.cdn.set({ denied: [DISTRIBUTION] });
    return original(command);
  }) as typeof original;
  try {
    const { error } = await failing(bucket, out, { wait: true });
    assert.is(error.exitCode, 3);
    assert.match(
      error.message,
      /the CloudFront invalidation I\d{13} is created, but --wait could not follow it: access denied/,
    );
    assert.match(error.message, '--wait needs cloudfront:GetInvalidation');
  } finally {
    h.cdnClient.send = original;
  }
});

cdn.run();
