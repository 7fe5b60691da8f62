// Where things are: the tool's own files, and the conventional layout of a site project.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder site-gen itself is installed in (this repository). */
export const toolRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Modules that must be one instance shared by the tool and the site's bundled code. */
export const sharedModules = [join(toolRoot, 'src/island.tsx'), join(toolRoot, 'src/base.ts')];

export interface ProjectPaths {
  root: string;
  config: string;
  content: string;
  contentSchema: string;
  routes: string;
  islands: string;
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
    stylesheet: join(root, 'src/site/styles/main.css'),
    template: join(root, 'templates/document.html'),
    public: join(root, 'public'),
    cache: join(toolRoot, 'node_modules/.cache/site-gen'),
  };
}
