// Writes each command's `--help` into docs/reference.md, so the reference shows the flags exactly as the CLI prints them.
//
//   node --import tsx scripts/docs-help.ts
//
// A help block in the reference is a fenced block whose first line is `$ site-gen [command] --help`; everything after
// that line is replaced by what `node bin/site-gen.js [command] --help` prints. test/unit/docs-help.test.ts fails when a
// block and the CLI disagree, and names this script.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REFERENCE = 'docs/reference.md';

/** A fenced block that opens with `$ site-gen … --help`: the command's words and the text after that line. */
const HELP_BLOCK = /^```\n\$ site-gen ((?:[a-z]+ )?)--help\n([\s\S]*?)^```$/gm;

export interface HelpBlock {
  /** The command ('' for `site-gen --help` itself). */
  command: string;
  /** The text the block shows under its `$ site-gen … --help` line. */
  shown: string;
}

export function helpBlocks(markdown: string): HelpBlock[] {
  return [...markdown.matchAll(HELP_BLOCK)].map((m) => ({ command: m[1]!.trim(), shown: m[2]!.trimEnd() }));
}

/** What `site-gen [command] --help` prints, as a terminal 80 columns wide (commander's width when not a TTY). */
export function printedHelp(command: string, root = process.cwd()): string {
  const args = ['bin/site-gen.js', ...(command ? [command] : []), '--help'];
  const run = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, COLUMNS: '80' },
  });
  if (run.status !== 0) throw new Error(`site-gen ${args.slice(1).join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout.trimEnd();
}

/** The reference with every help block set to what the CLI prints now. */
export function withPrintedHelp(markdown: string, help: (command: string) => string = printedHelp): string {
  return markdown.replace(HELP_BLOCK, (_block, words: string) => {
    const command = words.trim();
    return `\`\`\`\n$ site-gen ${command ? `${command} ` : ''}--help\n${help(command)}\n\`\`\``;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const before = readFileSync(REFERENCE, 'utf8');
  const after = withPrintedHelp(before);
  writeFileSync(REFERENCE, after);
  console.log(
    before === after
      ? `${REFERENCE}: every --help block already matches the CLI.`
      : `${REFERENCE}: --help blocks rewritten.`,
  );
}
