// The one boundary between site-gen and the sites it builds: the generator never imports a site, and a site imports
// the generator only as `site-gen`, and only what src/index.ts exports. Checked on every file of the repository.
import { build } from 'esbuild';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as publicEntry from '../../src/index.ts';
import * as behaviourEntry from '../../src/runtime/site-gen.ts';

const repo = resolve('.');

interface Source {
  /** Path relative to the repository, with "/". */
  file: string;
  source: string;
}

interface ImportUse {
  specifier: string;
  /** Names imported from it ("island"), for `import { … }` and `export { … } from`; "default" for a default import. */
  names: string[];
}

/** Where a site lives and what belongs to it; the generator is every other file under bin/ and src/. */
const SITES = [
  { root: '', parts: ['src/site/', 'content/', 'templates/', 'public/', 'site.config.ts'] },
  { root: 'test/fixtures/basic/', parts: ['test/fixtures/basic/'] },
  { root: 'src/cli/scaffold/', parts: ['src/cli/scaffold/'] },
];
const siteOf = (file: string) => SITES.find((site) => site.parts.some((part) => file.startsWith(part)));
const isGenerator = (file: string) => (file.startsWith('bin/') || file.startsWith('src/')) && !siteOf(file);
/** Every part of every site: what no generator module may reach. */
const SITE_PARTS = SITES.flatMap((site) => site.parts);

/** The imports of a module: static, type-only, re-exports, side-effect and literal dynamic imports. Comments are ignored. */
export function importsOf(source: string): ImportUse[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  const uses: ImportUse[] = [];
  for (const m of code.matchAll(
    /(?:^|[;\s])(?:import|export)\s+(?:type\s+)?([\w*\s{},$]*?)\s*from\s*['"]([^'"]+)['"]/g,
  )) {
    uses.push({ specifier: m[2]!, names: namesOf(m[1]!) });
  }
  for (const m of code.matchAll(/(?:^|[;\s])import\s*['"]([^'"]+)['"]/g)) uses.push({ specifier: m[1]!, names: [] });
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) uses.push({ specifier: m[1]!, names: [] });
  return uses;
}

function namesOf(clause: string): string[] {
  const names: string[] = [];
  const braces = clause.match(/\{([^}]*)\}/);
  const outside = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, ' ')
    .trim();
  if (outside && !outside.startsWith('*')) names.push('default');
  for (const part of braces?.[1]?.split(',') ?? []) {
    const name = part
      .trim()
      .replace(/^type\s+/, '')
      .split(/\s+as\s+/)[0]!
      .trim();
    if (name) names.push(name);
  }
  return names;
}

/** What the public entry exports, and what its React-free face gives a behaviour module in the browser. */
export interface Exported {
  all: ReadonlySet<string>;
  behaviours: ReadonlySet<string>;
}

/** Every rule the import graph breaks, one line each naming the file, the import and the rule. */
export function boundaryViolations(sources: Source[], exported: Exported): string[] {
  const problems: string[] = [];
  for (const { file, source } of sources) {
    const site = siteOf(file);
    for (const use of importsOf(source)) {
      const relativeImport = use.specifier.startsWith('.');
      const target = relativeImport
        ? relative(repo, resolve(repo, dirname(file), use.specifier))
            .split('\\')
            .join('/')
        : undefined;
      if (isGenerator(file)) {
        if (target && SITE_PARTS.some((part) => target.startsWith(part)))
          problems.push(`${file}: imports "${use.specifier}", a file of a site; the generator never imports a site.`);
        continue;
      }
      if (!site) continue;
      if (target !== undefined) {
        const inside =
          site.root === '' ? site.parts.some((part) => target.startsWith(part)) : target.startsWith(site.root);
        if (!inside)
          problems.push(`${file}: imports "${use.specifier}", outside its site; import site-gen as 'site-gen-ssg'.`);
      } else if (use.specifier.startsWith('site-gen-ssg/')) {
        problems.push(`${file}: imports "${use.specifier}"; a site imports site-gen only as 'site-gen-ssg'.`);
      } else if (use.specifier === 'site-gen-ssg' && file.startsWith(`${site.root}src/site/behaviours/`)) {
        for (const name of use.names.filter((n) => !exported.behaviours.has(n))) {
          problems.push(
            `${file}: imports "${name}" from 'site-gen-ssg'; a behaviour runs without React, and in the browser 'site-gen-ssg' gives it only what src/runtime/site-gen.ts exports.`,
          );
        }
      } else if (use.specifier === 'site-gen-ssg') {
        for (const name of use.names.filter((n) => !exported.all.has(n)))
          problems.push(`${file}: imports "${name}" from 'site-gen-ssg', which src/index.ts does not export.`);
      }
    }
  }
  return problems;
}

