// `site-gen new <dir>`: writes a minimal working site (config, content, Markdown posts with a photo, three pages, one island, a
// stylesheet, a template, a smoke test) from src/cli/scaffold/.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { toolRoot } from '../core/paths.ts';
import { toolPackage } from '../core/package.ts';
import { UsageError } from '../core/errors.ts';

const scaffold = path.join(toolRoot, 'src/cli/scaffold');

/**
 * The new site's package.json: this tool's package by version (`^` its own), the packages the site's code imports
 * itself (React, zod) and TypeScript with the type packages, all at the versions this tool is built and checked with,
 * and a script for each command.
 */
export function sitePackage(dir: string, existing: SitePackageJson = {}): string {
  const name =
    path
      .basename(path.resolve(dir))
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[._-]+/, '') || 'my-site';
  const tool = toolPackage();
  const pick = (from: Record<string, string>, names: string[]) =>
    Object.fromEntries(
      names.map((dependency) => {
        const version = from[dependency];
        if (!version)
          throw new Error(`${tool.name}'s package.json lists no ${dependency}: a new site needs its version.`);
        return [dependency, version];
      }),
    );
  const pkg = {
    ...existing,
    name: existing.name ?? name,
    private: true,
    type: 'module',
    scripts: {
      ...existing.scripts,
      build: 'site-gen build',
      serve: 'site-gen serve',
      watch: 'site-gen watch',
      deploy: 'site-gen deploy',
      typecheck: 'tsc --noEmit',
      test: 'node --test test/',
    },
    // What the folder already lists wins: `npm install site-gen-ssg` wrote its own range (or a tarball's path).
    dependencies: {
      [tool.name]: `^${tool.version}`,
      ...pick(tool.dependencies, ['react', 'zod']),
      ...existing.dependencies,
    },
    devDependencies: {
      ...pick(tool.devDependencies, ['@types/node', '@types/react', '@types/react-dom', 'typescript']),
      ...existing.devDependencies,
    },
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

interface SitePackageJson {
  name?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** What `npm install site-gen-ssg` leaves in a folder: `site-gen new .` writes the site beside it. */
const NPM_FILES = new Set(['package.json', 'package-lock.json', 'node_modules']);

/**
 * Writes the site into `dir`, which must not exist, or be empty, or hold only what `npm install` leaves (its
 * package.json is kept and completed); returns the files written, relative to it. `from`: the scaffold (tests give
 * a copy of it).
 */
export function createSite(dir: string, from = scaffold): string[] {
  const target = path.resolve(dir);
  const present = existsSync(target) ? readdirSync(target) : [];
  if (present.some((name) => !NPM_FILES.has(name))) {
    throw new UsageError(
      `${dir} already exists and is not empty. Choose a new folder, e.g. \`site-gen new my-site\`, or empty it first.`,
    );
  }
  const manifest = path.join(target, 'package.json');
  let existing: SitePackageJson = {};
  if (present.includes('package.json')) {
    try {
      existing = JSON.parse(readFileSync(manifest, 'utf8')) as SitePackageJson;
    } catch (error) {
      throw new UsageError(
        `${path.join(dir, 'package.json')} is not valid JSON (${(error as Error).message}). Fix or delete it, then run site-gen new again.`,
      );
    }
  }
  mkdirSync(target, { recursive: true });
  // The scaffold as shipped: a node_modules left in it (a build run inside it) is never copied into a new site.
  const shipped = path.join(from, 'node_modules');
  cpSync(from, target, { recursive: true, filter: (source) => source !== shipped });
  // Stored without its dot, so that nothing treats the scaffold itself as ignoring files.
  renameSync(path.join(target, 'gitignore'), path.join(target, '.gitignore'));
  writeFileSync(manifest, sitePackage(dir, existing));
  // What npm left there is not the site's, but its package.json is: completed above.
  const npms = new Set(present.filter((name) => name !== 'package.json').map((name) => path.join(target, name)));
  return listFiles(target, npms)
    .map((file) => path.relative(target, file).split(path.sep).join('/'))
    .sort();
}

function listFiles(dir: string, skip: ReadonlySet<string>): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (skip.has(file)) return [];
    return entry.isDirectory() ? listFiles(file, skip) : [file];
  });
}

export function addNewCommand(program: Command): void {
  program
    .command('new')
    .description(
      'write a minimal working site into a new folder: config, content, two Markdown posts with a photo, a home page, a posts index, one island, a stylesheet, a template and a smoke test',
    )
    .argument('<dir>', 'folder to create (must not exist, or be empty, or hold only what npm install left)')
    .action((dir: string) => {
      const files = createSite(dir);
      const shown = path.relative(process.cwd(), path.resolve(dir)) || '.';
      process.stdout.write(
        [
          `Created ${shown}/ with ${files.length} files.`,
          '',
          'Next:',
          ...(shown === '.' ? [] : [`  cd ${shown}`]),
          '  npm install        installs what the site uses: site-gen, React, zod, TypeScript',
          '  npm run build      builds the site into dist/',
          '  npm run serve      serves dist/ at http://127.0.0.1:4321',
          '  npm run watch      rebuilds and reloads the browser on each save',
          '  npm run typecheck  type-checks the site (tsc --noEmit)',
          '  npm test           builds, serves and checks the home page and the posts',
          '',
        ].join('\n'),
      );
    });
}
