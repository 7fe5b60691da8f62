import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LocalFile } from '../../src/deploy/local.ts';
import { planDeploy } from '../../src/deploy/plan.ts';
import { createReporter, renderBar } from '../../src/deploy/progress.ts';
import { formatBytes, formatDuration, formatSummary } from '../../src/deploy/summary.ts';
import { targetsFor } from '../../src/deploy/targets.ts';

const files: LocalFile[] = [
  { path: 'index.html', absolutePath: '/d/index.html', size: 3000, md5: 'a'.repeat(32) },
  { path: 'assets/home-3f9a1c2b.js', absolutePath: '/d/assets/home-3f9a1c2b.js', size: 1000, md5: 'b'.repeat(32) },
];
const targets = targetsFor(files, { prefix: '', gzip: false });
const plan = planDeploy({ prefix: '', targets, listing: { objects: new Map() }, maxDeletes: 256 });

function capture(isTTY: boolean) {
  const chunks: string[] = [];
  return { chunks, output: { isTTY, columns: 100, write: (chunk: string) => void chunks.push(chunk) } };
}

const progress = suite('progress reporters');

progress('prints one plain line per upload when the output is not a terminal', () => {
  const { chunks, output } = capture(false);
  const reporter = createReporter(output);
  reporter.start(plan, 's3://b/');
  reporter.uploaded(targets[0]!, 1000);
  reporter.retrying('index.html', 1, 250, 'S3 refused');
  reporter.uploaded(targets[1]!, 3000);
  reporter.deleted(['old.html']);
  reporter.stop();
  assert.equal(chunks, [
    'Deploying to s3://b/: 2 files to upload (3.9 KB), 0 to delete, 0 unchanged.\n',
    'uploaded assets/home-3f9a1c2b.js (1000 B) [1/2]\n',
    'retrying index.html in 250 ms (try 2): S3 refused\n',
    'uploaded index.html (2.9 KB) [2/2]\n',
    'deleted old.html\n',
  ]);
  assert.not.ok(chunks.join('').includes('\r'), 'no carriage returns in a log');
});

progress('redraws one bar line on a terminal, prints notes above it, and clears it at the end', () => {
  const { chunks, output } = capture(true);
  const reporter = createReporter(output);
  reporter.start(plan, 's3://b/');
  reporter.uploaded(targets[0]!, 1000);
  reporter.message('note: something');
  reporter.stop();
  assert.match(chunks[1]!, /^\r\x1b\[2K\[-{24}\] 0\/2 files {2}0 B\/3\.9 KB/);
  assert.match(chunks[2]!, /^\r\x1b\[2K\[#{6}-{18}\] 1\/2 files {2}1000 B\/3\.9 KB {2}assets\/home-3f9a1c2b\.js/);
  assert.is(chunks[3], '\r\x1b[2Knote: something\n');
  assert.match(chunks[4]!, /^\r\x1b\[2K\[#{6}/, 'the bar comes back under the note');
  assert.is(chunks.at(-1), '\r\x1b[2K');
});

progress('cuts the bar to the terminal width', () => {
  const line = renderBar(
    { done: 1, total: 2, bytes: 5, totalBytes: 10 },
    'assets/a-very-long-name-that-goes-on.js',
    40,
  );
  assert.is(line.length, 39);
  assert.ok(line.endsWith('…'));
});

const summary = suite('summary');

summary('reports uploads with bytes, deletes, unchanged files, kept assets and the time', () => {
  const text = formatSummary({
    bucket: 'b',
    prefix: 'p/',
    uploaded: 3,
    uploadedBytes: 2048,
    deleted: 1,
    unchanged: 7,
    retained: 2,
    manifestWritten: true,
    durationMs: 1450,
  });
  assert.is(
    text,
    'Deployed to s3://b/p/: 3 uploaded (2.0 KB), 1 deleted, 7 unchanged, kept 2 old assets for one more deploy, in 1.4 s.\n',
  );
});

summary('says a deploy that changed nothing wrote nothing', () => {
  const text = formatSummary({
    bucket: 'b',
    prefix: '',
    uploaded: 0,
    uploadedBytes: 0,
    deleted: 0,
    unchanged: 11,
    retained: 1,
    manifestWritten: false,
    durationMs: 300,
  });
  assert.is(
    text,
    'Nothing to deploy to s3://b/: 0 uploaded, 0 deleted, 11 unchanged; nothing was written, in 300 ms.\n',
  );
});

summary('formats bytes and durations for people', () => {
  assert.equal([formatBytes(12), formatBytes(1536), formatBytes(3 * 1024 * 1024)], ['12 B', '1.5 KB', '3.0 MB']);
  assert.equal([formatDuration(420), formatDuration(1450), formatDuration(125_000)], ['420 ms', '1.4 s', '2 min 5 s']);
  assert.equal(
    [formatDuration(299_700), formatDuration(59_970), formatDuration(999.7)],
    ['5 min 0 s', '1 min 0 s', '1.0 s'],
    'rounded before the minutes are split off: never "4 min 60 s" or "60.0 s"',
  );
});

progress.run();
summary.run();
