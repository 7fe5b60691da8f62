// A throwaway copy of this project, and `site-gen watch` running on it: for the tests and the benchmark that edit files.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const TOOL_ROOT = path.resolve(import.meta.dirname, '../..');

export interface ProjectCopy {
  root: string;
  read(file: string): Promise<string>;
  write(file: string, text: string): Promise<void>;
  /** Rewrites a file with `change(text)`; fails when the change leaves it as it was (the edit would test nothing). */
  edit(file: string, change: (text: string) => string): Promise<void>;
  /** Puts every edited file back as it was copied; resolves with the files it wrote. */
  restore(): Promise<string[]>;
  remove(): Promise<void>;
}

/**
 * Copies the site (config, content, templates, public, src/site) into a temporary folder outside this repository,
 * as a site of its own: its code imports only 'site-gen-ssg', which site-gen resolves to itself when it builds the copy.
 * node_modules is a link to this repository's, for the packages the site itself uses (its CSS imports @fontsource).
 */
export async function copyProject(): Promise<ProjectCopy> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-gen-watch-'));
  for (const entry of ['site.config.ts', 'content', 'templates', 'public', 'src/site']) {
    await cp(path.join(TOOL_ROOT, entry), path.join(root, entry), { recursive: true });
  }
  await symlink(path.join(TOOL_ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');

  const originals = new Map<string, string>();
  const read = (file: string) => readFile(path.join(root, file), 'utf8');
  const write = async (file: string, text: string) => {
    if (!originals.has(file)) originals.set(file, await read(file));
    await writeFile(path.join(root, file), text);
  };
  return {
    root,
    read,
    write,
    async edit(file, change) {
      const before = await read(file);
      const after = change(before);
      if (after === before) throw new Error(`The edit of ${file} changed nothing: the text it looks for is not there.`);
      await write(file, after);
    },
    async restore() {
      const restored = [...originals.keys()];
      for (const [file, text] of originals) await writeFile(path.join(root, file), text);
      originals.clear();
      return restored;
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export interface WatchProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** Everything printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the output once `pattern` matches what was printed after `from` characters (default: anything). */
  waitFor(pattern: RegExp, options?: { from?: number; timeout?: number }): Promise<string>;
  /** Sends `signal` (Ctrl-C by default) and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `site-gen watch --port 0` in `root` and resolves once it prints the URL it serves. */
export async function startWatch(root: string, args: string[] = []): Promise<WatchProcess> {
  const child = spawn(process.execPath, [path.join(TOOL_ROOT, 'bin/site-gen.js'), 'watch', '--port', '0', ...args], {
    cwd: root,
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  const listeners = new Set<() => void>();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);

  const waitFor = (pattern: RegExp, options: { from?: number; timeout?: number } = {}) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output.slice(options.from ?? 0))) return;
        done();
        resolve(output);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `site-gen watch did not print ${pattern} within ${options.timeout ?? 60_000} ms. It printed:\n${output}`,
          ),
        );
      }, options.timeout ?? 60_000);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        if (!listeners.has(check)) return;
        done();
        reject(new Error(`site-gen watch exited before printing ${pattern}. It printed:\n${output}`));
      });
      check();
    });

  await waitFor(/Serving .* at http:\/\/\S+/);
  const url = /Serving .* at (http:\/\/\S+)/.exec(output)![1]!;
  return {
    url,
    child,
    output: () => output,
    waitFor,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
