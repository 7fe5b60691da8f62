// `site-gen serve`: previews the built site as a static host would serve it, until Ctrl-C.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.ts';
import { HEADERS_FILE, readHeadersFile } from '../core/http/headers-file.ts';

interface ServeFlags {
  port: string;
  host: string;
  out: string;
}

/** The value of --port as a number, or a UsageError saying what is accepted. */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${value}".`);
  }
  return port;
}

/** How to show a folder to the user: relative to the working folder when inside it, with a trailing slash. */
function displayDir(dir: string, cwd: string): string {
  const relative = path.relative(cwd, dir);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
  return shown.endsWith(path.sep) ? shown : shown + path.sep;
}

/** Resolves once the process is asked to stop (Ctrl-C or a service manager's SIGTERM). */
function stopRequested(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

async function serve(flags: ServeFlags): Promise<void> {
  const port = parsePort(flags.port);
  if (!flags.host.trim())
    throw new UsageError('--host must not be empty; use --host 127.0.0.1 (the default) or --host 0.0.0.0.');
  const cwd = process.cwd();
  const dir = path.resolve(cwd, flags.out);
  const shown = displayDir(dir, cwd);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UsageError(
      `There is no built site at ${shown} (--out ${flags.out}). Run \`site-gen build${flags.out === 'dist' ? '' : ` --out ${flags.out}`}\` first, or point --out at the folder a build wrote.`,
    );
  }

  const { createStaticServer } = await import('../serve/server.ts');
  const server = createStaticServer({ dir, host: flags.host, port });
  const { url } = await server.listen();
  const stopping = stopRequested();
  process.stdout.write(`Serving ${shown} at ${url}\n`);
  if (!(await readHeadersFile(dir))) {
    process.stdout.write(
      `note: ${shown}${HEADERS_FILE} is missing (a build by an older site-gen?): serving without the security headers. Run \`site-gen build\` to write it.\n`,
    );
  }
  await stopping;
  await server.close();
}

export function addServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the built site (dist/) as a static host would, at http://127.0.0.1:4321')
    .option('--port <n>', 'port to listen on, 0 for any free port', '4321')
    .option('--host <addr>', 'address to bind, 0.0.0.0 for every network interface', '127.0.0.1')
    .option('--out <dir>', 'folder to serve, as written by site-gen build', 'dist')
    .action((flags: ServeFlags) => serve(flags));
}
