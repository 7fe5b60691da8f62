// What the npm package may ship: the one rule the package test and `npm run release` both check a tarball against.
// Plain JavaScript, so the release script runs it without compiling anything.

/** Files of this repository's own site, its tests and its tooling: none of them ships. */
export const NOT_SHIPPED =
  /^(src\/site\/|content\/|public\/|templates\/|test\/|bench\/|scripts\/|dist\/|site\.config\.ts$)/;

/**
 * Files every tarball must hold: the command, the compiled CLI and public entry with its types, the Markdown worker
 * (started by path, so no import reaches it), the license, the log.
 */
export const REQUIRED = [
  'bin/site-gen.js',
  'lib/cli/main.js',
  'lib/content/markdown-worker.js',
  'lib/index.js',
  'lib/index.d.ts',
  'LICENSE',
  'CHANGELOG.md',
];

/** What is wrong with a tarball's file list (paths as `npm pack --json` gives them); empty when nothing is. */
export function packageProblems(paths) {
  return [
    ...paths
      .filter((path) => NOT_SHIPPED.test(path))
      .map((path) => `ships ${path}, a file of this repository's site or tooling`),
    ...paths
      .filter((path) => path.split('/').includes('node_modules'))
      .map(
        (path) =>
          `ships ${path}, from a node_modules folder left in the tool's own folder (delete it, then pack again)`,
      ),
    ...REQUIRED.filter((path) => !paths.includes(path)).map((path) => `does not ship ${path}`),
  ];
}

/** `npm pack --json`'s output, after whatever the prepare script printed before it. */
export function parsePackJson(stdout) {
  const start = stdout.indexOf('[\n');
  if (start < 0) throw new Error(`npm pack printed no JSON:\n${stdout}`);
  return JSON.parse(stdout.slice(start))[0];
}
