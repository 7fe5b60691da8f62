#!/usr/bin/env node
// Cuts a release, short of publishing it: bumps the version, moves CHANGELOG.md's "Unreleased" entries under it, runs
// the tests, packs the tarball and checks what it ships. Publishing stays a person's step (see docs/releasing.md).
//
//   npm run release [-- patch|minor|major|<x.y.z>]     default: patch
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageProblems, parsePackJson } from './package-contents.js';

const root = join(import.meta.dirname, '..');
const fail = (message) => {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
};

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const asked = process.argv[2] ?? 'patch';
const [major, minor, patch] = manifest.version.split('.').map(Number);
const next =
  { major: `${major + 1}.0.0`, minor: `${major}.${minor + 1}.0`, patch: `${major}.${minor}.${patch + 1}` }[asked] ??
  (/^\d+\.\d+\.\d+$/.test(asked) ? asked : undefined);
if (!next) fail(`"${asked}" is not a version: give patch, minor, major or a version such as 1.2.3.`);

const status = execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8' });
if (status.trim())
  fail('the working tree has uncommitted changes; commit or stash them, then run npm run release again.');

const changelogFile = join(root, 'CHANGELOG.md');
const changelog = readFileSync(changelogFile, 'utf8');
const unreleased = /^## \[Unreleased\]\n([\s\S]*?)(?=^## \[)/m.exec(changelog);
if (!unreleased) fail('CHANGELOG.md has no "## [Unreleased]" section above the last version.');
if (!unreleased[1].trim())
  fail('CHANGELOG.md\'s "Unreleased" section is empty: write what this version changes there first.');
if (changelog.includes(`## [${next}]`)) fail(`CHANGELOG.md already has a section for ${next}.`);

// The version: package.json and package-lock.json, without npm's commit and tag (the person releasing makes them).
execFileSync('npm', ['version', next, '--no-git-tag-version'], { cwd: root, stdio: 'inherit' });
const date = new Date().toISOString().slice(0, 10);
writeFileSync(changelogFile, changelog.replace('## [Unreleased]\n', `## [Unreleased]\n\n## [${next}] - ${date}\n`));
console.log(`release: ${manifest.version} -> ${next}; CHANGELOG.md's Unreleased entries are now under [${next}].`);

const tests = spawnSync('npm', ['test'], { cwd: root, stdio: 'inherit' });
if (tests.status !== 0)
  fail(
    `npm test failed: fix it, then undo the bump (git checkout package.json package-lock.json CHANGELOG.md) and run again.`,
  );

const stdout = execFileSync('npm', ['pack', '--json'], { cwd: root, encoding: 'utf8' });
const pack = parsePackJson(stdout);
const problems = packageProblems(pack.files.map((file) => file.path));
if (problems.length > 0) fail(`the tarball ${pack.filename}:\n  ${problems.join('\n  ')}`);
console.log(
  [
    `release: packed ${pack.filename}: ${(pack.size / 1024).toFixed(0)} KB, ${pack.entryCount} files, the whitelist checked.`,
    'Next, by hand (see docs/releasing.md):',
    `  git commit -am "Release ${next}" && git tag v${next}`,
    `  npm publish ${pack.filename}`,
    '  git push --follow-tags',
  ].join('\n'),
);
