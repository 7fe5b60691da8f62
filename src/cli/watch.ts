// `site-gen watch`: builds the site into memory, serves it with live reload and rebuilds what each change reaches, until Ctrl-C.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import type { Command } from 'commander';
import { configOption, hostOption, outOption, portOption } from './options.ts';

interface WatchFlags {
  config: string;
  port: number;
  host: string;
  out?: string;
  open?: boolean;
}

async function watch(flags: WatchFlags): Promise<void> {
  const { port } = flags;
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
  // The project's folder as the person typed their way to it; the folder they are in is "the site", not ".".
  const project = path.relative(process.cwd(), path.dirname(path.resolve(flags.config))) || 'the site';
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
    .addOption(configOption())
    .addOption(outOption('also write each successful build there (served from memory either way)', { required: false }))
    .addOption(portOption())
    .addOption(hostOption())
    .option('--open', 'open the site in the default browser once it is served')
    .action((flags: WatchFlags) => watch(flags));
}
