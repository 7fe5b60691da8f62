#!/usr/bin/env node
// Compiles the tool ahead of time into lib/: each module of src/ (outside src/site, the site, and src/cli/scaffold,
// which ships as source) to one JavaScript file with esbuild, and the public entry's declarations with tsc.
// Plain JavaScript: it is what runs before anything can compile TypeScript.
//
//   node scripts/build-package.js              build lib/ (npm's prepare runs it: on npm ci, npm pack)
//   node scripts/build-package.js --if-stale   only when a source changed since lib/ was built (what bin/site-gen.js
//                                              does in a checkout, so an edit of the tool runs at the next command)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const lib = join(root, 'lib');
/** Written last into lib/: the sources' fingerprint it was built from. */
const STAMP = '.sources-stamp';
/** Not the tool: the site this repository builds, and the scaffold `site-gen new` copies as it is. */
const SKIPPED = [join(src, 'site'), join(src, 'cli', 'scaffold')];

/** The tool's sources (src/ less the site and the scaffold), sorted. */
export function toolSources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && !SKIPPED.includes(path)) walk(path);
      else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  walk(src);
  return files.sort();
}

/** Each source's path, size and time, and the files that set how it compiles: any edit gives a new stamp. */
function sourcesStamp() {
  const hash = createHash('sha256');
  for (const file of [
    ...toolSources(),
    join(root, 'tsconfig.json'),
    join(root, 'tsconfig.package.json'),
    join(root, 'package.json'),
    fileURLToPath(import.meta.url),
  ]) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`\0${relative(root, file)}\0${size}\0${mtimeMs}`);
  }
  return hash.digest('hex');
}

/** Whether lib/ was built from the sources as they are now. */
export function libIsCurrent() {
  try {
    return readFileSync(join(lib, STAMP), 'utf8') === sourcesStamp();
  } catch {
    return false;
  }
}

/** A relative import of a source module, as the compiled module imports it: `./x.ts` and `./x.tsx` become `./x.js`. */
const jsSpecifier = (specifier) => specifier.replace(/\.tsx?$/, '.js');

/**
 * Every import stays an import (one output file per source file, as tsc would emit), with relative ones renamed to the
 * compiled files: esbuild's bundler does the per-file transform, this plugin stops it from following anything.
 */
const keepImports = {
  name: 'keep-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      return { path: args.path.startsWith('.') ? jsSpecifier(args.path) : args.path, external: true };
    });
  },
};

/** The tool's source did not compile: the messages name each file, line and column. */
export class BuildFailure extends Error {}

async function compileJavaScript(outdir) {
  const { build } = await import('esbuild');
  try {
    await build({
      entryPoints: toolSources(),
      outbase: src,
      outdir,
      bundle: true,
      plugins: [keepImports],
      format: 'esm',
      platform: 'node',
      // The source's own syntax (Node 20 runs it; a site's browser bundle lowers the runtime to the site's targets).
      target: 'esnext',
      jsx: 'automatic',
      tsconfig: join(root, 'tsconfig.json'),
      // Stack traces (bin enables source maps) name the lines of src/*.ts, whose text the maps carry.
      sourcemap: true,
      logLevel: 'silent',
    });
  } catch (error) {
    const lines = (error.errors ?? []).map(
      (m) => `  ${m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : ''}${m.text}`,
    );
    if (!lines.length) throw error;
    throw new BuildFailure(
      `site-gen could not compile its own source:\n${lines.join('\n')}\nFix the file and run the command again.`,
    );
  }
}

/**
 * The modules a site's browser scripts start from (src/core/paths.ts `browserModule`): the public entry, the runtime,
 * the capture script, the dev server's reload client and the behaviours' React-free entry.
 */
const BROWSER_ENTRIES = [
  'index.ts',
  'runtime/start.ts',
  'runtime/capture.ts',
  'runtime/reload.ts',
  'runtime/site-gen.ts',
];

