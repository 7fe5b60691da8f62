// `site-gen new <dir>` outside this repository: the site it writes type-checks, builds, serves and passes its own
// smoke test, with its dependencies linked into its node_modules (test/unit/package.test.ts installs the tarball).
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageProblems } from '../../scripts/package-contents.js';
import { createSite } from '../../src/cli/new.ts';

const run = promisify(execFile);
const repo = resolve('.');
const cli = join(repo, 'bin/site-gen.js');

async function exec(
  file: string,
  args: string[],
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const scratch = { dir: '', site: '' };
const created = suite('site-gen new');

created.before(async () => {
  scratch.dir = mkdtempSync(join(tmpdir(), 'site-gen-new-'));
  scratch.site = join(scratch.dir, 'my-site');
});

created.after(() => rmSync(scratch.dir, { recursive: true, force: true }));

created(
  'writes config, content, pages, a Markdown collection, one island, a stylesheet, a template and a smoke test',
  async () => {
    const { code, stdout, stderr } = await exec(process.execPath, [cli, 'new', 'my-site'], scratch.dir);
    assert.is(code, 0, stderr);
    assert.match(stdout, 'Created my-site/ with 18 files.');
    assert.match(stdout, 'npm install');
    for (const file of [
      'site.config.ts',
      'content/schema.ts',
      'content/copy.ts',
      'src/site/routes.tsx',
      'src/site/pages/home.tsx',
      'src/site/pages/post.tsx',
      'src/site/pages/posts.tsx',
      'content/posts/hello-world.md',
      'content/posts/second-post.md',
      'src/site/islands/counter.tsx',
      'src/site/styles/main.css',
      'templates/document.html',
      'public/favicon.svg',
      'test/smoke.test.js',
      'tsconfig.json',
      '.gitignore',
    ]) {
      assert.ok(readFileSync(join(scratch.site, file), 'utf8').length > 0, `${file} is written`);
    }
    assert.ok(readFileSync(join(scratch.site, 'content/posts/harbour.jpg')).length > 10_000, 'the photo is written');
  },
);

created(
  "its package.json depends on site-gen-ssg by this tool's version, with TypeScript and the type packages",
  () => {
    const pkg = JSON.parse(readFileSync(join(scratch.site, 'package.json'), 'utf8'));
    const tool = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    assert.is(pkg.name, 'my-site');
    assert.is(pkg.type, 'module');
    assert.is(pkg.dependencies['site-gen-ssg'], `^${tool.version}`, 'by version, never by a path');
    for (const name of ['react', 'zod']) assert.is(pkg.dependencies[name], tool.dependencies[name], name);
    for (const name of ['typescript', '@types/react', '@types/react-dom', '@types/node'])
      assert.is(pkg.devDependencies[name], tool.devDependencies[name], name);
    assert.is(pkg.scripts.build, 'site-gen build');
    assert.is(pkg.scripts.test, 'node --test test/');
  },
);

created('the site imports only `site-gen-ssg`, type-checks, builds, serves and passes its own smoke test', async () => {
  // What `npm install` does, by links: site-gen-ssg is this checkout, each other package the repository's copy (the
  // same versions). test/unit/package.test.ts installs the packed tarball for real.
  const pkg = JSON.parse(readFileSync(join(scratch.site, 'package.json'), 'utf8'));
  for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]) {
    mkdirSync(dirname(join(scratch.site, 'node_modules', name)), { recursive: true });
    symlinkSync(
      name === 'site-gen-ssg' ? repo : join(repo, 'node_modules', name),
      join(scratch.site, 'node_modules', name),
      'dir',
    );
  }
  const tsc = await exec(
    process.execPath,
    [join(repo, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.'],
    scratch.site,
  );
  assert.is(tsc.code, 0, `tsc resolves 'site-gen-ssg' and the site type-checks:\n${tsc.stdout}${tsc.stderr}`);
  const smoke = await exec(process.execPath, ['--test', 'test/'], scratch.site);
  assert.is(smoke.code, 0, `npm test (node --test test/) passes:\n${smoke.stdout}${smoke.stderr}`);
  assert.match(smoke.stdout, /# pass 1\n# fail 0/);
});

created('a folder that is not empty is refused, naming it and what to do', async () => {
  const busy = join(scratch.dir, 'busy');
  mkdirSync(busy);
  writeFileSync(join(busy, 'notes.txt'), 'mine');
  const { code, stderr } = await exec(process.execPath, [cli, 'new', 'busy'], scratch.dir);
  assert.is(code, 1);
  assert.match(stderr, 'busy already exists and is not empty. Choose a new folder');
  assert.is(readFileSync(join(busy, 'notes.txt'), 'utf8'), 'mine', 'nothing is overwritten');
});

created('copies the scaffold without a node_modules left in it, which the package does not ship either', () => {
  // A build run inside the scaffold leaves its cache in the scaffold's node_modules: not the site's to start with.
  const from = join(scratch.dir, 'scaffold-copy');
  cpSync(join(repo, 'src/cli/scaffold'), from, { recursive: true });
  mkdirSync(join(from, 'node_modules/.cache/site-gen/pages'), { recursive: true });
  writeFileSync(join(from, 'node_modules/.cache/site-gen/pages/pack.bin'), 'a page cache');
  const files = createSite(join(scratch.dir, 'from-copy'), from);
  assert.is(files.length, 18, files.join('\n'));
  assert.not.ok(existsSync(join(scratch.dir, 'from-copy/node_modules')), 'no node_modules is copied');
  assert.equal(packageProblems(['bin/site-gen.js', 'src/cli/scaffold/node_modules/.cache/site-gen/pages/pack.bin']), [
    "ships src/cli/scaffold/node_modules/.cache/site-gen/pages/pack.bin, from a node_modules folder left in the tool's own folder (delete it, then pack again)",
    ...packageProblems(['bin/site-gen.js']),
  ]);
});

created.run();
