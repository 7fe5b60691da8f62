// The deploy command as a deployer runs it: a child process, credentials only in its environment.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startCloudFrontStandIn } from '../helpers/cloudfront.ts';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.ts';

const root = resolve('.');

// The command as bin/site-gen.js runs it: src/cli/main.ts prints the error once and chooses the exit code.
const RUNNER = `
import { main } from ${JSON.stringify(join(root, 'src/cli/main.ts'))};
process.exitCode = await main(['node', 'site-gen', ...process.argv.slice(1)]);
`;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

function siteGen(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Result> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', RUNNER, 'deploy', ...args],
      {
        cwd,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: cwd,
          // The SDK's default chain finds these; they never appear in flags or config.
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
          ...env,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => done({ code: code ?? 1, stdout, stderr }));
  });
}

const SITE = `
  site: {
    name: 'Deploy Test',
    url: 'https://deploy.example',
    description: 'A site for deploy tests.',
  },`;

const state = {} as { server: S3rverHandle; project: string };

const cli = suite('site-gen deploy (command line)');

cli.before(async () => {
  state.server = await startS3rver({ buckets: [{ name: 'cli-flags' }, { name: 'cli-config' }] });
  state.project = await mkdtemp(join(tmpdir(), 'site-gen-deploy-cli-'));
  const dist = join(state.project, 'dist');
  await mkdir(join(dist, 'contact'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<h1>Home</h1>');
  await writeFile(join(dist, 'contact/index.html'), '<h1>Contact</h1>');
  await writeFile(join(dist, '404.html'), '<h1>Not found</h1>');
});

cli.after(async () => {
  await state.server.dispose();
  await rm(state.project, { recursive: true, force: true });
});

async function listed(bucket: string): Promise<string[]> {
  const answer = await state.server.client().send(new ListObjectsV2Command({ Bucket: bucket }));
  return (answer.Contents ?? []).map((item) => item.Key!).sort();
}

cli('deploys with flags alone and credentials from the environment, and never prints them', async () => {
  const result = await siteGen(['--bucket', 'cli-flags', '--endpoint', state.server.endpoint], state.project);
  assert.is(result.code, 0, result.stderr);
  assert.match(result.stdout, /Deployed to s3:\/\/cli-flags\/: 4 uploaded/);
  assert.equal(
    (await listed('cli-flags')).map((key) => key.replace(/releases\/[^/]+\.json$/, 'releases/ID.json')),
    [
      '.site-gen/deploy-manifest.json',
      '.site-gen/releases.json',
      '.site-gen/releases/ID.json',
      '404.html',
      'contact',
      'contact/index.html',
      'index.html',
    ],
  );
  assert.not.ok(`${result.stdout}${result.stderr}`.includes('S3RVER'), 'no credential in the output');
});

cli('takes bucket, endpoint and prefix from the deploy section of site.config.ts', async () => {
  await writeFile(
    join(state.project, 'site.config.ts'),
    `export default {${SITE}\n  deploy: { bucket: 'cli-config', endpoint: '${state.server.endpoint}', prefix: 'v2' },\n};\n`,
  );
  try {
    const result = await siteGen(['--dry-run'], state.project);
    assert.is(result.code, 0, result.stderr);
    assert.match(result.stdout, /Dry run: nothing will be changed in s3:\/\/cli-config\/v2\/\./);
    assert.equal(await listed('cli-config'), [], 'the dry run stored nothing');
    const real = await siteGen([], state.project);
    assert.is(real.code, 0, real.stderr);
    assert.ok((await listed('cli-config')).includes('v2/contact/index.html'));
  } finally {
    await rm(join(state.project, 'site.config.ts'));
  }
});

cli('exits non-zero with what failed and what to do when the endpoint does not answer', async () => {
  const closed = await startS3rver();
  await closed.dispose();
  const result = await siteGen(['--bucket', 'cli-flags', '--endpoint', closed.endpoint], state.project);
  assert.is(result.code, 1);
  assert.match(
    result.stderr,
    new RegExp(
      `Could not read s3://cli-flags/\\.site-gen/lock\\.json: ${closed.endpoint.replace(/\./g, '\\.')} refused the connection \\(ECONNREFUSED\\); check --endpoint`,
    ),
  );
  assert.not.match(result.stderr, /\n\s+at /, 'no stack trace for an operational failure');
});

cli('exits 3 when S3 is deployed but the CloudFront distribution is unknown, and 0 once it invalidates', async () => {
  const cdn = await startCloudFrontStandIn({ distributions: ['E1KNOWN'] });
  try {
    await writeFile(join(state.project, 'dist/contact/index.html'), '<h1>Contact, changed for the CDN test</h1>');
    const flags = ['--bucket', 'cli-flags', '--endpoint', state.server.endpoint, '--cloudfront-endpoint', cdn.endpoint];
    const unknown = await siteGen([...flags, '--cloudfront-distribution', 'E9UNKNOWN'], state.project);
    assert.is(unknown.code, 3, 'exit code 3: deployed to S3, CDN not invalidated');
    assert.match(unknown.stdout, /Deployed to s3:\/\/cli-flags\/: 2 uploaded/);
    assert.match(
      unknown.stderr,
      /^Deployed to s3:\/\/cli-flags\/, but the CloudFront distribution E9UNKNOWN was not invalidated: CloudFront has no distribution "E9UNKNOWN"/,
    );
    assert.match(
      unknown.stderr,
      'aws cloudfront create-invalidation --distribution-id E9UNKNOWN --paths "/contact" "/contact/" "/contact/index.html"',
    );
    assert.not.match(unknown.stderr, /\n\s+at /, 'no stack trace');

    await writeFile(join(state.project, 'dist/contact/index.html'), '<h1>Contact, changed again</h1>');
    const known = await siteGen([...flags, '--cloudfront-distribution', 'E1KNOWN', '--wait'], state.project);
    assert.is(known.code, 0, known.stderr);
    assert.equal(
      cdn.invalidations.map((i) => i.paths),
      [['/contact', '/contact/', '/contact/index.html']],
    );
    assert.match(
      known.stdout,
      /Invalidated 3 paths of the CloudFront distribution E1KNOWN \(invalidation I\d+\): completed in/,
    );
    assert.match(
      cdn.requests[0]!.authorization,
      /Credential=S3RVER\//,
      'the credentials of the environment, as for S3',
    );
  } finally {
    await cdn.close();
  }
});

cli('exits non-zero and asks for a bucket when none is given', async () => {
  const result = await siteGen([], state.project);
  assert.is(result.code, 1);
  assert.match(
    result.stderr,
    /No bucket to deploy to: pass --bucket <name>, or set deploy\.bucket in site\.config\.ts\./,
  );
});

cli('exits non-zero when an explicit --config does not exist', async () => {
  const result = await siteGen(['--config', 'missing.config.ts', '--bucket', 'cli-flags'], state.project);
  assert.is(result.code, 1);
  assert.match(result.stderr, /missing\.config\.ts does not exist/);
});

cli.run();
