// bench/RESULTS.md is written by several benches, each its own section, and left as the tree's formatter wants it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resultsMarkdown } from '../../bench/lib/report.ts';
import type { BenchResults } from '../../bench/lib/results.ts';
import { writeResults, writeSection } from '../../bench/lib/results-section.ts';

test("a bench's section is written with its table's columns padded, and the other benches' sections kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-results-'));
  const file = join(dir, 'RESULTS.md');
  try {
    writeFileSync(
      file,
      '# site-gen bench results\n\n<!-- other: written by its bench, do not edit -->\nkept as it was\n<!-- /other -->\n',
    );
    await writeSection(file, 'mine', '## Mine\n\n| pages | time |\n|--:|--:|\n| 1,003 | 2.45 s |\n');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /<!-- other: written by its bench, do not edit -->\nkept as it was\n<!-- \/other -->/);
    assert.match(text, /<!-- mine: written by its bench, do not edit -->\n## Mine/);
    assert.match(text, /\| pages \|   time \|\n\| ----: \| -----: \|\n\| 1,003 \| 2\.45 s \|/, text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('bench/RESULTS.md holds nothing the next `npm run bench` would drop: its prose is bench/ANALYSIS.md', async () => {
  const bench = join(import.meta.dirname, '../../bench');
  const file = join(bench, 'RESULTS.md');
  const results = JSON.parse(readFileSync(join(bench, 'results.json'), 'utf8')) as BenchResults;
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-results-'));
  try {
    const again = join(dir, 'RESULTS.md');
    const current = readFileSync(file, 'utf8');
    await writeResults(again, resultsMarkdown(results, readFileSync(join(bench, 'ANALYSIS.md'), 'utf8'), current));
    assert.ok(
      readFileSync(again, 'utf8') === current,
      'bench/RESULTS.md differs from what `npm run bench` writes from bench/results.json and bench/ANALYSIS.md: move text written by hand into bench/ANALYSIS.md, then run `npm run bench -- --report-only`',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
