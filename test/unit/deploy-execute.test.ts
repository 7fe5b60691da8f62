import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { executePlan } from '../../src/deploy/execute.ts';
import { md5OfFile } from '../../src/deploy/local.ts';
import { planDeploy } from '../../src/deploy/plan.ts';
import { createLineReporter } from '../../src/deploy/progress.ts';
import { targetsFor } from '../../src/deploy/targets.ts';
import { DeployError } from '../../src/core/errors.ts';

interface Sent {
  command: string;
  input: { Key?: string; Delete?: { Objects: { Key: string }[] } };
}

/** An S3 client stand-in: records commands; `hold` keys wait until released, `fail` keys throw. */
function fakeClient(options: { hold?: Set<string>; fail?: Map<string, Error> } = {}) {
  const started: string[] = [];
  const waiting: (() => void)[] = [];
  const sent: Sent[] = [];
  const client = {
    async send(command: { constructor: { name: string }; input: Sent['input'] }) {
      const entry = { command: command.constructor.name.replace(/Command$/, ''), input: command.input };
      sent.push(entry);
      const key = command.input.Key;
      if (entry.command === 'PutObject' && key) started.push(key);
      if (key && options.fail?.has(key)) throw options.fail.get(key);
      if (key && options.hold?.has(key)) await new Promise<void>((resolve) => waiting.push(resolve));
      return { ETag: '"0123456789abcdef0123456789abcdef"' };
    },
  };
  return {
    client: client as unknown as S3Client,
    started,
    sent,
    release: () => waiting.splice(0).forEach((go) => go()),
  };
}

async function site(files: Record<string, string>) {
  const dir = await mkdtemp(join(tmpdir(), 'site-gen-execute-'));
  const local = [];
  for (const [path, content] of Object.entries(files)) {
    await writeFile(join(dir, path), content);
    local.push({ path, absolutePath: join(dir, path), size: content.length, md5: await md5OfFile(join(dir, path)) });
  }
  return { dir, local };
}

const silent = createLineReporter({ write: () => {} });
const retry = { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 };

const execute = suite('executePlan');

execute('starts no page upload until every hashed asset is stored, even with room for more requests', async () => {
  const { dir, local } = await site({ 'index.html': 'home', '404.html': 'nf', 'a-1.txt': 'x' });
  local.push(
    { ...local[2]!, path: 'assets/home-3f9a1c2b.js' },
    { ...local[2]!, path: 'assets/chunks/react-AB12CD34.js' },
  );
  const plan = planDeploy({
    prefix: '',
    targets: targetsFor(local, { prefix: '', gzip: false }),
    listing: { objects: new Map() },
    maxDeletes: 256,
  });
  const fake = fakeClient({ hold: new Set(['assets/home-3f9a1c2b.js']) });
  const running = executePlan(plan, {
    client: fake.client,
    bucket: 'b',
    prefix: '',
    retry,
    concurrency: 8,
    reporter: silent,
  });
  // Wait (bounded by time, not by turns of the event loop: on a loaded machine the files' reads take longer than 5,000
  // turns, and the test once saw nothing in flight) until both assets are in flight, then give any request that could
  // wrongly start the same chance.
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const began = Date.now();
  while (fake.started.length < 2 && Date.now() - began < 10_000) await tick();
  for (let i = 0; i < 50; i += 1) await tick();
  assert.equal(
    fake.started.sort(),
    ['assets/chunks/react-AB12CD34.js', 'assets/home-3f9a1c2b.js'],
    'only the assets are in flight',
  );
  fake.release();
  await running.catch(() => {});
  assert.equal(fake.started.slice(2), ['a-1.txt', 'index.html', '404.html', '.site-gen/deploy-manifest.json']);
  await rm(dir, { recursive: true, force: true });
});

execute('deletes only after every upload, then writes the manifest last', async () => {
  const { dir, local } = await site({ 'index.html': 'home' });
  const plan = planDeploy({
    prefix: '',
    targets: targetsFor(local, { prefix: '', gzip: false }),
    listing: { objects: new Map([['old.html', { key: 'old.html', size: 1, etag: 'e' }]]) },
    maxDeletes: 256,
  });
  const fake = fakeClient();
  const result = await executePlan(plan, {
    client: fake.client,
    bucket: 'b',
    prefix: '',
    retry,
    concurrency: 2,
    reporter: silent,
  });
  assert.equal(
    fake.sent.map(
      (entry) => `${entry.command} ${entry.input.Key ?? entry.input.Delete?.Objects.map((o) => o.Key).join(',')}`,
    ),
    ['PutObject index.html', 'DeleteObjects old.html', 'PutObject .site-gen/deploy-manifest.json'],
  );
  assert.equal(result.deleted, ['old.html']);
  await rm(dir, { recursive: true, force: true });
});

execute('a failed upload names the local file and the key, and stops before pages and deletes', async () => {
  const { dir, local } = await site({ 'index.html': 'home', 'x.txt': 'x' });
  local.push({ ...local[1]!, path: 'assets/home-3f9a1c2b.js' });
  const plan = planDeploy({
    prefix: '',
    targets: targetsFor(local, { prefix: '', gzip: false }),
    listing: { objects: new Map([['old.html', { key: 'old.html', size: 1, etag: 'e' }]]) },
    maxDeletes: 256,
  });
  const denied = Object.assign(new Error('Access Denied'), {
    name: 'AccessDenied',
    $metadata: { httpStatusCode: 403 },
  });
  const fake = fakeClient({ fail: new Map([['assets/home-3f9a1c2b.js', denied]]) });
  try {
    await executePlan(plan, { client: fake.client, bucket: 'b', prefix: '', retry, concurrency: 2, reporter: silent });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, DeployError);
    assert.match(
      (error as Error).message,
      new RegExp(
        `^Could not upload ${join(dir, 'x.txt').replace(/\./g, '\\.')} to s3://b/assets/home-3f9a1c2b\\.js: access denied`,
      ),
    );
    assert.match((error as Error).message, /s3:PutObject/);
  }
  assert.equal(
    fake.sent.map((entry) => entry.command),
    ['PutObject'],
    'no page, no delete, no manifest',
  );
  await rm(dir, { recursive: true, force: true });
});

execute('refuses to upload a file that changed after it was planned', async () => {
  const { dir, local } = await site({ 'index.html': 'home' });
  const plan = planDeploy({
    prefix: '',
    targets: targetsFor(local, { prefix: '', gzip: false }),
    listing: { objects: new Map() },
    maxDeletes: 256,
  });
  await writeFile(join(dir, 'index.html'), 'rebuilt meanwhile');
  const fake = fakeClient();
  try {
    await executePlan(plan, { client: fake.client, bucket: 'b', prefix: '', retry, concurrency: 1, reporter: silent });
    assert.unreachable('should have thrown');
  } catch (error) {
    assert.instance(error, DeployError);
    assert.match(
      (error as Error).message,
      /index\.html changed while the deploy was running\. Wait for the build to finish/,
    );
  }
  assert.equal(fake.sent, []);
  await rm(dir, { recursive: true, force: true });
});

execute.run();
