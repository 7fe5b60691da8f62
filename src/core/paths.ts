// Where things are: the tool's own files, and the conventional layout of a site project.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Set by the tool's compile (src/tool/compile.js) to the way from the compiled modules' folder to the tool's folder;
 * undefined when the tool runs from source (under tsx, as the unit tests run it).
 */
declare const SITE_GEN_TOOL_ROOT: string | undefined;

const here = dirname(fileURLToPath(import.meta.url));
const compiled = typeof SITE_GEN_TOOL_ROOT === 'string';

/** The folder site-gen itself is installed in (this repository). */
export const toolRoot = compiled ? resolve(here, SITE_GEN_TOOL_ROOT) : resolve(here, '../..');

/** The public entry's source: what a site imports as `site-gen`, bundled into the browser's scripts. */
export const publicEntry = join(toolRoot, 'src/index.ts');

/**
 * The public entry as the running tool has loaded it: what a site's code run by Node imports as `site-gen`, so the
 * renderer and the site's pages share one instance (one island registry, one base context). The compiled index.js
 * beside this module when the tool runs compiled, the source when it runs under tsx.
 */
export const loadedPublicEntry = compiled ? join(here, 'index.js') : publicEntry;

/** What `site-gen` is for a behaviour module in the browser: the public API without React. */
export const behaviourEntry = join(toolRoot, 'src/runtime/site-gen.ts');

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
  /** Scratch space for bundles the build imports (inside the tool so `react` resolves to the tool's copy). */
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
    cache: join(toolRoot, 'node_modules/.cache/site-gen'),
  };
}

/** The module file at `base` with whichever extension it has (.tsx, .ts, .jsx, .js), or undefined when there is none. */
export function findModule(base: string): string | undefined {
  return ['.tsx', '.ts', '.jsx', '.js'].map((ext) => base + ext).find((file) => existsSync(file));
}
