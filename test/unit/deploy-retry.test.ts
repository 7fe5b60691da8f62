import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { forEachLimited } from '../../src/deploy/pool.ts';
import { backoffDelay, isRetryable, withRetry } from '../../src/deploy/retry.ts';
import { explainS3Error } from '../../src/deploy/s3-errors.ts';

const policy = { attempts: 4, baseDelayMs: 100, maxDelayMs: 1000 };
const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });
const network = (code: string) => Object.assign(new Error(`connect ${code}`), { code });

const retry = suite('withRetry');

retry('retries throttling and network errors with growing delays, then succeeds', async () => {
  const delays: number[] = [];
  const failures = [named('SlowDown'), network('ECONNRESET')];
  let calls = 0;
  const value = await withRetry(
    async () => {
      calls += 1;
      const failure = failures.shift();
      if (failure) throw failure;
      return 'stored';
    },
    policy,
    { sleep: async (ms) => void delays.push(ms), random: () => 1 },
  );
  assert.is(value, 'stored');
  assert.is(calls, 3);
  assert.equal(delays, [100, 200], 'full jitter with random() = 1 gives base, then base * 2');
});

retry('gives up after the last attempt and rethrows the error', async () => {
  let calls = 0;
  try {
    await withRetry(() => ((calls += 1), Promise.reject(network('ECONNREFUSED'))), policy, { sleep: async () => {} });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.is((error as { code?: string }).code, 'ECONNREFUSED');
  }
  assert.is(calls, 4, 'attempts counts every try');
});

retry('does not retry an error that another try cannot fix', async () => {
  let calls = 0;
  await withRetry(
    () => ((calls += 1), Promise.reject(named('AccessDenied', { $metadata: { httpStatusCode: 403 } }))),
    policy,
    {
      sleep: async () => {},
    },
  ).catch(() => {});
  assert.is(calls, 1);
});

const classify = suite('isRetryable and backoffDelay');

classify('retries 5xx, 429, throttling names, timeouts and dropped connections, also when wrapped', () => {
  assert.ok(isRetryable(named('InternalError', { $metadata: { httpStatusCode: 500 } })));
  assert.ok(isRetryable(named('Whatever', { $metadata: { httpStatusCode: 503 } })));
  assert.ok(isRetryable(named('TooManyRequestsException')));
  assert.ok(isRetryable(named('Unknown', { $metadata: { httpStatusCode: 429 } })));
  assert.ok(isRetryable(named('TimeoutError')));
  assert.ok(isRetryable(new Error('wrapper', { cause: network('EPIPE') })));
  assert.not.ok(isRetryable(named('NoSuchBucket', { $metadata: { httpStatusCode: 404 } })));
  assert.not.ok(isRetryable(network('ENOTFOUND')), 'a wrong host name does not heal');
});

classify('caps the delay and spreads it with jitter', () => {
  assert.is(
    backoffDelay(10, policy, () => 1),
    1000,
  );
  assert.is(
    backoffDelay(3, policy, () => 0.5),
    200,
  );
  assert.is(
    backoffDelay(1, policy, () => 0),
    0,
  );
});

const pool = suite('forEachLimited');

pool('never runs more than the limit at once and runs every item', async () => {
  let running = 0;
  let peak = 0;
  const done: number[] = [];
  await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise((resolve) => setImmediate(resolve));
    running -= 1;
    done.push(item);
  });
  assert.is(peak, 3);
  assert.equal(done.sort(), [1, 2, 3, 4, 5, 6, 7]);
});

pool('starts nothing after a failure, lets running jobs finish, and rethrows the first error', async () => {
  const started: number[] = [];
  let finished = 0;
  try {
    await forEachLimited([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      await new Promise((resolve) => setImmediate(resolve));
      if (item === 1) throw new Error('item 1 failed');
      finished += 1;
    });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.is((error as Error).message, 'item 1 failed');
  }
  assert.equal(started, [1, 2], 'item 3 was never started');
  assert.is(finished, 1, 'item 2, already running, completed');
});

const explain = suite('explainS3Error');

explain('says what to do for the usual S3 failures, without secrets', () => {
  const context = { bucket: 'my-site', endpoint: 'http://127.0.0.1:1' };
  assert.match(
    explainS3Error(network('ECONNREFUSED'), context),
    /http:\/\/127\.0\.0\.1:1 refused the connection \(ECONNREFUSED\); check --endpoint/,
  );
  assert.match(
    explainS3Error(named('NoSuchBucket'), context),
    /bucket "my-site" does not exist; create it or check --bucket/,
  );
  assert.match(explainS3Error(named('AccessDenied'), context), /s3:PutObject/);
  assert.match(
    explainS3Error(named('CredentialsProviderError'), context),
    /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE/,
  );
  assert.match(explainS3Error(new Error('Region is missing'), { bucket: 'b' }), /pass --region/);
});

retry.run();
classify.run();
pool.run();
explain.run();
