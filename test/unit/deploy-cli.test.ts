// The deploy command as a deployer runs it: a child process, credentials only in its environment.
import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
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

/** Runs `site-gen <command> ...args` (deploy unless the first argument is another command) in `cwd`. */
function siteGen(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  onOutput?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<Result> {
  const command = ['releases', 'rollback'].includes(args[0] ?? '') ? [] : ['deploy'];
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), '--input-type=module', '-e', RUNNER, ...command, ...args],
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
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onOutput?.(stdout, child);
    });
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
  state.server = await startS3rver({
    buckets: [{ name: 'cli-flags' }, { name: 'cli-config' }, { name: 'cli-releases' }, { name: 'cli-interrupt' }],
  });
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
  const rollback = await siteGen(['rollback'], state.project);
  assert.is(rollback.code, 1);
  assert.match(rollback.stderr, /^No bucket to roll back: pass --bucket <name>/, 'in its own words');
});

cli('a bucket that does not exist: deploy, releases and rollback all say so and exit 1', async () => {
  const flags = ['--bucket', 'no-such-bucket', '--endpoint', state.server.endpoint];
  for (const command of [[], ['releases'], ['rollback']]) {
    const result = await siteGen([...command, ...flags], state.project);
    assert.is(result.code, 1, `${command[0] ?? 'deploy'} fails`);
    assert.match(
      result.stderr,
      /the bucket "no-such-bucket" does not exist; create it or check --bucket, --region and --endpoint/,
      `${command[0] ?? 'deploy'}: ${result.stderr}`,
    );
    assert.not.match(result.stdout, /No releases/, 'no empty list of a bucket that is not there');
  }
});

cli("an unknown flag points to the command's own help", async () => {
  const result = await siteGen(['--bogus'], state.project);
  assert.is(result.code, 1);
  assert.match(result.stderr, /unknown option '--bogus'\n\(run "site-gen deploy --help" for usage\)/);
});

cli('exits non-zero when an explicit --config does not exist', async () => {
  const result = await siteGen(['--config', 'missing.config.ts', '--bucket', 'cli-flags'], state.project);
  assert.is(result.code, 1);
  assert.match(result.stderr, /missing\.config\.ts does not exist/);
});

cli('releases lists, rollback restores, and a held lock makes a rollback exit 4 naming its holder', async () => {
  const flags = ['--bucket', 'cli-releases', '--endpoint', state.server.endpoint];
  const contact = join(state.project, 'dist/contact/index.html');
  await writeFile(contact, '<h1>Contact, release one</h1>');
  assert.is((await siteGen(flags, state.project)).code, 0);
  await writeFile(contact, '<h1>Contact, release two</h1>');
  const second = await siteGen(flags, state.project);
  assert.is(second.code, 0, second.stderr);
  const undo = `site-gen rollback --bucket cli-releases --endpoint ${state.server.endpoint}`;
  assert.match(second.stdout, new RegExp(`Recorded release \\d{8}-\\d{6}-[0-9a-f]{4}; undo it with: ${undo}\n`));
  const printed = await siteGen([...undo.split(' ').slice(1), '--dry-run'], state.project);
  assert.is(printed.code, 0, `the printed command works as is: ${printed.stderr}`);

  const listed = await siteGen(['releases', ...flags], state.project);
  assert.is(listed.code, 0, listed.stderr);
  const lines = listed.stdout.split('\n');
  assert.match(lines[1]!, /^\* \d{8}-\d{6}-[0-9a-f]{4} /, 'the newest, live');
  assert.match(lines[2]!, /^ {2}\d{8}-\d{6}-[0-9a-f]{4} /);

  const startedAt = new Date().toISOString();
  await state.server.client().send(
    new PutObjectCommand({
      Bucket: 'cli-releases',
      Key: '.site-gen/lock.json',
      Body: JSON.stringify({
        version: 1,
        token: 't',
        command: 'deploy',
        host: 'ci-runner-3',
        user: 'deployer',
        startedAt,
        renewedAt: startedAt,
        leaseMs: 600_000,
      }),
    }),
  );
  const refused = await siteGen(['rollback', ...flags], state.project);
  assert.is(refused.code, 4, 'exit code 4: locked, nothing changed');
  assert.match(refused.stderr, `is locked by a deploy by deployer@ci-runner-3, started ${startedAt}`);
  assert.match(refused.stderr, /wait for it to finish and run this command again.*--force-unlock/s);
  assert.not.match(refused.stderr, /\n\s+at /, 'no stack trace');

  const dry = await siteGen(['rollback', '--dry-run', ...flags], state.project);
  assert.is(dry.code, 0, 'a dry run takes no lock');
  assert.match(dry.stdout, /note: s3:\/\/cli-releases\/ is locked by a deploy by deployer@ci-runner-3/);
  assert.match(dry.stdout, /restore {2}contact\/index\.html {2}\(from its kept copy\)/);

  const forced = await siteGen(['rollback', '--force-unlock', ...flags], state.project);
  assert.is(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /warning: --force-unlock: removed the lock .* held by deployer@ci-runner-3/);
  assert.match(forced.stdout, /Rolled back s3:\/\/cli-releases\/ to release /);
  const body = await state.server
    .client()
    .send(new GetObjectCommand({ Bucket: 'cli-releases', Key: 'contact/index.html' }));
  assert.is(await body.Body!.transformToString(), '<h1>Contact, release one</h1>');
  const after = await siteGen(['releases', ...flags], state.project);
  assert.match(after.stdout.split('\n')[2]!, /^\* /, 'the older release is live now');
});

cli('Ctrl-C during a deploy releases the lock and exits 130', async () => {
  const project = await mkdtemp(join(tmpdir(), 'site-gen-deploy-interrupt-'));
  try {
    await mkdir(join(project, 'dist/p'), { recursive: true });
    await writeFile(join(project, 'dist/index.html'), '<h1>Home</h1>');
    for (let n = 0; n < 300; n += 1) await writeFile(join(project, `dist/p/${n}.html`), `<h1>Page ${n}</h1>`);
    let interrupted = false;
    const result = await siteGen(
      ['--bucket', 'cli-interrupt', '--endpoint', state.server.endpoint, '--concurrency', '1'],
      project,
      {},
      (stdout, child) => {
        if (!interrupted && /uploaded p\/\d+\.html/.test(stdout)) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    );
    assert.ok(interrupted, 'the deploy was interrupted while uploading');
    assert.is(result.code, 130, result.stderr);
    assert.match(result.stderr, /Interrupted \(SIGINT\): releasing the deploy lock/);
    const keys = await listed('cli-interrupt');
    assert.ok(
      keys.some((key) => key.startsWith('p/')),
      'it had started uploading',
    );
    assert.not.ok(keys.includes('.site-gen/lock.json'), 'the lock is gone');
  } finally {
    await rm(project, { recursive: true, force: true });
  }
});

cli.run();
