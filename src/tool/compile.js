// Compiles the tool itself (src/ outside src/site) to JavaScript with esbuild, once for each state of its sources, so
// bin/site-gen.js starts plain JavaScript instead of compiling ~100 TypeScript modules through tsx on every run.
// Plain JavaScript, not TypeScript: it is what runs before anything can compile TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

/** The folder site-gen is installed in (this repository). */
export const toolRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Where compiled tools live: one folder per stamp. Safe to delete (the next command compiles again). */
export function toolCacheDir(root = toolRoot) {
  return join(root, 'node_modules/.cache/site-gen/tool');
}

/** A compiled tool nobody has started for this long is removed when another one is compiled. */
const UNUSED_MS = 24 * 60 * 60 * 1000;

/**
 * The files a compile reads or depends on: the tool's sources (src/ outside src/site, the site being the user's code
 * the tool builds), bin/, and what fixes the compiler and the packages (package.json, package-lock.json, tsconfig.json).
 */
export function toolSources(root = toolRoot) {
  const files = ['package.json', 'package-lock.json', 'tsconfig.json']
    .map((file) => join(root, file))
    .filter((file) => existsSync(file));
  const site = join(root, 'src', 'site');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && path !== site) walk(path);
      else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of ['src', 'bin']) if (existsSync(join(root, dir))) walk(join(root, dir));
  return files.sort();
}

/**
 * A cheap fingerprint of the sources: each file's path, size and modification time, and where the tool is (the
 * compiled code finds the tool's folder relative to itself). Any edit, added or removed file gives a new stamp.
 */
export function toolStamp(root = toolRoot) {
  const hash = createHash('sha256').update(root);
  for (const file of toolSources(root)) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`\0${relative(root, file)}\0${size}\0${mtimeMs}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The tool's source failed to compile: esbuild's messages, each naming the file, line and column. */
export class ToolCompileError extends Error {
  constructor(messages) {
    const lines = messages.map(
      (m) => `  ${m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : ''}${m.text}`,
    );
    super(
      `site-gen could not compile its own source (src/, an edit in progress?):\n${lines.join('\n')}\nFix the file and run the command again.`,
    );
    this.name = 'ToolCompileError';
  }
}

/**
 * The compiled tool for the current sources, compiling it first if there is none: `{ dir, main, index, compiled }`,
 * main and index being the file URLs of src/cli/main.ts's and src/index.ts's compiled modules. Each compile is written
 * into a folder of its own and renamed into place, so processes starting together never see half a tool (each may
 * compile; the first rename wins and the others use it).
 */
export async function compiledTool(root = toolRoot) {
  const cache = toolCacheDir(root);
  const dir = join(cache, toolStamp(root));
  const urls = (compiled) => ({
    dir,
    main: pathToFileURL(join(dir, 'main.js')).href,
    index: pathToFileURL(join(dir, 'index.js')).href,
    compiled,
  });
  if (existsSync(dir)) {
    markUsed(dir);
    return urls(false);
  }
  const temp = `${dir}.tmp-${process.pid}-${Date.now()}`;
  try {
    await compile(root, temp, relative(dir, root));
    try {
      renameSync(temp, dir);
    } catch (error) {
      // Another process published the same stamp first: its files are the same compile.
      if (!existsSync(dir)) throw error;
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  pruneUnused(cache, dir);
  return urls(true);
}

async function compile(root, outdir, rootFromOut) {
  const { build } = await import('esbuild');
  try {
    await build({
      // Flat names, every file at the top of the folder: the compiled src/core/paths.ts finds the tool from there.
      entryPoints: { main: join(root, 'src/cli/main.ts'), index: join(root, 'src/index.ts') },
      // One copy of each module for both entries, so a site's `import … from 'site-gen-ssg'` (the compiled index.js) shares
      // the island registry and contexts the running tool uses.
      splitting: true,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      jsx: 'automatic',
      tsconfig: join(root, 'tsconfig.json'),
      sourcemap: true,
      outdir,
      absWorkingDir: root,
      logLevel: 'silent',
      define: { SITE_GEN_TOOL_ROOT: JSON.stringify(rootFromOut.split(sep).join('/')) },
    });
  } catch (error) {
    if (error?.errors?.length) throw new ToolCompileError(error.errors);
    throw error;
  }
}

/** Records that a compiled tool was started (its folder's time), so pruning keeps the ones in use. */
function markUsed(dir) {
  const now = new Date();
  try {
    utimesSync(dir, now, now);
  } catch {
    // A read-only install still runs; it only never prunes.
  }
}

function pruneUnused(cache, keep) {
  const now = Date.now();
  for (const name of readdirSync(cache)) {
    const dir = join(cache, name);
    if (dir === keep) continue;
    try {
      if (now - statSync(dir).mtimeMs > UNUSED_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Removed by another process meanwhile.
    }
  }
}
