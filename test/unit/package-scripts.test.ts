// The npm scripts a newcomer runs first: each one that runs site-gen must work on a fresh clone, without npm link.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const root = path.resolve(import.meta.dirname, '../..');
const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

const npmScripts = suite('npm scripts');

npmScripts("call the CLI as node bin/site-gen.js: npm never puts a package's own bin on its scripts' PATH", () => {
  const naming = Object.entries(scripts).filter(([, command]) => /\bsite-gen\b/.test(command));
  assert.ok(naming.length >= 4, 'start, build, serve and watch run site-gen');
  for (const [name, command] of naming) {
    for (const step of command.split(/&&|\|\||;/)) {
      assert.not.match(
        step.trim(),
        /^(npx\s+)?site-gen\b/,
        `"${name}": "${command}" runs a bare site-gen, which fails on a fresh clone`,
      );
    }
  }
});

npmScripts('npm run build, serve and watch reach site-gen (each asked for its --help)', () => {
  for (const name of ['build', 'serve', 'watch']) {
    const result = spawnSync('npm', ['run', '--silent', name, '--', '--help'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.is(result.status, 0, `npm run ${name} -- --help failed: ${result.stderr}`);
    assert.match(result.stdout, new RegExp(`Usage: site-gen ${name}`), `npm run ${name} runs site-gen ${name}`);
  }
});

npmScripts.run();
