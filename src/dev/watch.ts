// The dev server behind `site-gen watch`: builds into memory, serves it, rebuilds what each change reaches, tells the pages.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { watch as watchFiles, type FSWatcher } from 'chokidar';
import { build } from 'esbuild';
import { projectPaths, toolRoot, type ProjectPaths } from '../build/paths.ts';
import type { OutputFiles } from '../build/write.ts';
import { ConfigError } from '../errors.ts';
import { DevBuilder, type RebuildOutcome } from './builder.ts';
import { describeFailure, errorPage } from './error-page.tsx';
import { isWatchable, stagesForAll } from './invalidate.ts';
import { createOutputHandler, type ServedBuild } from './output.ts';
import { createRebuildQueue } from './queue.ts';
import { createReloadHub } from './reload.ts';
import { createStaticServer, type Handler } from './server.ts';

export const RELOAD_SCRIPT = '/__site-gen/reload.js';

export interface WatchOptions {
  config: string;
  host: string;
  port: number;
  /** Quiet time after the last save before rebuilding, in ms: a burst of saves makes one rebuild. Default 20. */
  debounceMs?: number;
  /** One line per rebuild. */
  info(line: string): void;
  /** A rebuild's error, printed once however many rebuilds it survives. */
  error(text: string): void;
}

export interface WatchSession {
  url: string;
  /** Stops watching, ends the pages' event streams, frees the port and esbuild's contexts. */
  close(): Promise<void>;
}

interface FileChange {
  file: string;
  /** The file's real path when it differs (reached through a symlink). */
  aliases: string[];
}

