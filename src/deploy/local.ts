// Reads the build output: every file to deploy with its size and MD5, skipping the build's precompressed siblings.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DeployError } from '../core/errors.ts';
import { isBuildMetadata } from '../core/http/hashed-files.ts';
import { pageFile } from '../core/http/paths.ts';

export interface LocalFile {
  /** Path inside the output folder, with forward slashes: "contact/index.html". */
  path: string;
  absolutePath: string;
  size: number;
  /** Hex MD5 of the content. */
  md5: string;
}

/**
 * The build writes `x.br` and `x.gz` beside text files for servers that negotiate encodings. S3 serves one body
 * per key whatever the visitor accepts, so these siblings are never uploaded (--gzip compresses at upload instead).
 * A .gz or .br file without its uncompressed twin is a file of the site and is uploaded.
 */
export function isPrecompressedSibling(path: string, allPaths: ReadonlySet<string>): boolean {
  const match = /^(.+)\.(br|gz)$/.exec(path);
  return match !== null && allPaths.has(match[1]!);
}

export async function md5OfFile(file: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function walk(root: string, dir: string, found: string[]): Promise<void> {
  const entries = await readdir(join(root, dir), { withFileTypes: true });
  for (const entry of entries) {
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    // Follow symlinks: stat tells what they point at.
    const info = entry.isSymbolicLink() ? await stat(join(root, path)) : entry;
    if (info.isDirectory()) await walk(root, path, found);
    else if (info.isFile()) found.push(path);
  }
}

/** Lists the files of the output folder to deploy, sorted by path: not the build's own notes (.site-gen/). */
export async function scanOutput(outDir: string): Promise<LocalFile[]> {
  const info = await stat(outDir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new DeployError(
      `The output folder ${outDir} does not exist. Run \`site-gen build\` first, or pass --out <dir>.`,
    );
  }
  const paths: string[] = [];
  await walk(outDir, '', paths);
  if (!paths.includes(pageFile('/'))) {
    // Deploying a folder without a home page would replace the live site with a broken one (and delete the rest).
    throw new DeployError(
      `${outDir} has no index.html, so it is not a built site. Run \`site-gen build\` first, or pass the right --out <dir>.`,
    );
  }
  const all = new Set(paths);
  const files: LocalFile[] = [];
  for (const path of paths.sort()) {
    if (isPrecompressedSibling(path, all) || isBuildMetadata(path)) continue;
    const absolutePath = join(outDir, path);
    try {
      const { size } = await stat(absolutePath);
      files.push({ path, absolutePath, size, md5: await md5OfFile(absolutePath) });
    } catch (cause) {
      throw new DeployError(
        `Could not read ${absolutePath}. Check that the file is readable, then run the deploy again.`,
        { cause },
      );
    }
  }
  return files;
}
