// The site-gen command line: wires each command's arguments to its function, prints errors once, returns the exit code.
import { Command, CommanderError } from 'commander';
import { toolPackage } from '../core/package.ts';
import { describeError, SiteGenError } from '../core/errors.ts';
import { addBuildCommand } from './build.ts';
import { addDeployCommand } from './deploy.ts';
import { addNewCommand } from './new.ts';
import { addReleasesCommand } from './releases.ts';
import { addRollbackCommand } from './rollback.ts';
import { addServeCommand } from './serve.ts';
import { addWatchCommand } from './watch.ts';

export function createProgram(): Command {
  const program = new Command('site-gen')
    .description('A small static-site generator: React server rendering, islands, critical CSS, safe S3 deploys.')
    .version(toolPackage().version, '-v, --version', 'print the version')
    .option('--debug', 'print stack traces with errors')
    .showHelpAfterError('(run "site-gen --help" for usage)')
    .showSuggestionAfterError()
    .addHelpText(
      'after',
      `
Examples:
  site-gen build                      build site.config.ts's site into dist/
  site-gen serve --port 8080          preview dist/ like a static host
  site-gen watch                      dev server with live reload
  site-gen deploy --bucket my-site    publish dist/ to an S3 bucket
  site-gen rollback --bucket my-site  serve the release before the live one again
  site-gen new my-site                start a new site in the folder my-site/

Run "site-gen <command> --help" for a command's options.`,
    );
  addBuildCommand(program);
  addServeCommand(program);
  addWatchCommand(program);
  addDeployCommand(program);
  addReleasesCommand(program);
  addRollbackCommand(program);
  addNewCommand(program);
  return program;
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  process.setSourceMapsEnabled(true);
  const program = createProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed the message (or the help/version text).
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
        ? 0
        : 1;
    }
    const debug = Boolean(program.opts().debug) || argv.includes('--debug');
    const known = error instanceof SiteGenError;
    process.stderr.write(
      `${known ? '' : 'site-gen: unexpected error (a bug; please report it): '}${describeError(error, debug || !known)}\n`,
    );
    // Only where a stack says more than the message: an exception thrown by the site's code or a library beneath it.
    // A mistake in the config, content or flags is said whole by its message.
    if (!debug && known && thrownBeneath(error)) process.stderr.write('(run with --debug for the stack trace)\n');
    return known ? error.exitCode : 1;
  }
}

/** Whether `error` was caused by an exception that is not site-gen's own (one its stack would place). */
function thrownBeneath(error: Error): boolean {
  for (let cause = error.cause, depth = 0; cause !== undefined && depth < 8; cause = (cause as Error).cause, depth++)
    if (cause instanceof Error && !(cause instanceof SiteGenError)) return true;
  return false;
}
