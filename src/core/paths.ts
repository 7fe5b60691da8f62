// Where things are: the tool's own files, and the conventional layout of a site project.
import { existsSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The folder of the tool's modules: lib/ as installed (compiled ahead of time by scripts/build-package.js), src/ when
 * the tool runs from source (under tsx, as the unit tests run it). Its modules end in `.js` or `.ts` accordingly.
 */
const codeDir = resolve(here, '..');
const codeExt = extname(fileURLToPath(import.meta.url));

/** The folder site-gen itself is installed in: its package.json, bin/, lib/ (this repository, in a checkout). */
export const toolRoot = resolve(codeDir, '..');

/** One of the tool's own modules by its path without extension (`cli/main`), as the running tool has it. */
export function toolModule(name: string): string {
  return join(codeDir, `${name}${codeExt}`);
}

/**
 * One of the tool's modules that a site's browser scripts bundle (`runtime/start`), as TypeScript source in src/: the
 * package ships these (package.json "files"; scripts/build-package.js checks that it ships all they import). Source,
 * not lib/'s JavaScript, so a site's scripts are the same bytes however the tool runs: esbuild's minifier names
 * variables by the characters of its input, type annotations included, and its hashes by the inputs' paths.
 */
export function browserModule(name: string): string {
  return join(toolRoot, 'src', `${name}.ts`);
}

/**
 * The public entry, what a site imports as `site-gen-ssg`, as the running tool has loaded it: what the site's code
 * run by Node imports, so the renderer and the site's pages share one instance (one island registry, one base context).
 */
export const publicEntry = toolModule('index');

/** The public entry as the site's browser scripts bundle it. */
export const browserEntry = browserModule('index');

/** What `site-gen-ssg` is for a behaviour module in the browser: the public API without React. */
export const behaviourEntry = browserModule('runtime/site-gen');

export interface ProjectPaths {
  root: string;
  config: string;
  content: string;
  contentSchema: string;
  routes: string;
  islands: string;
  /** Behaviours: islands without React (src/site/behaviours/). */
  behaviours: string;
  /** The site's error screen, src/site/error.tsx (optional; without extension, see `findModule`). */
  errorScreen: string;
  /** The site's head hook, src/site/head.ts (optional; without extension, see `findModule`). */
  head: string;
  stylesheet: string;
  template: string;
  public: string;
  /**
   * What site-gen keeps between builds and its scratch files: the site's own node_modules/.cache/site-gen, never the
   * tool's folder (which may be read-only: a global install, a CI cache, pnpm's store).
   */
  cache: string;
}

export function projectPaths(configFile: string): ProjectPaths {
  const config = resolve(configFile);
  const root = dirname(config);
  return {
    root,
    config,
    content: join(root, 'content'),
    contentSchema: join(root, 'content/schema.ts'),
    routes: join(root, 'src/site/routes.tsx'),
    islands: join(root, 'src/site/islands'),
    behaviours: join(root, 'src/site/behaviours'),
    errorScreen: join(root, 'src/site/error'),
    head: join(root, 'src/site/head'),
    stylesheet: join(root, 'src/site/styles/main.css'),
    template: join(root, 'templates/document.html'),
    public: join(root, 'public'),
    cache: join(root, 'node_modules/.cache/site-gen'),
  };
}

/** The module file at `base` with whichever extension it has (.tsx, .ts, .jsx, .js), or undefined when there is none. */
export function findModule(base: string): string | undefined {
  return ['.tsx', '.ts', '.jsx', '.js'].map((ext) => base + ext).find((file) => existsSync(file));
}
