// The options several commands share (--config, --out, --port, --host): declared once, so their flags, help text and
// validation cannot drift between build, serve, watch and deploy.
import { Option } from 'commander';
import { DEFAULT_CONFIG, DEFAULT_HOST, DEFAULT_OUT, DEFAULT_PORT } from '../core/defaults.ts';
import { UsageError } from '../core/errors.ts';

/** The value of --port as a number, or a UsageError saying what is accepted. */
export function parsePort(value: string): number {
  const port = /^\d{1,5}$/.test(value) ? Number(value) : NaN;
  if (!(port >= 0 && port <= 65535)) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (0 picks a free port); got "${value}".`);
  }
  return port;
}

/** The value of --host, or a UsageError when it is blank. */
export function parseHost(value: string): string {
  if (!value.trim()) {
    throw new UsageError(
      `--host must not be empty; use --host ${DEFAULT_HOST} (the default) or --host 0.0.0.0 for every network interface.`,
    );
  }
  return value;
}

/** A folder or file flag's value, or a UsageError naming `flag` when it is blank. */
function nonEmpty(flag: string, example: string): (value: string) => string {
  return (value) => {
    if (!value.trim()) throw new UsageError(`${flag} must not be empty; give a path, e.g. ${flag} ${example}.`);
    return value;
  };
}

/** -c, --config <file>: the site configuration, whose folder is the project root. */
export function configOption(): Option {
  return new Option('-c, --config <file>', 'site configuration; its folder is the project root')
    .default(DEFAULT_CONFIG)
    .argParser(nonEmpty('--config', DEFAULT_CONFIG));
}

/**
 * -o, --out <dir>: the output folder of a build. `role` says what this command does with it (the folder is the same
 * one in every command: what build writes, serve serves and deploy uploads). Without a default for watch, which
 * writes there only when asked.
 */
export function outOption(role: string, options: { required: boolean } = { required: true }): Option {
  const option = new Option('-o, --out <dir>', `output folder: ${role}`).argParser(nonEmpty('--out', DEFAULT_OUT));
  return options.required ? option.default(DEFAULT_OUT) : option;
}

/** -p, --port <n>: 0 to 65535, parsed when the flag is read, so a bad port fails before anything starts. */
export function portOption(): Option {
  return new Option('-p, --port <n>', 'port to listen on, 0 for any free port')
    .default(DEFAULT_PORT)
    .argParser(parsePort);
}

/** --host <addr> (no short flag: -h is help). */
export function hostOption(): Option {
  return new Option('--host <addr>', 'address to bind, 0.0.0.0 for every network interface')
    .default(DEFAULT_HOST)
    .argParser(parseHost);
}
