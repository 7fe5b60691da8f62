#!/usr/bin/env node
// Entry point: registers the TypeScript loader, then hands the arguments to the CLI.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// The tool's own tsconfig, wherever the command runs: a project folder's (or none) would compile the tool's JSX wrongly.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv);