export async function startWatch(options: WatchOptions): Promise<WatchSession> {
  const paths = projectPaths(options.config);
  if (!existsSync(paths.config)) {
    throw new ConfigError(`${options.config} does not exist. Run site-gen watch in the project folder, or pass --config <file>.`);
  }
  const reloadClient = await bundleReloadClient();
  const builder = new DevBuilder({ paths, extraScripts: [RELOAD_SCRIPT] });
  const session = Date.now().toString(36);
  let builds = 0;
  let served: ServedBuild = { files: new Map(), build: `${session}.0` };
  let shownError: string | undefined;
  const hub = createReloadHub({ build: () => served.build });

  /** Swaps in what the rebuild produced, tells the pages, and prints its line (and a new error, once). */
  const publish = (outcome: RebuildOutcome, changes: FileChange[]) => {
    const what = changes.length === 0 ? 'first build' : describeChanges(changes, paths.root);
    const rebuilt = outcome.rebuilt.join(', ') || 'pages';
    if (outcome.ok) {
      const first = builds === 0;
      shownError = undefined;
      if (outcome.change !== 'none') served = { files: builder.output!.files, build: `${session}.${++builds}` };
      if (outcome.change === 'css') hub.send({ type: 'css', build: served.build, href: builder.output!.stylesheet });
      if (outcome.change === 'page') hub.send({ type: 'reload', build: served.build });
      const action = { none: 'output unchanged', css: 'stylesheet swapped', page: 'pages reloaded' }[outcome.change];
      options.info(`${clock()} ${what}: ${rebuilt} in ${outcome.ms} ms${first ? '' : `; ${action}`}`);
      return;
    }
    const failure = describeFailure(outcome.error, paths);
    const text = failure.stack ? `${failure.message}\n${failure.stack}` : failure.message;
    const repeated = text === shownError;
    options.info(`${clock()} ${what}: failed after ${outcome.ms} ms${repeated ? ' (the same error as above)' : '; the pages show the error'}`);
    if (repeated) return;
    shownError = text;
    const stylesheet = builder.stylesheetFiles();
    served = {
      files: new Map([...(builder.output?.files ?? []), ...(stylesheet?.files ?? [])]) as OutputFiles,
      build: `${session}.${++builds}`,
      errorPage: errorPage(failure, {
        stylesheet: stylesheet?.url ?? builder.output?.stylesheet,
        scripts: [RELOAD_SCRIPT],
        theme: builder.config?.site.themeDefault === 'light' ? 'light' : 'dark',
        lang: builder.config?.site.lang ?? 'en',
      }),
    };
    hub.send({ type: 'reload', build: served.build });
    options.error(indent(text));
  };

  const queue = createRebuildQueue<FileChange>({
    delay: options.debounceMs ?? 20,
    run: async (changes) => {
      const stages = stagesForAll(changes, builder.inputs());
      // A broken build retries on any change: the fix may be a file the failed build never got to read.
      if (changes.length > 0 && stages.size === 0 && !builder.failure) {
        options.info(`${clock()} ${describeChanges(changes, paths.root)}: not used by the site, nothing to rebuild`);
        return;
      }
      publish(await builder.rebuild(stages), changes);
      const added = watchTargets(paths, builder).filter((target) => !watched.has(target));
      for (const target of added) watched.add(target);
      if (added.length > 0) watcher.add(added);
    },
    onError: (error) => options.error(`site-gen watch: a rebuild crashed (a bug; please report it): ${(error as Error)?.stack ?? String(error)}`),
  });

  const watched = new Set<string>();
  const watcher: FSWatcher = watchFiles([], {
    ignoreInitial: true,
    ignored: (file) => !isWatchable(path.relative(paths.root, file)),
  });
  watcher.on('all', (event, file) => {
    if (event === 'addDir' || event === 'unlinkDir') return;
    const absolute = path.resolve(paths.root, file);
    queue.add({ file: absolute, aliases: aliasesOf(absolute) });
  });
  watcher.on('error', (error) => options.error(`site-gen watch: the file watcher failed: ${(error as Error).message}`));

  let firstBuilt!: () => void;
  const ready = new Promise<void>((resolve) => (firstBuilt = resolve));
  const output = createOutputHandler(() => served);
  const server = createStaticServer({
    // Every request is answered from memory (404 page included): the folder is only where the server would look next.
    dir: paths.public,
    host: options.host,
    port: options.port,
    handlers: [hub.handler, scriptHandler(reloadClient), async (req, res, pathname) => (await ready, output(req, res, pathname))],
  });
  const close = async () => {
    await watcher.close();
    await queue.close();
    hub.close();
    await server.close();
    await builder.dispose();
  };

  try {
    // Listening first: a port in use fails at once, and requests made during the first build wait for it.
    const { url } = await server.listen();
    const targets = watchTargets(paths, builder);
    for (const target of targets) watched.add(target);
    watcher.add(targets);
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    // The first build goes through the queue too, so a save made while it runs makes one more rebuild after it.
    await queue.flush();
    firstBuilt();
    return { url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The reload client, bundled for the browser once per session. */
async function bundleReloadClient(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(toolRoot, 'src/runtime/reload.ts')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    minify: true,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

function scriptHandler(code: string): Handler {
  return (req, res, pathname) => {
    if (pathname !== RELOAD_SCRIPT) return false;
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(code) });
    res.end(req.method === 'HEAD' ? undefined : code);
    return true;
  };
}

/**
 * What to watch: the config file, and each top-level folder of the project that holds a file the build read or a
 * file it looks for (content/, src/, templates/, public/). Never node_modules.
 */
export function watchTargets(paths: ProjectPaths, builder?: DevBuilder): string[] {
  const index = builder?.inputs();
  const files = [paths.content, paths.routes, paths.islands, paths.stylesheet, paths.template, paths.public, ...(index?.site ?? []), ...(index?.css ?? []), ...(index?.client ?? [])];
  const folders = new Set<string>();
  for (const file of files) {
    const relative = path.relative(paths.root, file);
    const top = relative.split(path.sep)[0];
    if (!top || relative.startsWith('..') || path.isAbsolute(relative) || top === 'node_modules' || top === relative) continue;
    const folder = path.join(paths.root, top);
    if (existsSync(folder)) folders.add(folder);
  }
  return [paths.config, ...[...folders].sort()];
}

function aliasesOf(file: string): string[] {
  try {
    const real = realpathSync(file);
    return real === file ? [] : [real];
  } catch {
    return []; // deleted
  }
}

function describeChanges(changes: FileChange[], root: string): string {
  const names = [...new Set(changes.map((change) => path.relative(root, change.file)))];
  return names.length === 1 ? names[0]! : `${names[0]} and ${names.length - 1} more`;
}

function clock(): string {
  return new Date().toTimeString().slice(0, 8);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
