// The options build, serve, watch and deploy share (--config, --out, --port, --host): one declaration, the same flags,
// help text and validation in every command.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createProgram } from '../../src/cli/main.ts';
import { UsageError } from '../../src/core/errors.ts';

/** What each command shares. */
const SHARED: Record<string, string[]> = {
  build: ['--config', '--out'],
  serve: ['--out', '--port', '--host'],
  watch: ['--config', '--out', '--port', '--host'],
  deploy: ['--config', '--out'],
};

/** The command `name` of a fresh program, its action replaced by one that keeps the parsed options. */
function capture(name: string): { program: Command; parsed: () => Record<string, unknown> } {
  const program = createProgram().exitOverride();
  const command = program.commands.find((c) => c.name() === name)!;
  let options: Record<string, unknown> | undefined;
  command.exitOverride().action(() => {
    options = command.opts();
  });
  return {
    program,
    parsed: () => {
      assert.ok(options, `site-gen ${name} ran its action`);
      return options!;
    },
  };
}

async function parse(name: string, args: string[]): Promise<Record<string, unknown>> {
  const { program, parsed } = capture(name);
  await program.parseAsync([name, ...args], { from: 'user' });
  return parsed();
}

async function refusal(name: string, args: string[]): Promise<unknown> {
  const { program } = capture(name);
  return program.parseAsync([name, ...args], { from: 'user' }).then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** The lines of `site-gen <name> --help` that describe `flag`, joined (commander wraps long descriptions). */
function helpOf(name: string, flag: string): string {
  const command = createProgram().commands.find((c) => c.name() === name)!;
  const option = command.options.find((o) => o.long === flag)!;
  assert.ok(option, `site-gen ${name} has ${flag}`);
  return `${option.flags}  ${option.description}`;
}

const options = suite('shared command-line options');

options('every command accepts its shared options by their long and short flags', async () => {
  for (const [name, flags] of Object.entries(SHARED)) {
    const long = await parse(name, [
      ...(flags.includes('--config') ? ['--config', 'other.config.ts'] : []),
      '--out',
      'public-out',
      ...(flags.includes('--port') ? ['--port', '8080', '--host', '0.0.0.0'] : []),
    ]);
    const short = await parse(name, [
      ...(flags.includes('--config') ? ['-c', 'other.config.ts'] : []),
      '-o',
      'public-out',
      ...(flags.includes('--port') ? ['-p', '8080'] : []),
    ]);
    for (const parsed of [long, short]) {
      assert.is(parsed.out, 'public-out', `site-gen ${name}: -o and --out`);
      if (flags.includes('--config')) assert.is(parsed.config, 'other.config.ts', `site-gen ${name}: -c and --config`);
      if (flags.includes('--port')) assert.is(parsed.port, 8080, `site-gen ${name}: -p and --port, as a number`);
    }
    if (flags.includes('--host')) assert.is(long.host, '0.0.0.0');
  }
});

options('the defaults are the same in every command', async () => {
  for (const [name, flags] of Object.entries(SHARED)) {
    const parsed = await parse(name, []);
    if (flags.includes('--config')) assert.is(parsed.config, 'site.config.ts', name);
    // watch writes its builds to a folder only when asked.
    assert.is(parsed.out, name === 'watch' ? undefined : 'dist', name);
    if (flags.includes('--port')) assert.equal([parsed.port, parsed.host], [4321, '127.0.0.1'], name);
  }
});

options('a bad port is refused by serve and watch alike, with one message naming --port', async () => {
  for (const name of ['serve', 'watch']) {
    for (const args of [
      ['--port', 'http'],
      ['-p', '65536'],
      ['--port', '-1'],
      ['-p', ''],
    ]) {
      const error = await refusal(name, args);
      assert.instance(error, UsageError, `site-gen ${name} ${args.join(' ')}`);
      assert.is(
        (error as Error).message,
        `--port must be a whole number from 0 to 65535 (0 picks a free port); got "${args[1]}".`,
      );
    }
  }
});

options('an empty --host, --out or --config is refused naming the flag', async () => {
  for (const [name, flags] of Object.entries(SHARED)) {
    for (const flag of flags.filter((f) => f !== '--port')) {
      const error = await refusal(name, [flag, ' ']);
      assert.instance(error, UsageError, `site-gen ${name} ${flag} " "`);
      assert.match((error as Error).message, new RegExp(`^${flag} must not be empty`));
    }
  }
});

options('--help shows each shared option the same way in every command', () => {
  for (const flag of ['--config', '--port', '--host']) {
    const shown = Object.entries(SHARED)
      .filter(([, flags]) => flags.includes(flag))
      .map(([name]) => helpOf(name, flag));
    assert.ok(shown.length >= 2, flag);
    assert.equal(new Set(shown).size, 1, `${flag} reads the same everywhere:\n${shown.join('\n')}`);
  }
  for (const name of Object.keys(SHARED)) assert.match(helpOf(name, '--out'), /^-o, --out <dir> {2}output folder: /);
});

options('no command declares a shared option itself: src/cli/options.ts is their one declaration', () => {
  const dir = join(import.meta.dirname, '../../src/cli');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'options.ts')) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const flag of ['--config <', '--out <', '--port <', '--host <']) {
      assert.not.ok(source.includes(flag), `src/cli/${file} declares ${flag.slice(0, -2)} itself`);
    }
  }
});

options.run();
