// Writes the build to a folder beside the output, then swaps it in, so a failed build leaves the previous output as it was.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { WriteError } from '../core/errors.ts';
import { isBuildMetadata } from '../core/http/hashed-files.ts';
import { byteLength, shouldPrecompress, type Compressor } from './compress.ts';

export type OutputFiles = Map<string, Uint8Array | string>;

/** Files written at once: enough to keep libuv's thread pool busy, few enough not to run out of file handles. */
const WRITES_AT_ONCE = 32;

/** Refuses output folders whose replacement would destroy the project: its root, an ancestor, or a source folder. */
export function assertSafeOutDir(outDir: string, root: string, flag = '--out'): void {
  const out = resolve(outDir);
  const project = resolve(root);
  if (out === project || project.startsWith(out + sep)) {
    throw new WriteError(
      `${flag} ${outDir} would replace the project folder ${project}. Choose a folder inside it, such as dist.`,
    );
  }
  for (const source of ['src', 'content', 'templates', 'public', 'test', 'bin', 'node_modules']) {
    const dir = join(project, source);
    if (out === dir || out.startsWith(dir + sep))
      throw new WriteError(
        `${flag} ${outDir} is inside the project's ${source}/ folder. Choose a folder of its own, such as dist.`,
      );
  }
}

/** Adds .br and .gz beside every text file over 1 KB that is served (not the build's own notes in .site-gen/), all
 * compressed at once (`compressor` keeps each result). */
export async function withPrecompressed(files: OutputFiles, compressor: Compressor): Promise<OutputFiles> {
  const sorted = [...files].sort(([a], [b]) => a.localeCompare(b));
  const compressed = await Promise.all(
    sorted.map(([path, data]) =>
      shouldPrecompress(path, byteLength(data)) && !isBuildMetadata(path) ? compressor.compress(path, data) : undefined,
    ),
  );
  const out: OutputFiles = new Map();
  sorted.forEach(([path, data], index) => {
    out.set(path, data);
    const result = compressed[index];
    if (result) {
      out.set(`${path}.br`, result.br);
      out.set(`${path}.gz`, result.gz);
    }
  });
  return out;
}

/**
 * Writes `files` to `outDir`, atomically: everything goes to a sibling folder first,
 * then the old output is moved aside and the new one renamed into place.
 * `rest`, when given, resolves to the whole output once it is complete (a build's compressed files): `files` are written
 * while it is made, then whatever of it is not written yet. If it fails, its error is thrown as is and the previous
 * output is kept.
 */
export async function writeOutput(outDir: string, files: OutputFiles, rest?: Promise<OutputFiles>): Promise<void> {
  const out = resolve(outDir);
  const parent = dirname(out);
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const staging = join(parent, `.${basename(out)}.tmp-${stamp}`);
  const previous = join(parent, `.${basename(out)}.old-${stamp}`);
  const made = new Set<string>();
  let restFailed = false;
  const restFiles = rest?.catch((error: unknown) => {
    restFailed = true;
    throw error;
  });
  restFiles?.catch(() => undefined); // handled where it is awaited, which may be after it fails
  try {
    await mkdir(parent, { recursive: true });
    if (existsSync(out) && !(await stat(out)).isDirectory()) {
      throw new WriteError(
        `--out ${relative(process.cwd(), out) || out} is a file, not a folder. Remove it or choose another --out.`,
      );
    }
    await mkdir(staging, { recursive: true });
    await writeFiles(staging, [...files], made);
    if (restFiles)
      await writeFiles(
        staging,
        [...(await restFiles)].filter(([path]) => !files.has(path)),
        made,
      );
    if (existsSync(out)) await rename(out, previous);
    await rename(staging, out);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (existsSync(previous) && !existsSync(out)) await rename(previous, out);
    if (error instanceof WriteError || restFailed) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new WriteError(
      `Could not write the output to ${out} (${code ?? (error as Error).message}). Check that the folder is writable and the disk has space; the previous output was kept.`,
      { cause: error },
    );
  }
  await rm(previous, { recursive: true, force: true });
}

/** Writes `entries` under `dir`: folders first, each once (`made` knows those already there); then the files, many at a time. */
async function writeFiles(
  dir: string,
  entries: Array<[string, Uint8Array | string]>,
  made: Set<string>,
): Promise<void> {
  for (const folder of [...new Set(entries.map(([path]) => dirname(join(dir, path))))].sort()) {
    if (made.has(folder)) continue;
    await mkdir(folder, { recursive: true });
    made.add(folder);
  }
  // One at a time spends most of a big build waiting.
  let next = 0;
  const writer = async () => {
    while (next < entries.length) {
      const [path, data] = entries[next++]!;
      await writeFile(join(dir, path), data);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITES_AT_ONCE, entries.length) }, writer));
}

/** Every file under `dir`, keyed by its path relative to it with "/" separators. */
export async function readTree(dir: string): Promise<OutputFiles> {
  const files: OutputFiles = new Map();
  if (!existsSync(dir)) return files;
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries
    .filter((e) => e.isFile())
    .sort((a, b) => join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)))) {
    const full = join(entry.parentPath, entry.name);
    files.set(relative(dir, full).split(sep).join('/'), await readFile(full));
  }
  return files;
}
