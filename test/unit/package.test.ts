// The package as a stranger gets it: `npm pack`, the tarball installed into an empty folder outside this checkout,
// `site-gen new .`, then the new site's install, build, type-check and tests. Fails if the tarball ships a file of
// this repository's own site, or if anything in the installed package is added or changed after its install.
// npm's cache (filled by `npm ci`) serves the dependencies.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageProblems, parsePackJson } from '../../scripts/package-contents.js';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund'];

async function exec(file: string, args: string[], cwd: string): Promise<{ stdout: string; ms: number }> {
  const started = performance.now();
  try {
    const { stdout } = await run(file, args, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return { stdout, ms: performance.now() - started };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

/** Every file under `dir` with its size and modification time: what "nothing changed" is checked against. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(path);
        files.set(relative(dir, path), `${size} ${mtimeMs}`);
      }
    }
  };
  walk(dir);
  return files;
}

/**
 * A script rendering bodies with code through the installed package's worker (forced on) that prints how many blocks
 * the worker rendered or highlighted. A file: a worker inherits the process's flags, and a file refuses `--input-type`.
 */
const workerCheck = (installed: string) => `
  const { renderBodies } = await import(${JSON.stringify(pathToFileURL(join(installed, 'lib/content/markdown-pool.js')).href)});
  const { parseMarkdown, renderParsed } = await import(${JSON.stringify(pathToFileURL(join(installed, 'lib/content/markdown.js')).href)});
  const bodies = [1, 2, 3].map((i) => ({ file: '/entry.md', bodyLine: 1, body: '~~~ts\\nconst a = ' + i + ';\\n~~~\\n' }));
  const renderHere = (i, highlighter) => renderParsed(parseMarkdown(bodies[i].body, { ...bodies[i], readImage() {} }), highlighter);
  const { onWorker } = await renderBodies(bodies, { languages: ['ts'], renderHere, workerFrom: 0 });
  console.log('done on the worker: ' + (onWorker.blocks + onWorker.bodies));
`;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const scratch = { dir: '' };
const packaged = suite('the npm package');

packaged.before(() => {
  scratch.dir = mkdtempSync(join(tmpdir(), 'site-gen-package-'));
});

packaged.after(() => {
  // The installed package was made read-only; give write back so it can be removed.
  if (scratch.dir) {
    chmodSync(scratch.dir, 0o755);
    run('chmod', ['-R', 'u+w', scratch.dir]).finally(() => rmSync(scratch.dir, { recursive: true, force: true }));
  }
});

packaged(
  'packs the tool alone, installs anywhere, and its new site builds, type-checks and passes its tests',
  async () => {
    const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', scratch.dir], repo);
    const pack = parsePackJson(stdout);
    assert.equal(
      packageProblems(pack.files.map((f) => f.path)),
      [],
      "the tarball ships the tool, its types and its scaffold, and no file of this repository's site, tests or scripts",
    );
    const tarball = join(scratch.dir, pack.filename);

    // An empty folder outside the checkout, as getting-started begins: install the package, then `site-gen new .`.
    const site = join(scratch.dir, 'my-site');
    mkdirSync(site);
    const install = await exec('npm', ['install', ...NPM_FLAGS, tarball], site);
    const installed = join(site, 'node_modules/site-gen-ssg');
    const before = snapshot(installed);
    await run('chmod', ['-R', 'a-w', installed]);

    const created = await exec(join(site, 'node_modules/.bin/site-gen'), ['new', '.'], site);
    assert.match(created.stdout, /Created \.\/ with 18 files\./, "the files new wrote: not npm's package-lock.json");
    const pkg = JSON.parse(readFileSync(join(site, 'package.json'), 'utf8'));
    assert.ok(pkg.devDependencies.typescript, 'the site has TypeScript of its own');
    const completed = await exec('npm', ['install', ...NPM_FLAGS], site);

    const build = await exec('npm', ['run', 'build'], site);
    assert.match(build.stdout, /Built \d+ pages?, \d+ files into dist\//);
    // The scaffold's two entries render on the main thread alone: the installed worker is checked apart, forced on.
    writeFileSync(join(scratch.dir, 'worker-check.mjs'), workerCheck(installed));
    const worker = await exec(process.execPath, [join(scratch.dir, 'worker-check.mjs')], site);
    assert.match(worker.stdout, /^done on the worker: [1-9]/, 'the installed package renders on its worker');
    await exec('npx', ['--no-install', 'tsc', '--noEmit'], site);
    const tested = await exec('npm', ['test'], site);
    assert.match(tested.stdout, /# pass 1\n# fail 0/);

    const after = snapshot(installed);
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
    assert.equal(changed, [], 'nothing in the installed package is added or changed by new, build or test');

    // A new site in a fresh folder depends on the package by version, never by a path.
    await exec(join(site, 'node_modules/.bin/site-gen'), ['new', join(scratch.dir, 'fresh')], scratch.dir);
    const fresh = JSON.parse(readFileSync(join(scratch.dir, 'fresh/package.json'), 'utf8'));
    const version = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version;
    assert.is(fresh.dependencies['site-gen-ssg'], `^${version}`);

    console.log(
      `\n  tarball ${(pack.size / 1024).toFixed(0)} KB (${(pack.unpackedSize / 1024).toFixed(0)} KB unpacked), ${pack.entryCount} files;` +
        ` new site: npm install ${seconds(install.ms)} (+ ${seconds(completed.ms)} after site-gen new), npm run build ${seconds(build.ms)}`,
    );
  },
);

packaged.run();
