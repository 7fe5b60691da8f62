// The precompiled tool (src/tool/compile.js): compiled once per state of its sources, again after any edit, published
// atomically so processes starting together all run, and bin/site-gen.js loading only what a command uses.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compiledTool, ToolCompileError, toolStamp } from '../../src/tool/compile.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const COMPILE = pathToFileURL(path.join(ROOT, 'src/tool/compile.js')).href;

/** A tool of three modules in a temporary folder, laid out like this one (src/cli/main.ts, src/index.ts). */
function fixtureTool(message = 'first'): string {
  const root = mkdtempSync(path.join(tmpdir(), 'site-gen-tool-'));
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  write('package.json', '{ "type": "module" }\n');
  write('tsconfig.json', '{ "compilerOptions": { "jsx": "react-jsx" } }\n');
  write('src/message.ts', `export const message: string = ${JSON.stringify(message)};\n`);
  write(
    'src/cli/main.ts',
    "import { message } from '../message.ts';\nexport async function main(): Promise<string> { return message; }\n",
  );
  write('src/index.ts', "export { message } from './message.ts';\n");
  write('src/site/page.tsx', 'export const page = 1;\n');
  return root;
}

/** Edits a file so its stamp changes even within the file system's time resolution (the size changes). */
function edit(root: string, file: string, text: string): void {
  writeFileSync(path.join(root, file), text);
}

const stamp = suite('toolStamp');

stamp('changes when a tool source changes, is added or is removed', () => {
  const root = fixtureTool();
  try {
    const first = toolStamp(root);
    assert.is(toolStamp(root), first, 'the same sources give the same stamp');
    edit(root, 'src/message.ts', 'export const message: string = "edited";\n');
    const edited = toolStamp(root);
    assert.is.not(edited, first, 'an edited source gives a new stamp');
    edit(root, 'src/extra.ts', 'export {};\n');
    const added = toolStamp(root);
    assert.is.not(added, edited, 'an added source gives a new stamp');
    rmSync(path.join(root, 'src/extra.ts'));
    assert.is(toolStamp(root), edited, 'removing it again gives the stamp before');
    edit(root, 'package.json', '{ "type": "module", "version": "2.0.0" }\n');
    assert.is.not(
      toolStamp(root),
      edited,
      'package.json is part of the stamp (the packages the tool is compiled against)',
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

stamp('ignores src/site, the site the tool builds', () => {
  const root = fixtureTool();
  try {
    const first = toolStamp(root);
    edit(root, 'src/site/page.tsx', 'export const page = 22;\n');
    assert.is(toolStamp(root), first, 'an edit of the site does not recompile the tool');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

stamp.run();

const compile = suite('compiledTool');

compile('compiles on first use, reuses the compile, and compiles again after an edit', async () => {
  const root = fixtureTool();
  try {
    const first = await compiledTool(root);
    assert.ok(first.compiled, 'nothing compiled yet: the first call compiles');
    assert.ok(
      first.dir.startsWith(path.join(root, 'node_modules/.cache/site-gen/tool')),
      'inside node_modules/.cache/site-gen/tool',
    );
    assert.is(await (await import(first.main)).main(), 'first', 'the compiled main runs the source');
    const again = await compiledTool(root);
    assert.is(again.compiled, false, 'unchanged sources reuse the compile');
    assert.is(again.dir, first.dir);
    edit(root, 'src/message.ts', 'export const message: string = "second";\n');
    const edited = await compiledTool(root);
    assert.ok(edited.compiled, 'an edited source compiles again');
    assert.is.not(edited.dir, first.dir, 'into a folder of its own, so a running process keeps its modules');
    assert.is(await (await import(edited.main)).main(), 'second', 'the new compile runs the edited source');
    assert.is((await import(edited.index)).message, 'second', 'and the public entry is compiled beside it');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

compile('processes starting together all get a whole tool', async () => {
  const root = fixtureTool('together');
  const script = `const { compiledTool } = await import(${JSON.stringify(COMPILE)});
    const tool = await compiledTool(${JSON.stringify(root)});
    const { main } = await import(tool.main);
    process.stdout.write(JSON.stringify({ dir: tool.dir, message: await main() }));`;
  const run = () =>
    new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (code) => resolve({ code, out, err }));
    });
  try {
    const results = await Promise.all([run(), run(), run()]);
    for (const { code, out, err } of results) {
      assert.is(code, 0, `a process failed: ${err}`);
      assert.is(JSON.parse(out).message, 'together', 'each ran the compiled tool');
    }
    assert.is(new Set(results.map((r) => JSON.parse(r.out).dir)).size, 1, 'all use the one published compile');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

compile('a syntax error in the tool names the file, line and column', async () => {
  const root = fixtureTool();
  try {
    edit(root, 'src/message.ts', 'export const message: string = ;\n');
    const error = await compiledTool(root).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.instance(error, ToolCompileError, 'a ToolCompileError, which bin prints without a stack');
    assert.match((error as Error).message, /src\/message\.ts:1:\d+: Unexpected ";"/, (error as Error).message);
    assert.match((error as Error).message, /Fix the file and run the command again/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

compile.run();

const bin = suite('bin/site-gen.js');

/**
 * The packages a command imports, by name (logged by a resolve hook), once the tool is compiled. A command that keeps
 * running (serve) is stopped once its output matches `until`.
 */
async function packagesLoaded(args: string[], until?: RegExp): Promise<Set<string>> {
  const hook = `export async function resolve(s, c, next) { if (!/^(\\.|\\/|node:|file:|data:)/.test(s)) process.stderr.write('package: ' + s + '\\n'); return next(s, c); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  spawnSync(process.execPath, [path.join(ROOT, 'bin/site-gen.js'), '--version'], { cwd: ROOT });
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, path.join(ROOT, 'bin/site-gen.js'), ...args],
    { cwd: ROOT },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
    if (until?.test(out)) child.kill('SIGTERM');
  });
  child.stderr.on('data', (d) => (err += d));
  await new Promise((resolve) => child.on('close', resolve));
  return new Set([...err.matchAll(/^package: (.+)$/gm)].map((m) => m[1]!));
}

const HEAVY = [
  'esbuild',
  'linkedom',
  'zod',
  'react',
  'react-dom/server',
  'lightningcss',
  'postcss',
  'browserslist',
  'tsx',
];

bin("--version and --help load none of the build's packages", async () => {
  for (const args of [['--version'], ['--help'], ['build', '--help']]) {
    const loaded = await packagesLoaded(args);
    assert.ok(loaded.has('commander'), `the hook sees the packages site-gen ${args.join(' ')} loads`);
    for (const name of HEAVY) assert.not.ok(loaded.has(name), `site-gen ${args.join(' ')} loads ${name}`);
  }
});

bin('serve loads its server, not the build', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-gen-serve-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
  try {
    const loaded = await packagesLoaded(['serve', '--port', '0', '--out', dir], /Serving /);
    assert.ok(loaded.has('mime'), "the hook sees the server's one package (mime, for each file's Content-Type)");
    for (const name of HEAVY) assert.not.ok(loaded.has(name), `site-gen serve loads ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

bin.run();
