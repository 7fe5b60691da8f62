// The CommonJS packages the tool calls, loaded with `require` rather than `import`. Node's ESM loader reads a CommonJS
// module's whole source for the names it exports (cjs-module-lexer) before it runs it: esbuild's 97 KB and
// browserslist's modules took 18 and 30 ms to import against 6 and 12 ms to require, on the main thread of every
// build, and the lexer ran hot enough for V8 to optimise it (80 ms more of compiling, on its own threads).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** esbuild's `build` and `context`: functions of its module, not methods, so they can be taken from it. */
export const { build, context } = require('esbuild') as typeof import('esbuild');

export const browserslist = require('browserslist') as typeof import('browserslist');
