// Packages in code bundled for Node (the site's code, content, config): each import left as the file it resolves to,
// from the importing file's folder, React from the tool's; all resolved together after the bundle; a package that does
// not resolve named where it is imported, and found once it is installed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toolRoot } from '../../src/core/paths.ts';
import { bundleForNode, importOnce, nodeBundleOptions, ServerBundleFailure } from '../../src/pipeline/server-bundle.ts';

const test = suite<{ root: string }>('packages of code bundled for Node');

test.before.each((context) => {
  context.root = mkdtempSync(join(tmpdir(), 'site-gen-packages-'));
});

test.after.each((context) => {
  rmSync(context.root, { recursive: true, force: true });
});

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

/** A package in `folder` (a node_modules) whose `import` and `require` conditions lead to different files. */
function installPackage(root: string, folder: string, name: string, label: string): void {
  write(
    root,
    `${folder}/${name}/package.json`,
    JSON.stringify({ name, exports: { '.': { import: './esm.mjs', require: './cjs.cjs' }, './part': './part.mjs' } }),
  );
  write(root, `${folder}/${name}/esm.mjs`, `export const label = ${JSON.stringify(`${label} esm`)};\n`);
  write(root, `${folder}/${name}/cjs.cjs`, `exports.label = ${JSON.stringify(`${label} cjs`)};\n`);
  write(root, `${folder}/${name}/part.mjs`, `export const part = ${JSON.stringify(`${label} part`)};\n`);
}

const url = (root: string, file: string) => pathToFileURL(join(root, file)).href;

async function bundle(root: string, entry: string): Promise<string> {
  const { code } = await bundleForNode(nodeBundleOptions({ file: join(root, entry) }, root));
  return code;
}

test('each import is the file it resolves to from its own folder, by import or require', async ({ root }) => {
  installPackage(root, 'node_modules', 'shelf', 'root');
  installPackage(root, 'src/vendored/node_modules', 'shelf', 'nested');
  write(root, 'src/a/deep/one.ts', `export { label as one } from 'shelf';\nexport { part } from 'shelf/part';\n`);
  write(root, 'src/vendored/two.ts', `export { label as two } from 'shelf';\n`);
  write(root, 'src/required.cts', `module.exports = require('shelf').label;\n`);
  write(
    root,
    'src/entry.ts',
    `export * from './a/deep/one.ts';\nexport * from './vendored/two.ts';\nexport { jsx } from 'react/jsx-runtime';\n`,
  );
  const code = await bundle(root, 'src/entry.ts');
  assert.not.match(code, 'site-gen-package:', 'every token replaced');
  assert.ok(code.includes(JSON.stringify(url(root, 'node_modules/shelf/esm.mjs'))), 'import: the root copy, esm');
  assert.ok(code.includes(JSON.stringify(url(root, 'node_modules/shelf/part.mjs'))), 'a subpath export');
  const required = await bundle(root, 'src/required.cts');
  assert.ok(required.includes(JSON.stringify(url(root, 'node_modules/shelf/cjs.cjs'))), 'require: the cjs file');
  assert.ok(
    code.includes(JSON.stringify(url(root, 'src/vendored/node_modules/shelf/esm.mjs'))),
    'the folder with its own node_modules gets its own copy',
  );
  assert.ok(
    code.includes(JSON.stringify(pathToFileURL(join(toolRoot, 'node_modules/react/jsx-runtime.js')).href)),
    "React: the tool's copy",
  );

  const loaded = await importOnce<Record<string, unknown>>(code, join(root, 'cache'), 'packages');
  assert.equal(
    [loaded.one, loaded.part, loaded.two, typeof loaded.jsx],
    ['root esm', 'root part', 'nested esm', 'function'],
    'Node loads the files the bundle names',
  );
});

test('a package that does not resolve is named where it is imported, and found once installed', async ({ root }) => {
  write(root, 'src/entry.ts', `export { label } from 'shelf';\n\nexport { missing } from 'not-installed-anywhere';\n`);
  installPackage(root, 'node_modules', 'shelf', 'root');
  try {
    await bundle(root, 'src/entry.ts');
    assert.unreachable('the bundle should have failed');
  } catch (error) {
    assert.instance(error, ServerBundleFailure);
    assert.is((error as ServerBundleFailure).messages.length, 1, 'one error: the package that is missing');
    assert.match((error as Error).message, /src\/entry\.ts:3:\d+: Could not resolve "not-installed-anywhere"/);
  }

  installPackage(root, 'node_modules', 'not-installed-anywhere', 'late');
  write(root, 'node_modules/not-installed-anywhere/esm.mjs', 'export const missing = "installed since";\n');
  const code = await bundle(root, 'src/entry.ts');
  assert.ok(code.includes(JSON.stringify(url(root, 'node_modules/not-installed-anywhere/esm.mjs'))));
  const loaded = await importOnce<Record<string, unknown>>(code, join(root, 'cache'), 'packages');
  assert.equal([loaded.label, loaded.missing], ['root esm', 'installed since']);
});

test.run();
