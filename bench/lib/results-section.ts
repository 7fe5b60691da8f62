// bench/RESULTS.md is written by more than one bench: each owns a section between markers and keeps the others'.
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The repository, and its formatter, which `npm test` runs over bench/RESULTS.md too. */
const ROOT = join(import.meta.dirname, '../..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

const markers = (name: string) => [`<!-- ${name}: written by its bench, do not edit -->`, `<!-- /${name} -->`] as const;

/** `markdown` with the section `name` replaced by `body` (appended when it has none). */
export function replaceSection(markdown: string, name: string, body: string): string {
  const [open, close] = markers(name);
  const section = `${open}\n${body.trimEnd()}\n${close}\n`;
  const start = markdown.indexOf(open);
  const end = markdown.indexOf(close);
  if (start === -1 || end === -1) return `${markdown.trimEnd()}\n\n${section}`;
  return markdown.slice(0, start) + section + markdown.slice(end + close.length).replace(/^\n/, '');
}

/** The sections of `previous` that `next` lacks, appended to it: a bench that rewrites the file keeps the others'. */
export function keepSections(previous: string, next: string): string {
  let out = next;
  for (const match of previous.matchAll(/<!-- ([\w-]+): written by its bench, do not edit -->\n([\s\S]*?)<!-- \/\1 -->/g)) {
    if (!out.includes(markers(match[1]!)[0])) out = replaceSection(out, match[1]!, match[2]!);
  }
  return out;
}

/**
 * Writes `text` to the results file `file`, formatted as the tree's formatter wants bench/RESULTS.md (tables' columns
 * padded): `npm test` fails on a file the formatter would change, and a bench's tables are written unpadded.
 */
export async function writeResults(file: string, text: string): Promise<void> {
  const formatted = spawnSync(BIOME, ['format', '--stdin-file-path=bench/RESULTS.md'], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
  });
  if (formatted.status !== 0 || !formatted.stdout)
    throw new Error(`biome could not format ${file}: ${(formatted.stderr || formatted.stdout || '').trim()}`);
  await writeFile(file, formatted.stdout);
}

/** Writes the section `name` of the results file `file` (see replaceSection, writeResults). */
export async function writeSection(file: string, name: string, body: string): Promise<void> {
  const previous = await readFile(file, 'utf8').catch(() => '# site-gen bench results\n');
  await writeResults(file, replaceSection(previous, name, body));
}
