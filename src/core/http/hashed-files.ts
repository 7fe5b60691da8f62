// The build's list of the output files it named with a content hash, kept in the output folder for serve and deploy.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SiteGenError } from '../errors.ts';
import { HEADERS_FILE } from './headers-file.ts';

/**
 * Where the list lives inside the output folder. A dot folder: the servers never serve dotfiles, and deploy skips
 * everything under it (isBuildMetadata), so it never reaches visitors.
 */
export const HASHED_FILES_PATH = '.site-gen/hashed-files.json';

/**
 * Files of the output folder that describe the build or configure the host rather than belong to the site: never
 * uploaded, served or precompressed. _headers is read by hosts such as Netlify; S3 would serve it, and ignore it.
 */
export function isBuildMetadata(path: string): boolean {
  return path.startsWith('.site-gen/') || path === HEADERS_FILE;
}

export function serializeHashedFiles(paths: Iterable<string>): string {
  return `${JSON.stringify({ version: 1, files: [...new Set(paths)].sort() }, null, 2)}\n`;
}

/** The list from the file's text; `where` names the file in the error a damaged list gets. */
export function parseHashedFiles(text: string, where: string): Set<string> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const files = (data as { version?: unknown; files?: unknown } | undefined)?.files;
  if (
    (data as { version?: unknown } | undefined)?.version !== 1 ||
    !Array.isArray(files) ||
    !files.every((file) => typeof file === 'string')
  ) {
    throw new SiteGenError(
      `${where} is not a list of hashed files written by site-gen build. Run \`site-gen build\` again to rewrite it.`,
    );
  }
  return new Set(files as string[]);
}

/** The list of a build kept in memory (the dev server's), or undefined when it has none. */
export function hashedFilesOf(files: ReadonlyMap<string, Uint8Array | string>): Set<string> | undefined {
  const data = files.get(HASHED_FILES_PATH);
  if (data === undefined) return undefined;
  return parseHashedFiles(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'), HASHED_FILES_PATH);
}

/** The list of the build in `dir`, or undefined when that folder has none (the policy then judges names). */
export async function readHashedFiles(dir: string): Promise<Set<string> | undefined> {
  const file = join(dir, HASHED_FILES_PATH);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SiteGenError(
      `Could not read ${file}: ${(error as Error).message}. Check that the output folder is readable.`,
      { cause: error },
    );
  }
  return parseHashedFiles(text, file);
}
