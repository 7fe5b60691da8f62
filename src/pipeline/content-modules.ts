// Compiles each content data file on its own and keeps it, so that an edit compiles that file again and Node keeps the rest.
import type { Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { digest, shortHex } from '../core/digest.ts';
import { RenderError } from '../core/errors.ts';
import { bundleForNode, codeHash, inputsOf, nodeBundleOptions } from './server-bundle.ts';
import { TRACKER_MODULE } from './render-reads.ts';

/** A content data file compiled for Node and imported. */
export interface ContentModule {
  /** Its name in content/ ("releases.ts"). */
  file: string;
  /** The file URL it is imported by, here and from the site's code (see linkContent). */
  url: string;
  /** Hash of its compiled code. */
  hash: string;
  /** Absolute paths of the project files it was compiled from: the file and what it imports. */
  inputs: string[];
  exports: { default?: unknown };
}

interface Kept {
  module: ContentModule;
  /** Hash of its inputs' text as read before it was compiled ('' when they were not all known then). */
  sources: string;
}

/** How the site's code names a content module until its URL is put in: `"site-gen-content:releases.ts"`. */
const TOKEN = 'site-gen-content:';

/** Stores made in this process: each writes files of its own, so one store's cleanup never removes another's. */
let stores = 0;

/**
 * The content modules of one site, kept between loads (a watch session): each file is compiled once while it and
 * what it imports read the same, and imported once from a file in the cache folder named by its code, so that Node's
 * module cache keeps an unchanged module across loads of the site's code (same URL: not evaluated again).
 */
export class ContentModules {
  /** How many content files this store has compiled, or read as JSON (an unchanged one is not compiled again). */
  compiled = 0;
  readonly #root: string;
  readonly #contentDir: string;
  readonly #cacheDir: string;
  readonly #kept = new Map<string, Kept>();
  readonly #store = ++stores;
  #swept = false;

  constructor(paths: { root: string; content: string; cache: string }) {
    this.#root = paths.root;
    this.#contentDir = paths.content;
    this.#cacheDir = paths.cache;
  }

  /**
   * The modules of `files` (names in content/), compiled side by side where changed. Throws esbuild's errors as a
   * ServerBundleFailure, a module that throws while it loads as a RenderError naming its file.
   */
  async load(files: string[]): Promise<ContentModule[]> {
    if (!this.#swept) {
      this.#swept = true;
      await sweepDeadSessions(this.#cacheDir);
    }
    for (const [file, kept] of this.#kept)
      if (!files.includes(file)) {
        this.#kept.delete(file);
        await rm(new URL(kept.module.url), { force: true });
      }
    const settled = await Promise.allSettled(files.map((file) => this.#load(file)));
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return settled.map((result) => (result as PromiseFulfilledResult<ContentModule>).value);
  }

  /** Removes the files this store wrote (Node keeps the modules it imported). */
  async dispose(): Promise<void> {
    const urls = [...this.#kept.values()].map(({ module }) => module.url);
    this.#kept.clear();
    await Promise.all(urls.map((url) => rm(new URL(url), { force: true })));
  }

  async #load(file: string): Promise<ContentModule> {
    const kept = this.#kept.get(file);
    const path = join(this.#contentDir, file);
    // Read before compiling: a write during the compile then differs at the next load, which the watcher starts.
    const read = kept?.module.inputs ?? [path];
    // The file itself read once, for its hash and for its text (an 18 MB list was read twice on every change).
    const text = readIfThere(path);
    const sources = sourcesHash(read, (input) => (input === path ? text : readIfThere(input)));
    if (kept && kept.sources === sources) return kept.module;

    // A file that is `export default` and JSON (a generated list, most often) is read with JSON.parse, without esbuild:
    // V8 parses an object literal of 100,000 items in twice the time and keeps ~110 MB of parser memory afterwards.
    const json = text && jsonBody(text.toString('utf8'));
    const loaded =
      json === undefined ? undefined : await this.#importJson(file, json, path, sources, kept).catch(() => undefined);
    if (loaded) {
      this.compiled += 1;
      this.#kept.set(file, { module: loaded, sources: read.join('\n') === path ? sources : '' });
      return loaded;
    }
    // No source map: a content file is data, and a map of 10,000 items took longer to make and load than they did
    // (0.3 s each way for a 1.5 MB list). Its compile errors name the file's own lines all the same (esbuild's).
    const { code, metafile } = await bundleForNode(nodeBundleOptions({ file: path }, this.#root, { sourcemap: false }));
    this.compiled += 1;
    const inputs = inputsOf(metafile, this.#root);
    const known = inputs.join('\n') === read.join('\n') ? sources : '';
    const module = await this.#import(file, code, inputs, kept);
    this.#kept.set(file, { module, sources: known });
    return module;
  }

  /**
   * Imports the JSON `body` of content `file` as its module. The module's code names the body by `id` (the hash of the
   * sources it was read from: see sourcesHash) and reads it from `jsonBodies` as it is evaluated: the text is held only
   * while it is imported, where a string literal in the code was kept for the whole build twice over (the module's
   * source and its constant: 38 MB for 18 MB of JSON).
   */
  async #importJson(
    file: string,
    body: string,
    path: string,
    id: string,
    kept: Kept | undefined,
  ): Promise<ContentModule> {
    const code = `import { takeJsonBody } from ${JSON.stringify(import.meta.url)};
export default JSON.parse(takeJsonBody(${JSON.stringify(id)}));
`;
    // Counted: two stores in one process (watch sessions, tests) may import the same text at once.
    const held = jsonBodies.get(id) ?? { body, imports: 0 };
    held.imports += 1;
    jsonBodies.set(id, held);
    try {
      return await this.#import(file, code, [path], kept);
    } finally {
      held.imports -= 1;
      if (held.imports === 0) jsonBodies.delete(id);
    }
  }

  /** Imports `code` as the module of content `file`, from a file named by its hash (the kept module when the same). */
  async #import(file: string, code: string, inputs: string[], kept: Kept | undefined): Promise<ContentModule> {
    const hash = codeHash(code);
    if (kept?.module.hash === hash) return { ...kept.module, inputs };
    await mkdir(this.#cacheDir, { recursive: true });
    const name = `content-${file.replace(/\.[^.]+$/, '').replace(/[^\w-]/g, '_')}-${hash.slice(0, 16)}`;
    const target = join(this.#cacheDir, `${name}-${process.pid}-${this.#store}.mjs`);
    await writeFile(target, code);
    const url = pathToFileURL(target).href;
    let exports: ContentModule['exports'];
    try {
      exports = await import(url);
    } catch (error) {
      await rm(target, { force: true });
      const message = error instanceof Error ? error.message : String(error);
      throw new RenderError(
        `content/${file} threw while loading (${message}). Check the code it runs as it loads (run with --debug for the stack).`,
        { cause: error },
      );
    }
    // The site's code loaded from now on imports the new URL: the old file is read by no one again.
    if (kept && kept.module.url !== url) await rm(new URL(kept.module.url), { force: true });
    return { file, url, hash, inputs, exports };
  }
}

/** The JSON text of content modules being imported, by its hash, and how many imports of it are under way. */
const jsonBodies = new Map<string, { body: string; imports: number }>();

/** Called by a JSON content module as it is evaluated: its text (see #importJson). */
export function takeJsonBody(id: string): string {
  const held = jsonBodies.get(id);
  if (!held) throw new Error('site-gen: a JSON content module was evaluated outside its import; this is a bug.');
  return held.body;
}

/**
 * The JSON value of a content file's text when it is comments, then `export default` and a JSON value, then an
 * optional `;`: read by JSON.parse, it gives what the object literal would (JSON is JavaScript's literal syntax) but
 * for a `"__proto__"` key, left to esbuild. Undefined for any other text. Only the start is looked at: text that is
 * not JSON after all fails its JSON.parse when imported, and the file is compiled by esbuild instead.
 */
export function jsonBody(text: string): string | undefined {
  const start = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*export\s+default\s+(?=[[{])/.exec(text);
  if (!start) return undefined;
  let body = text.slice(start[0].length).trimEnd();
  if (body.endsWith(';')) body = body.slice(0, -1);
  // JSON's first token after the brackets: a string, number, literal or a closing bracket (`{ id:` is not JSON).
  if (!/^[[{\s]*(?:["\d\]}-]|true|false|null)/.test(body) || body.includes('"__proto__"')) return undefined;
  return body;
}

/**
 * Hash of the files' text (a missing file counts as missing, so its creation is a change). Read at once, each file in
 * one call: a watch session hashes the site's code (tens of small files) on every save, and one awaited read after
 * another took tens of milliseconds there. `read` gives a file's bytes (undefined: missing), for a caller that has one.
 */
export function sourcesHash(files: string[], read: (file: string) => Buffer | undefined = readIfThere): string {
  const hash = digest();
  for (const file of files) {
    const text = read(file);
    hash.update(`${file}\0${text ? text.length : 'missing'}\0`);
    if (text) hash.update(text);
  }
  return shortHex(hash);
}

/** A file's bytes, or undefined when it cannot be read (a missing file). */
function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Makes the site's code import each content file (`files`: names in `contentDir`) as its content module rather than
 * bundling it, wherever it is imported from (the generated entry, routes, components): one instance of each file's
 * data, shared by all of them. The import is named by a token until linkContent puts the module's URL in, so the
 * bundle's text, and its hash, stay the same when only content changes.
 */
export function contentImports(contentDir: string, files: string[]): Plugin {
  const byPath = new Map(files.map((file) => [join(contentDir, file), file]));
  const contentFile = (path: string) =>
    byPath.get(path) ??
    byPath.get(`${path}.ts`) ??
    byPath.get(`${path}.tsx`) ??
    byPath.get(path.replace(/\.js$/, '.ts')) ??
    byPath.get(path.replace(/\.jsx$/, '.tsx'));
  // Only an import whose last part names a content file is looked at: each one esbuild hands a plugin is a round trip.
  const stems = files.map((file) => file.replace(/\.[^.]+$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const filter = new RegExp(`^(\\.|/|[A-Za-z]:[\\\\/]).*[\\\\/](${stems.join('|')})(\\.[jt]sx?)?$`);
  return {
    name: 'site-gen-content-modules',
    setup(build) {
      if (files.length === 0) return;
      build.onResolve({ filter }, (args) => {
        const file = contentFile(isAbsolute(args.path) ? args.path : resolve(args.resolveDir, args.path));
        return file ? { path: `${TOKEN}${file}`, external: true } : undefined;
      });
    },
  };
}

/**
 * The site's code with each content import pointing at its module's URL (see contentImports), or at the URL `urlOf`
 * gives (a wrapper that tracks reads: see writeTrackedModule).
 */
export function linkContent(
  code: string,
  modules: ContentModule[],
  urlOf: (module: ContentModule) => string = (module) => module.url,
): string {
  const urls = new Map(
    modules.map((module) => [JSON.stringify(`${TOKEN}${module.file}`), JSON.stringify(urlOf(module))]),
  );
  return code.replace(/"site-gen-content:[^"]*"/g, (token) => urls.get(token) ?? token);
}

let wrappers = 0;

/**
 * Writes a module the site's code imports in place of `module` when a build records what each page reads: it exports
 * the same names, each value as the tracker registered under `key` wraps it (see render-reads.ts). Named for this load
 * alone, so that it is evaluated, and its exports read, in this load; the caller removes it once the site is imported.
 */
export async function writeTrackedModule(module: ContentModule, key: string, cacheDir: string): Promise<string> {
  const names = Object.keys(module.exports);
  const lines = [
    `import * as m from ${JSON.stringify(module.url)};`,
    `import { trackedExports } from ${JSON.stringify(TRACKER_MODULE)};`,
    `const e = trackedExports(${JSON.stringify(key)}, ${JSON.stringify(module.file)}, m);`,
    ...names.map((name, i) =>
      name === 'default'
        ? 'export default e["default"];'
        : `const e${i} = e[${JSON.stringify(name)}];\nexport { e${i} as ${JSON.stringify(name)} };`,
    ),
  ];
  const stem = module.file.replace(/\.[^.]+$/, '').replace(/[^\w-]/g, '_');
  const file = join(cacheDir, `content-reads-${stem}-${process.pid}-${++wrappers}.mjs`);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(file, `${lines.join('\n')}\n`);
  return pathToFileURL(file).href;
}

/** Removes content modules left in the cache folder by sessions that ended without cleaning up (killed, crashed). */
async function sweepDeadSessions(cacheDir: string): Promise<void> {
  const names = await readdir(cacheDir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^content-.*-(\d+)-\d+\.mjs$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) await rm(join(cacheDir, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
