import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  normalizePrefix,
  resolveBucketOptions,
  resolveDeployOptions,
  rollbackCommand,
} from '../../src/deploy/options.ts';
import type { DeployConfig } from '../../src/deploy/options.ts';
import { UsageError } from '../../src/core/errors.ts';

const config: DeployConfig = { bucket: 'config-bucket', prefix: 'site', maxDeletes: 10, concurrency: 4, gzip: true };

function usageMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.instance(error, UsageError, 'a bad flag is a UsageError');
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

const resolve = suite('resolveDeployOptions');

resolve('takes the deploy section of site.config.ts when no flag is given', () => {
  const options = resolveDeployOptions({}, config, '/project');
  assert.is(options.bucket, 'config-bucket');
  assert.is(options.prefix, 'site/');
  assert.is(options.maxDeletes, 10);
  assert.is(options.concurrency, 4);
  assert.is(options.gzip, true);
  assert.is(options.outDir, '/project/dist', '--out defaults to dist in the working folder');
  assert.is(options.dryRun, false);
});

resolve('lets flags override the config, --no-gzip included', () => {
  const options = resolveDeployOptions(
    {
      bucket: 'flag-bucket',
      prefix: '/',
      maxDeletes: '0',
      concurrency: '16',
      gzip: false,
      out: 'build',
      dryRun: true,
      endpoint: 'http://127.0.0.1:9000',
    },
    config,
    '/project',
  );
  assert.equal(
    [
      options.bucket,
      options.prefix,
      options.maxDeletes,
      options.concurrency,
      options.gzip,
      options.outDir,
      options.dryRun,
      options.endpoint,
    ],
    ['flag-bucket', '', 0, 16, false, '/project/build', true, 'http://127.0.0.1:9000'],
  );
});

resolve('applies the defaults without a config: 256 deletes, 8 requests, no gzip', () => {
  const options = resolveDeployOptions({ bucket: 'my-site' }, undefined, '/p');
  assert.equal([options.maxDeletes, options.concurrency, options.gzip, options.prefix], [256, 8, false, '']);
});

resolve('asks for a bucket when neither flag nor config names one', () => {
  assert.match(
    usageMessage(() => resolveDeployOptions({}, undefined, '/p')),
    /pass --bucket <name>, or set deploy\.bucket in site\.config\.ts/,
  );
});

resolve('says what each command wanted the bucket for', () => {
  assert.match(
    usageMessage(() => resolveBucketOptions({}, undefined, 'rollback')),
    /^No bucket to roll back: pass/,
  );
  assert.match(
    usageMessage(() => resolveBucketOptions({}, undefined, 'releases')),
    /^No bucket to list the releases of: pass/,
  );
  assert.match(
    usageMessage(() => resolveDeployOptions({}, undefined, '/p')),
    /^No bucket to deploy to: pass/,
  );
});

resolve('rejects a bucket name S3 would refuse, naming where it came from', () => {
  assert.match(
    usageMessage(() => resolveDeployOptions({ bucket: 'My_Bucket' }, undefined, '/p')),
    /^--bucket "My_Bucket" is not an S3 bucket name/,
  );
  assert.match(
    usageMessage(() => resolveDeployOptions({}, { ...config, bucket: 'ab' }, '/p')),
    /^deploy\.bucket in site\.config\.ts "ab"/,
  );
});

resolve('rejects numbers that are not whole or out of range, naming the flag', () => {
  assert.match(
    usageMessage(() => resolveDeployOptions({ bucket: 'b-1', maxDeletes: '-1' }, undefined, '/p')),
    /^--max-deletes -1 is not valid/,
  );
  assert.match(
    usageMessage(() => resolveDeployOptions({ bucket: 'b-1', concurrency: '0' }, undefined, '/p')),
    /^--concurrency 0 is not valid: give a whole number from 1 to 64/,
  );
  assert.match(
    usageMessage(() => resolveDeployOptions({ bucket: 'b-1', concurrency: '2.5' }, undefined, '/p')),
    /^--concurrency 2\.5/,
  );
});

resolve('rejects an endpoint that is not an http(s) URL', () => {
  assert.match(
    usageMessage(() => resolveDeployOptions({ bucket: 'b-1', endpoint: 'localhost:9000' }, undefined, '/p')),
    /^--endpoint "localhost:9000" is not an http\(s\) URL/,
  );
});

const prefix = suite('normalizePrefix');

prefix('turns any spelling of a folder into "a/b/" and the root into ""', () => {
  assert.is(normalizePrefix(''), '');
  assert.is(normalizePrefix('/'), '');
  assert.is(normalizePrefix('preview'), 'preview/');
  assert.is(normalizePrefix('/a//b/'), 'a/b/');
});

const undo = suite('rollbackCommand');

undo('repeats the target flags the deploy was given, so the command works as printed', () => {
  assert.is(rollbackCommand({}), 'site-gen rollback', 'all from site.config.ts: the rollback reads it too');
  assert.is(
    rollbackCommand({
      bucket: 'www.example.com',
      prefix: 'preview/',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      cloudfrontDistribution: 'E2QWRUHAPOMQZL',
      concurrency: '16',
      gzip: true,
      maxDeletes: '10',
    }),
    'site-gen rollback --bucket www.example.com --prefix preview/ --region eu-west-1 --endpoint http://127.0.0.1:9000 ' +
      '--cloudfront-distribution E2QWRUHAPOMQZL',
    'where the site is and which CDN serves it; not how the deploy uploaded',
  );
  assert.is(
    rollbackCommand({ prefix: "it's here/" }, 'sites/a b.config.ts'),
    `site-gen rollback --config 'sites/a b.config.ts' --prefix 'it'\\''s here/'`,
    'a --config given, and values quoted for the shell',
  );
});

resolve.run();
prefix.run();
undo.run();
