// bench/RESULTS.md is written by several benches, each its own section, and left as the tree's formatter wants it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeSection } from '../../bench/lib/results-section.ts';

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

test.run();
