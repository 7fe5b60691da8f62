// The build's heap grows by a bounded share past its live data: peak memory follows what the build holds.
import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { boundHeapGrowth, HEAP_GROWING_PERCENT } from '../../src/cli/heap.ts';

const heap = suite('heap growth');

/**
 * A build's pattern in small: data that stays (the pages' records) and garbage that lives long enough to be promoted
 * (documents waiting for compression). Prints the largest heap it saw, in MB.
 */
const CHURN = `
const bound = process.argv[1] === 'bound';
if (bound) (await import(${JSON.stringify(new URL('../../src/cli/heap.ts', import.meta.url).href)})).boundHeapGrowth();
const live = [];
const waiting = [];
let peak = 0;
for (let i = 0; i < 400000; i++) {
  if (i % 2 === 0) live.push(\`page-\${i}-\`.repeat(20));
  waiting.push('x'.repeat(2000) + i);
  if (waiting.length > 20000) waiting.splice(0, 5000);
  if (i % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(String(peak / 1048576));
`;

const peakHeap = (mode: 'bound' | 'default', nodeOptions: string[] = []) => {
  const out = execFileSync(
    process.execPath,
    [...nodeOptions, '--import', 'tsx', '--input-type=module', '-e', CHURN, mode],
    {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  return Number(out);
};

heap('a bounded heap peaks well below the one V8 grows by default, for the same live data and garbage', () => {
  const unbounded = peakHeap('default');
  const bounded = peakHeap('bound');
  assert.ok(
    bounded < unbounded * 0.9,
    `growing by ${HEAP_GROWING_PERCENT}%: ${bounded.toFixed(0)} MB at the peak, against ${unbounded.toFixed(0)} MB by default`,
  );
});

heap('leaves a growth the user chose on the command line or in NODE_OPTIONS', () => {
  assert.not.ok(boundHeapGrowth(30, ['--heap-growing-percent=80']), 'node --heap-growing-percent=80: kept');
  assert.not.ok(boundHeapGrowth(30, ['--max-old-space-size=4096 --heap_growing_percent=50']), 'in NODE_OPTIONS');
  const chosen = peakHeap('bound', ['--heap-growing-percent=300']);
  const bounded = peakHeap('bound');
  assert.ok(chosen > bounded * 1.08, `the user's 300%: ${chosen.toFixed(0)} MB, ours: ${bounded.toFixed(0)} MB`);
});

heap.run();
