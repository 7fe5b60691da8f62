// Which files are Markdown entries: the .md files of content/'s folders, one folder per collection. Read by the
// collections' loader and by the build's early Markdown worker, which starts before the loader's code is loaded.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** A folder of content/ and its .md file names, sorted. */
export interface MarkdownFolder {
  dir: string;
  names: string[];
}

/** The .md files of a folder, sorted. */
export function markdownNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort();
}

/** Each folder of `root` with its .md files, in the order the file system lists them; throws when `root` is unreadable. */
export function markdownFolders(root: string): MarkdownFolder[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((folder) => {
      const dir = join(root, folder.name);
      return { dir, names: markdownNames(dir) };
    });
}
