#!/usr/bin/env node
// The site-gen command: checks the Node version, then hands the arguments to the CLI compiled ahead of time in lib/.
import { existsSync } from 'node:fs';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(
    `site-gen needs Node 20.19 or newer; this is Node ${process.versions.node}. Install a newer Node and run the command again.\n`,
  );
  process.exit(1);
}
// React's production server renderer: the same HTML as the development one, several times faster (it matters most to
// `site-gen watch`, which renders every page on each save). Set before anything imports React.
process.env.NODE_ENV ??= 'production';
// Stack traces (with --debug) name the lines of src/*.ts through lib/'s source maps.
process.setSourceMapsEnabled(true);
// In a checkout of site-gen (its sources beside bin/; the package ships none), lib/ is rebuilt first when a source
// changed, so an edit of the tool runs at the next command. An installed copy only ever reads its lib/.
if (existsSync(new URL('../src/cli/main.ts', import.meta.url))) {
  const { buildIfStale, BuildFailure } = await import('../scripts/build-package.js');
  try {
    await buildIfStale();
  } catch (error) {
    if (!(error instanceof BuildFailure)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
const { main } = await import('../lib/cli/main.js');
process.exitCode = await main(process.argv);
