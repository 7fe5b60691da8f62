// The reference shows every command's flags exactly as `site-gen <command> --help` prints them.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { helpBlocks, printedHelp, REFERENCE, withPrintedHelp } from '../../scripts/docs-help.ts';

const help = suite('docs --help');

help('finds the help blocks and rewrites only them', () => {
  const markdown = 'Intro.\n\n```\n$ site-gen serve --help\nold text\n```\n\n```\n$ site-gen build\n```\n';
  assert.equal(helpBlocks(markdown), [{ command: 'serve', shown: 'old text' }]);
  assert.is(
    withPrintedHelp(markdown, (command) => `help of ${command}`),
    'Intro.\n\n```\n$ site-gen serve --help\nhelp of serve\n```\n\n```\n$ site-gen build\n```\n',
    'a block that is not `--help` is left alone',
  );
});

help('docs/reference.md shows the --help of site-gen and of every command, as the CLI prints it', () => {
  const blocks = helpBlocks(readFileSync(REFERENCE, 'utf8'));
  const commands = [...printedHelp('').matchAll(/^ {2}([a-z]+) /gm)]
    .map((m) => m[1]!)
    .filter((name) => name !== 'help');
  assert.equal(
    blocks.map((block) => block.command).sort(),
    ['', ...commands].sort(),
    `${REFERENCE} needs one --help block for site-gen and one for each command`,
  );
  for (const block of blocks) {
    assert.fixture(
      block.shown,
      printedHelp(block.command),
      `${REFERENCE}: the --help of "site-gen ${block.command}" differs from the CLI's; run node --import tsx scripts/docs-help.ts`,
    );
  }
});

help.run();
