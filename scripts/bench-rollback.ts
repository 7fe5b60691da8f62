// Rollback at scale against s3rver: deploy release A of N pages, deploy B (one page changed, one added), delete both
// folders, then `rollback` (from the records, and with --verify, which lists the bucket): its time and its S3 requests by kind, beside the deploys', and what releases cost in storage.
// Run: npm run bench:rollback [-- --pages 10000]  (s3rver needs the legacy OpenSSL provider past 1,000 keys: the npm
// script sets it)
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { deploy } from '../src/deploy/deploy.ts';
import { rollback } from '../src/deploy/rollback.ts';
import { startS3rver } from '../test/helpers/s3rver.ts';

const { values: flags } = parseArgs({ options: { pages: { type: 'string', default: '10000' } } });
const PAGES = Number(flags.pages);

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title><link rel="stylesheet" href="/assets/site-0a1b2c3d.css">` +
  `<script type="module" src="/assets/app-3f9a1c2b.js"></script></head><body><h1>${title}</h1>` +
  `${'<p>Some text of the page, as a generated site has.</p>'.repeat(30)}</body></html>`;

async function writeSite(dir: string, files: Map<string, string>): Promise<void> {
  const folders = new Set([...files.keys()].map((path) => dirname(join(dir, path))));
  for (const folder of folders) await mkdir(folder, { recursive: true });
  const entries = [...files];
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(entries.slice(i, i + 64).map(([path, text]) => writeFile(join(dir, path), text)));
  }
}

function siteA(): Map<string, string> {
  const files = new Map<string, string>([
    ['index.html', page('Home')],
    ['404.html', page('Not found')],
    ['assets/app-3f9a1c2b.js', 'console.log("app");'],
    ['assets/site-0a1b2c3d.css', 'body { margin: 0 }'],
  ]);
  for (let n = 1; n < PAGES; n += 1) files.set(`p/${n}/index.html`, page(`Page ${n}`));
  return files;
}

function siteB(): Map<string, string> {
  const files = siteA();
  files.set('p/1/index.html', page('Page 1, changed'));
  files.set('p/new/index.html', page('A page release B adds'));
  return files;
}

const tmp = await mkdtemp(join(tmpdir(), 'site-gen-bench-rollback-'));
const server = await startS3rver();
const client = server.client();
let counts = new Map<string, number>();
client.middlewareStack.add(
  (next, context) => async (args) => {
    const name = (context.commandName ?? '').replace(/Command$/, '');
    counts.set(name, (counts.get(name) ?? 0) + 1);
    return next(args);
  },
  { step: 'initialize', name: 'countRequests' },
);
const bucket = 'bench-rollback';
await client.send(new CreateBucketCommand({ Bucket: bucket }));
const quiet = { write: () => {} };
const common = { client, output: quiet, lock: { leaseMs: 300_000, settleMs: 400 }, git: null } as const;

const describe = () =>
  [...counts]
    .sort(([, a], [, b]) => b - a)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');
const total = () => [...counts.values()].reduce((sum, count) => sum + count, 0);
const rows: string[] = [];
const measure = async (what: string, run: () => Promise<unknown>) => {
  counts = new Map();
  const started = performance.now();
  await run();
  const seconds = (performance.now() - started) / 1000;
  rows.push(`| ${what} | ${seconds.toFixed(2)} s | ${total()} | ${describe()} |`);
  process.stdout.write(`${what}: ${seconds.toFixed(2)} s, ${total()} requests (${describe()})\n`);
};

try {
  const outA = join(tmp, 'a');
  const outB = join(tmp, 'b');
  await writeSite(outA, siteA());
  await writeSite(outB, siteB());
  const options = (outDir: string) => ({
    ...common,
    outDir,
    bucket,
    prefix: '',
    dryRun: false,
    maxDeletes: 256,
    concurrency: 8,
    gzip: false,
    configureWebsite: false,
  });
  await measure(`deploy A (${PAGES} pages, first)`, () => deploy(options(outA)));
  let releaseB: string | undefined;
  await measure('deploy B (1 page changed, 1 added)', async () => {
    releaseB = (await deploy(options(outB))).release;
  });
  await rm(outA, { recursive: true });
  await rm(outB, { recursive: true });
  const rollbackOptions = { ...common, bucket, prefix: '', concurrency: 8 };
  await measure('rollback --dry-run', () => rollback({ ...rollbackOptions, dryRun: true }));
  await measure('rollback --dry-run --verify', () => rollback({ ...rollbackOptions, dryRun: true, verify: true }));
  await measure('rollback to A (no local files)', () => rollback({ ...rollbackOptions, dryRun: false }));
  await measure('rollback --to B --verify (forward again, listing)', () =>
    rollback({ ...rollbackOptions, dryRun: false, verify: true, to: releaseB }),
  );
  await measure('rollback to A again (from the records)', () => rollback({ ...rollbackOptions, dryRun: false }));

  let objects = 0;
  let stateBytes = 0;
  const state: string[] = [];
  let token: string | undefined;
  do {
    const listing = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    for (const item of listing.Contents ?? []) {
      objects += 1;
      if (item.Key!.startsWith('.site-gen/')) {
        stateBytes += item.Size ?? 0;
        state.push(`${item.Key} ${item.Size}`);
      }
    }
    token = listing.IsTruncated ? listing.NextContinuationToken : undefined;
  } while (token);
  const records = [...new Set(state)];
  process.stdout.write(
    `\n| step | time | S3 requests | by kind |\n|---|---|---|---|\n${rows.join('\n')}\n\n` +
      `Bucket after: ${objects} objects listed; site-gen's own (.site-gen/): ${records.length} objects, ` +
      `${(stateBytes / 1024).toFixed(0)} KB:\n  ${records.join('\n  ')}\n`,
  );
} finally {
  client.destroy();
  await server.dispose();
  await rm(tmp, { recursive: true, force: true });
}
