// `site-gen watch`: builds the site into memory, serves it with live reload and rebuilds what each change reaches, until Ctrl-C.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../core/errors.ts';
import { parsePort } from './serve.ts';

interface WatchFlags {
  config: string;
  port: string;
  host: string;
  out?: string;
  open?: boolean;
}

async function watch(flags: WatchFlags): Promise<void> {
  const port = parsePort(flags.port);
  if (!flags.host.trim())
    throw new UsageError('--host must not be empty; use --host 127.0.0.1 (the default) or --host 0.0.0.0.');
  // Listening from the start: a Ctrl-C during the first build stops cleanly once it ends.
  const stop = Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
  // Loaded here, not at the top: the dev server, chokidar and the error screen are no part of the other commands.
  const { startWatch } = await import('../dev/watch.ts');
  const session = await startWatch({
    config: flags.config,
    host: flags.host,
    port,
    out: flags.out,
    info: (line) => process.stdout.write(`${line}\n`),
    error: (text) => process.stderr.write(`${text}\n`),
  });
  const project = path.relative(process.cwd(), path.dirname(path.resolve(flags.config))) || '.';
  process.stdout.write(
    `Serving ${project} at ${session.url} with live reload; watching for changes (Ctrl-C to stop)\n`,
  );
  if (flags.open) openBrowser(session.url);

  await stop;
  // A second Ctrl-C while stopping means: stop now.
  process.once('SIGINT', () => process.exit(130));
  await session.close();
  process.stdout.write('Stopped.\n');
}

/** Opens `url` with the system's opener; says so when there is none rather than failing the session. */
function openBrowser(url: string): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', url]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', url]
        : ['xdg-open', url];
  const child = spawn(command!, args, { stdio: 'ignore', detached: true });
  child.on('error', () =>
    process.stderr.write(`Could not open a browser (${command} failed): open ${url} yourself.\n`),
  );
  child.unref();
}

export function addWatchCommand(program: Command): void {
  program
    .command('watch')
    .description(
      'build into memory, serve at http://127.0.0.1:4321 and rebuild what each change reaches; pages reload, CSS changes apply in place',
    )
    .option('-c, --config <file>', 'site configuration; its folder is the project root', 'site.config.ts')
    .option('--port <n>', 'port to listen on, 0 for any free port', '4321')
    .option('--host <addr>', 'address to bind, 0.0.0.0 for every network interface', '127.0.0.1')
    .option('-o, --out <dir>', 'also write each successful build to this folder (served from memory either way)')
    .option('--open', 'open the site in the default browser once it is served')
    .action((flags: WatchFlags) => watch(flags));
}