/** Where a relative import of `file` lands, relative to the repository with "/"; undefined for a package or node:. */
function targetOf(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(repo, resolve(repo, dirname(file), specifier))
    .split('\\')
    .join('/');
}

/** The layers read bottom-up: the core imports nothing above it, and nothing below the CLI imports the CLI. */
const CORE = 'src/core/';
const BELOW_CLI = ['src/core/', 'src/pipeline/', 'src/serve/', 'src/dev/', 'src/deploy/'];

/** Every import that runs a layer the wrong way, type-only imports included, one line each. */
export function layerViolations(sources: Source[]): string[] {
  const problems: string[] = [];
  for (const { file, source } of sources) {
    for (const use of importsOf(source)) {
      const target = targetOf(file, use.specifier);
      if (target === undefined) continue; // npm packages and node: builtins are below every layer
      if (file.startsWith(CORE) && !target.startsWith(CORE)) {
        problems.push(
          `${file}: imports "${use.specifier}", outside src/core/; the core imports only itself, npm packages and node:.`,
        );
      } else if (BELOW_CLI.some((layer) => file.startsWith(layer)) && target.startsWith('src/cli/')) {
        problems.push(`${file}: imports "${use.specifier}", the CLI; only the CLI wires the layers below it together.`);
      }
    }
  }
  return problems;
}

/** The import cycles among the modules under `folder` (type-only imports too), each as "a -> b -> a". */
export function importCycles(sources: Source[], folder: string): string[] {
  const inside = sources.filter((s) => s.file.startsWith(folder));
  const known = new Set(inside.map((s) => s.file));
  const edges = new Map(
    inside.map(({ file, source }) => [
      file,
      importsOf(source)
        .map((use) => targetOf(file, use.specifier))
        .filter((target): target is string => target !== undefined && known.has(target)),
    ]),
  );
  const cycles = new Set<string>();
  const walkFrom = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at !== -1) {
      // Named from its smallest file, so one cycle found from each of its files is reported once.
      const loop = trail.slice(at);
      const first = loop.indexOf([...loop].sort()[0]!);
      const turned = [...loop.slice(first), ...loop.slice(0, first)];
      cycles.add([...turned, turned[0]].join(' -> '));
      return;
    }
    for (const next of edges.get(file) ?? []) walkFrom(next, [...trail, file]);
  };
  for (const file of known) walkFrom(file, []);
  return [...cycles].sort();
}

/** The names an entry exports, types included (they vanish at run time, so they are read from its source). */
function exportedNames(file: string, values: object): Set<string> {
  const source = readFileSync(join(repo, file), 'utf8');
  const names = new Set(Object.keys(values));
  for (const m of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of m[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1)!
        .trim();
      if (name) names.add(name);
    }
  }
  return names;
}

function walk(dir: string): string[] {
  return readdirSync(join(repo, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (name === 'node_modules' || name.startsWith('.')) return [];
    return statSync(join(repo, path)).isDirectory() ? walk(path) : /\.(tsx?|jsx?|mjs)$/.test(name) ? [path] : [];
  });
}

function repositorySources(): Source[] {
  const files = [...walk('bin'), ...walk('src'), ...walk('content'), ...walk('test/fixtures/basic'), 'site.config.ts'];
  return files.map((file) => ({ file, source: readFileSync(join(repo, file), 'utf8') }));
}

const exported: Exported = {
  all: exportedNames('src/index.ts', publicEntry),
  behaviours: exportedNames('src/runtime/site-gen.ts', behaviourEntry),
};
const boundary = suite('the boundary between site-gen and its sites');

