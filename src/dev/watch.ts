// The dev server behind `site-gen watch`: builds into memory, serves it, rebuilds what each change reaches, tells the pages.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { watch as watchFiles, type FSWatcher } from 'chokidar';
import { build } from '../pipeline/commonjs.ts';
import { projectPaths, browserModule, type ProjectPaths } from '../core/paths.ts';
import { assertSafeOutDir, writeOutput } from '../pipeline/write.ts';
import { ConfigError } from '../core/errors.ts';
import { CACHE_IMMUTABLE } from '../core/http/policy.ts';
import { DevBuilder } from './builder.ts';
import { isWatchable, stagesForAll } from './invalidate.ts';
import { createNotFoundHandler, createOutputHandler, policyOf } from './output.ts';
import { Publisher } from './publish.ts';
import { createRebuildQueue } from './queue.ts';
import { createReloadHub } from './reload.ts';
import { createStaticServer, type Handler } from '../serve/server.ts';
import { stateOf, trailingChanges } from './trailing-changes.ts';

export interface WatchOptions {
  config: string;
  host: string;
  port: number;
  /** Also write each successful build to this folder, atomically (pages there carry the reload client). */
  out?: string;
  /** Quiet time after the last save before rebuilding, in ms: a burst of saves makes one rebuild. Default 10. */
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

export interface FileChange {
  file: string;
  /** The file's real path when it differs (reached through a symlink). */
  aliases: string[];
  /** Made or deleted, as the watcher saw it; none for an edit. */
  event?: 'added' | 'removed';
}

export async function startWatch(options: WatchOptions): Promise<WatchSession> {
  const paths = projectPaths(options.config);
  if (!existsSync(paths.config)) {
    throw new ConfigError(
      `${options.config} does not exist. Run site-gen watch in the project folder, or pass --config <file>.`,
    );
  }
  if (options.out) assertSafeOutDir(options.out, paths.root);
  const reloadClient = await bundleReloadClient();
  const builder = new DevBuilder({
    paths,
    extraScripts: [reloadClient.url],
    onImagesEncoded: (encoded) => publisher.imagesEncoded(encoded),
  });
  const hub = createReloadHub({ build: () => publisher.served.build });
  const publisher = new Publisher({
    builder,
    hub,
    scripts: [reloadClient.url],
    info: options.info,
    error: options.error,
  });

  const queue = createRebuildQueue<FileChange>({
    delay: options.debounceMs ?? 10,
    run: async (changes) => {
      const what = changes.length > 0 ? describeChanges(changes, paths.root) : undefined;
      const stages = stagesForAll(changes, builder.inputs());
      // A broken build retries on any change: the fix may be a file the failed build never got to read.
      if (what !== undefined && stages.size === 0 && !builder.failure) return publisher.unused(what);
      const before = new Map(changes.map((change) => [change.file, writeStamp(change.file)]));
      const outcome = await builder.rebuild(stages);
      if (!outcome.ok && (await movedOn(before))) {
        // The build read a file its editor was still writing (in place: emptied, then written): that failure is
        // no error of the site, and serving it would answer every page 500 until the next rebuild. The last good
        // build stays served; the file's next state is rebuilt at once.
        for (const change of changes) queue.add(change);
        return;
      }
      publisher.publish(outcome, what);
      if (options.out && builder.output && !builder.failure) await writeOutput(options.out, builder.output.files);
      const added = watchTargets(paths, builder).filter((target) => !watched.has(target));
      for (const target of added) watched.add(target);
      if (added.length > 0) watcher.add(added);
    },
    onError: (error) =>
      options.error(
        `site-gen watch: a rebuild crashed (a bug; please report it): ${(error as Error)?.stack ?? String(error)}`,
      ),
  });

  const watched = new Set(watchTargets(paths));
  const watcher: FSWatcher = watchFiles([...watched], {
    ignoreInitial: true,
    ignored: (file) => !isWatchable(path.relative(paths.root, file)),
  });
  const scanned = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  const changed = (absolute: string, event?: FileChange['event']) =>
    queue.add({ file: absolute, aliases: aliasesOf(absolute), event });
  const trailing = trailingChanges(changed);
  watcher.on('all', (event, file) => {
    if (event === 'addDir' || event === 'unlinkDir') return;
    const absolute = path.resolve(paths.root, file);
    changed(absolute, event === 'add' ? 'added' : event === 'unlink' ? 'removed' : undefined);
    if (event === 'change') trailing.seen(absolute);
  });
  watcher.on('error', (error) => options.error(`site-gen watch: the file watcher failed: ${(error as Error).message}`));

  let firstBuilt!: () => void;
  const ready = new Promise<void>((resolve) => (firstBuilt = resolve));
  const output = createOutputHandler(() => publisher.served);
  const notFound = createNotFoundHandler(() => publisher.served);
  const server = createStaticServer({
    // Every request is answered from memory (404 page included): the folder is only where the server would look next.
    dir: paths.public,
    host: options.host,
    port: options.port,
    handlers: [
      hub.handler,
      scriptHandler(reloadClient),
      async (req, res, pathname) => (await ready, output(req, res, pathname)),
    ],
    notFound: async (req, res, pathname) => (await ready, notFound(req, res, pathname)),
    // The last good build's: its _headers go on every answer, the reload client's and its events' too.
    policy: () => policyOf(publisher.served.files),
  });
  const close = async () => {
    await watcher.close();
    trailing.close();
    await queue.close();
    hub.close();
    await server.close();
    await builder.dispose();
  };

  try {
    // Listening first: a port in use fails at once, and requests made during the first build wait for it.
    const { url } = await server.listen();
    await scanned;
    // The first build goes through the queue too, so a save made while it runs makes one more rebuild after it.
    await queue.flush();
    firstBuilt();
    return { url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The reload client, bundled for the browser once per session, at a URL named by its content so pages cache it for good. */
async function bundleReloadClient(): Promise<{ url: string; code: string }> {
  const result = await build({
    entryPoints: [browserModule('runtime/reload')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2020',
    minify: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  return { url: `/__site-gen/reload-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`, code };
}

function scriptHandler({ url, code }: { url: string; code: string }): Handler {
  return (req, res, pathname) => {
    if (pathname !== url) return false;
    res.writeHead(200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': CACHE_IMMUTABLE,
      'Content-Length': Buffer.byteLength(code),
    });
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
  const files = [
    paths.content,
    paths.routes,
    paths.islands,
    paths.stylesheet,
    paths.template,
    paths.public,
    ...(index?.site ?? []),
    ...(index?.css ?? []),
    ...(index?.client ?? []),
  ];
  const folders = new Set<string>();
  for (const file of files) {
    const relative = path.relative(paths.root, file);
    const top = relative.split(path.sep)[0];
    if (!top || relative.startsWith('..') || path.isAbsolute(relative) || top === 'node_modules') continue;
    const folder = path.join(paths.root, top);
    if (statSync(folder, { throwIfNoEntry: false })?.isDirectory()) folders.add(folder);
  }
  return [paths.config, ...[...folders].sort()];
}

/** How long a failed rebuild waits for the files it read to settle before it shows the error. */
const SETTLE_MS = 200;

/** A file's content and time of last write: emptied twice, it is the same content but another write. */
function writeStamp(file: string): string {
  return `${statSync(file, { throwIfNoEntry: false, bigint: true })?.mtimeNs ?? 'gone'} ${stateOf(file)}`;
}

/** Whether any of the files was written since `before` (taken as the rebuild began), once given time to settle. */
async function movedOn(before: ReadonlyMap<string, string>): Promise<boolean> {
  if (before.size === 0) return false;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return [...before].some(([file, stamp]) => writeStamp(file) !== stamp);
}

function aliasesOf(file: string): string[] {
  try {
    const real = realpathSync(file);
    return real === file ? [] : [real];
  } catch {
    return []; // deleted
  }
}

/** The changed files as the terminal names them: one by its path (and "added" or "removed"), more by the first. */
export function describeChanges(changes: FileChange[], root: string): string {
  const names = [...new Set(changes.map((change) => path.relative(root, change.file)))];
  if (names.length > 1) return `${names[0]} and ${names.length - 1} more`;
  const event = changes.at(-1)?.event;
  return event ? `${names[0]} ${event}` : names[0]!;
}
