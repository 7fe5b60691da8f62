// bin/site-gen.js: a thin door into lib/. It refuses an old Node, loads only what a command uses, and prints the
// version from package.json.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/site-gen.js');

const bin = suite('bin/site-gen.js');

/**
 * The packages a command imports, by name (logged by a resolve hook), once lib/ is current (the first call rebuilds it in a checkout after an edit). A command that keeps
 * running (serve) is stopped once its output matches `until`.
 */
async function packagesLoaded(args: string[], until?: RegExp): Promise<Set<string>> {
  const hook = `export async function resolve(s, c, next) { if (!/^(\\.|\\/|node:|file:|data:)/.test(s)) process.stderr.write('package: ' + s + '\\n'); return next(s, c); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  spawnSync(process.execPath, [BIN, '--version'], { cwd: ROOT });
  const child = spawn(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args],
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
  'css-select',
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
    assert.ok(loaded.has('mime'), 'the hook sees the server serve loads');
    for (const name of HEAVY) assert.not.ok(loaded.has(name), `site-gen serve loads ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
bin('--version prints the version in package.json', () => {
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const result = spawnSync(process.execPath, [BIN, '--version'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(result.status, 0, result.stderr);
  assert.is(result.stdout.trim(), version);
});

bin('refuses a Node older than 20.19, saying which it needs', () => {
  // process.versions is read-only; a preloaded module shadows it as an older Node would report it.
  const older = `Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.10.0' } });`;
  const result = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(older)}`, BIN, '--version'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.is(result.status, 1);
  assert.match(result.stderr, 'site-gen needs Node 20.19 or newer; this is Node 20.10.0');
});

bin.run();
