// `site-gen serve`: previews the built site as a static host would serve it, until Ctrl-C.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_OUT } from '../core/defaults.ts';
import { UsageError } from '../core/errors.ts';
import { HEADERS_FILE, readHeadersFile } from '../core/http/headers-file.ts';
import { hostOption, outOption, portOption } from './options.ts';

interface ServeFlags {
  port: number;
  host: string;
  out: string;
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
  const { port } = flags;
  const cwd = process.cwd();
  const dir = path.resolve(cwd, flags.out);
  const shown = displayDir(dir, cwd);
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new UsageError(
      `There is no built site at ${shown} (--out ${flags.out}). Run \`site-gen build${flags.out === DEFAULT_OUT ? '' : ` --out ${flags.out}`}\` first, or point --out at the folder a build wrote.`,
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
    .addOption(outOption('served as written by site-gen build'))
    .addOption(portOption())
    .addOption(hostOption())
    .action((flags: ServeFlags) => serve(flags));
}