boundary("no generator module imports a site, and the sites import only what site-gen's public entry exports", () => {
  const sources = repositorySources();
  assert.ok(
    sources.some((s) => s.file === 'src/pipeline/render.tsx') && sources.some((s) => s.file === 'src/site/routes.tsx'),
    'both sides are scanned',
  );
  assert.ok(
    sources.some((s) => s.file.startsWith('test/fixtures/basic/src/site/islands/')),
    'the fixture is scanned',
  );
  assert.equal(boundaryViolations(sources, exported), []);
});

boundary('the site and the fixture use site-gen through its name', () => {
  const byName = repositorySources().filter(
    (s) => siteOf(s.file) && importsOf(s.source).some((u) => u.specifier === 'site-gen-ssg'),
  );
  for (const file of [
    'site.config.ts',
    'src/site/islands/newsletter.tsx',
    'src/site/behaviours/enhance.ts',
    'test/fixtures/basic/site.config.ts',
    'test/fixtures/basic/src/site/islands/counter.tsx',
  ]) {
    assert.ok(
      byName.some((s) => s.file === file),
      `${file} imports 'site-gen-ssg'`,
    );
  }
});

boundary('fails on a planted violation of each rule', () => {
  const planted: Source[] = [
    { file: 'src/island.tsx', source: "import { ErrorScreen } from './site/components/ErrorScreen.tsx';" },
    {
      file: 'src/dev/error-page.tsx',
      source:
        "import errors from '../../content/errors.ts';\n// import x from '../site/ignored.ts' in a comment is no import",
    },
    { file: 'src/pipeline/document.ts', source: "const load = () => import('../../site.config.ts');" },
    { file: 'src/site/components/Hero.tsx', source: "import { withBase } from '../../base.ts';" },
    { file: 'src/site/islands/newsletter.tsx', source: "import { island, IslandBoundary } from 'site-gen-ssg';" },
    {
      file: 'test/fixtures/basic/src/site/islands/counter.tsx',
      source: "import { island } from '../../../../../../src/island.tsx';",
    },
    {
      file: 'test/fixtures/basic/site.config.ts',
      source: "export { defineConfig } from 'site-gen-ssg/src/config.ts';",
    },
    {
      file: 'src/site/behaviours/enhance.ts',
      source: "import { behaviour, useBase, type Mount } from 'site-gen-ssg';",
    },
  ];
  const problems = boundaryViolations(planted, exported);
  assert.is(problems.length, 8, problems.join('\n'));
  assert.match(
    problems[0]!,
    'src/island.tsx: imports "./site/components/ErrorScreen.tsx", a file of a site; the generator never imports a site.',
  );
  assert.match(problems[1]!, 'src/dev/error-page.tsx: imports "../../content/errors.ts"');
  assert.match(problems[2]!, 'src/pipeline/document.ts: imports "../../site.config.ts"');
  assert.match(problems[3]!, 'src/site/components/Hero.tsx: imports "../../base.ts", outside its site');
  assert.match(problems[4]!, 'imports "IslandBoundary" from \'site-gen-ssg\', which src/index.ts does not export');
  assert.match(
    problems[5]!,
    'test/fixtures/basic/src/site/islands/counter.tsx: imports "../../../../../../src/island.tsx", outside its site',
  );
  assert.match(problems[6]!, "a site imports site-gen only as 'site-gen-ssg'");
  assert.is(
    problems[7]!,
    "src/site/behaviours/enhance.ts: imports \"useBase\" from 'site-gen-ssg'; a behaviour runs without React, and in the browser 'site-gen-ssg' gives it only what src/runtime/site-gen.ts exports.",
  );
});

boundary('the layers read bottom-up: the core imports only itself, and only the CLI imports the CLI', () => {
  const sources = repositorySources();
  assert.ok(
    sources.some((s) => s.file === 'src/core/http/paths.ts') && sources.some((s) => s.file === 'src/cli/serve.ts'),
    'both ends are scanned',
  );
  assert.equal(layerViolations(sources), []);
});

boundary('the core has no import cycle, type-only imports included', () => {
  assert.equal(importCycles(repositorySources(), CORE), []);
});