/**
 * A site's browser scripts bundle these modules' TypeScript source from src/ (see `browserModule`): fails unless
 * package.json "files" ships every module they reach.
 */
async function checkBrowserSources() {
  const { build } = await import('esbuild');
  const { metafile } = await build({
    entryPoints: BROWSER_ENTRIES.map((entry) => join(src, entry)),
    bundle: true,
    write: false,
    outdir: join(root, 'unused'),
    platform: 'browser',
    format: 'esm',
    packages: 'external',
    jsx: 'automatic',
    metafile: true,
    absWorkingDir: root,
    logLevel: 'silent',
  });
  const shipped = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).files ?? [];
  const missing = Object.keys(metafile.inputs).filter(
    (input) => !shipped.some((entry) => input === entry || input.startsWith(`${entry}/`)),
  );
  if (missing.length > 0)
    throw new BuildFailure(
      `A site's browser scripts bundle ${missing.join(', ')}, which package.json "files" does not ship. Add them to "files".`,
    );
}

/**
 * The public entry's declarations (lib/index.d.ts and every module it reaches), by tsc: TypeScript 7's native compiler
 * emits them (`--emitDeclarationOnly`). Their relative imports are renamed like the JavaScript's, so a site's
 * TypeScript finds lib/x.d.ts for `./x.js`.
 */
function emitDeclarations(outdir, strict) {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.package.json'), '--outDir', outdir], {
    cwd: root,
    encoding: 'utf8',
  });
  // tsc emits even when it finds a type error. A release (strict) fails on one; a checkout's next command runs anyway,
  // as it did before the tool was compiled ahead of time (type errors are npm test's type-check stage to report).
  if (result.status !== 0 && (strict || !existsSync(join(outdir, 'index.d.ts'))))
    throw new BuildFailure(
      `tsc could not emit the declarations (tsconfig.package.json):\n${result.stdout}${result.stderr}`,
    );
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.d.ts')) {
        const text = readFileSync(path, 'utf8');
        const renamed = text.replace(
          /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
          (_, before, quote, specifier) => `${before}${quote}${jsSpecifier(specifier)}${quote}`,
        );
        if (renamed !== text) writeFileSync(path, renamed);
      }
    }
  };
  walk(outdir);
}

/**
 * Builds into a folder of its own, then swaps it in for lib/, so a command starting meanwhile runs the old build or
 * the new one, never half of one.
 */
export async function buildPackage({ strict = true, ifStale = false } = {}) {
  const stamp = sourcesStamp();
  const temp = `${lib}.tmp-${process.pid}`;
  const old = `${lib}.old-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  try {
    await compileJavaScript(temp);
    await checkBrowserSources();
    emitDeclarations(temp, strict);
    writeFileSync(join(temp, STAMP), stamp);
    // Commands started together after an edit each rebuild; the first swaps its build in, the others keep it rather
    // than swap again under a command already running.
    if (!(ifStale && libIsCurrent())) {
      if (existsSync(lib)) renameSync(lib, old);
      renameSync(temp, lib);
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
  return { files: countFiles(lib) };
}

function countFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, entry) => n + (entry.isDirectory() ? countFiles(join(dir, entry.name)) : 1),
    0,
  );
}

/** For bin/site-gen.js in a checkout: rebuilds lib/ when a source changed since it was built, quietly. */
export async function buildIfStale() {
  if (!libIsCurrent()) await buildPackage({ strict: false, ifStale: true });
}

const invoked = process.argv[1] && pathToFileURL(resolve(process.argv[1])).href === import.meta.url;
if (invoked) {
  const started = performance.now();
  try {
    if (process.argv.includes('--if-stale')) await buildIfStale();
    else {
      const { files } = await buildPackage();
      const ms = Math.round(performance.now() - started);
      console.log(`site-gen: built ${relative(process.cwd(), lib) || lib}${sep} (${files} files) in ${ms} ms`);
    }
  } catch (error) {
    if (!(error instanceof BuildFailure)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