boundary('fails on a planted layer violation and a planted cycle', () => {
  const planted: Source[] = [
    { file: 'src/core/http/policy.ts', source: "import { buildSite } from '../../pipeline/build.ts';" },
    { file: 'src/core/config.ts', source: "import type { DeployOptions } from '../deploy/options.ts';" },
    { file: 'src/deploy/deploy.ts', source: "import { parsePort } from '../cli/options.ts';" },
    { file: 'src/serve/server.ts', source: "const main = () => import('../cli/main.ts');" },
    // Allowed: packages, node:, the core itself, a layer importing the core or another layer, the CLI importing them.
    {
      file: 'src/core/http/paths.ts',
      source: "import mime from 'mime';\nimport { join } from 'node:path';\nimport { UsageError } from '../errors.ts';",
    },
    { file: 'src/dev/watch.ts', source: "import { writeOutput } from '../pipeline/write.ts';" },
    { file: 'src/cli/serve.ts', source: "import { createStaticServer } from '../serve/server.ts';" },
  ];
  const problems = layerViolations(planted);
  assert.is(problems.length, 4, problems.join('\n'));
  assert.is(
    problems[0],
    'src/core/http/policy.ts: imports "../../pipeline/build.ts", outside src/core/; the core imports only itself, npm packages and node:.',
  );
  assert.match(problems[1]!, 'src/core/config.ts: imports "../deploy/options.ts", outside src/core/');
  assert.is(
    problems[2],
    'src/deploy/deploy.ts: imports "../cli/options.ts", the CLI; only the CLI wires the layers below it together.',
  );
  assert.match(problems[3]!, 'src/serve/server.ts: imports "../cli/main.ts", the CLI');

  // The cycle the core once had: config.ts -> config-schema.ts -> http/policy.ts -> config.ts, through a type import.
  const cycle: Source[] = [
    { file: 'src/core/config.ts', source: "import type { configSchema } from './config-schema.ts';" },
    { file: 'src/core/config-schema.ts', source: "import { DENIED_FEATURES } from './http/policy.ts';" },
    { file: 'src/core/http/policy.ts', source: "import type { SiteConfig } from '../config.ts';" },
    { file: 'src/core/errors.ts', source: '' },
  ];
  assert.equal(importCycles(cycle, CORE), [
    'src/core/config-schema.ts -> src/core/http/policy.ts -> src/core/config.ts -> src/core/config-schema.ts',
  ]);
});

boundary('reads every form of import, and type-only names', () => {
  const uses = importsOf(
    [
      "import a, { b, type C as D } from 'x';",
      "import type { E } from 'y';",
      "export { f } from 'z';",
      "import 'side';",
      "await import('lazy');",
      "import * as ns from 'ns';",
    ].join('\n'),
  );
  assert.equal(uses, [
    { specifier: 'x', names: ['default', 'b', 'C'] },
    { specifier: 'y', names: ['E'] },
    { specifier: 'z', names: ['f'] },
    { specifier: 'ns', names: [] },
    { specifier: 'side', names: [] },
    { specifier: 'lazy', names: [] },
  ]);
});

boundary.run();

const resolution = suite('\'site-gen-ssg\' resolves by its name (package.json "exports" and a self-reference)');

resolution('in Node with tsx: to the same module instance as src/index.ts', async () => {
  const byName = (await import('site-gen-ssg')) as typeof publicEntry;
  assert.is(byName.island, publicEntry.island, 'one instance, so one island registry');
});

resolution("in esbuild without site-gen's own resolver: from the fixture, to src/index.ts", async () => {
  const result = await build({
    stdin: {
      contents: "import { island } from 'site-gen-ssg'; console.log(island);",
      resolveDir: join(repo, 'test/fixtures/basic/src/site'),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    metafile: true,
    // Only the packages site-gen itself uses stay out: 'site-gen-ssg' must be found and read, not left as a package.
    external: ['react', 'react/*', 'react-dom', 'react-dom/*', 'zod'],
    logLevel: 'silent',
    absWorkingDir: repo,
  });
  assert.ok(
    Object.keys(result.metafile.inputs)
      .map((p) => normalize(p))
      .includes(normalize('src/index.ts')),
    Object.keys(result.metafile.inputs).join(', '),
  );
});

resolution.run();
