// Copies of the fixture project that a test may break, at the same depth so its relative imports still resolve.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as assert from 'uvu/assert';

export const fixtureRoot = resolve('test/fixtures/basic');

export interface FixtureCopy {
  root: string;
  config: string;
  edit(file: string, change: (text: string) => string): void;
  write(file: string, text: string): void;
  remove(): void;
}

/** A copy of the basic fixture, or of the fixture folder `from`. */
export function copyFixture(from = fixtureRoot): FixtureCopy {
  const root = mkdtempSync(join(resolve('test/fixtures'), '.tmp-'));
  cpSync(from, root, { recursive: true });
  return {
    root,
    config: join(root, 'site.config.ts'),
    edit: (file, change) => writeFileSync(join(root, file), change(readFileSync(join(root, file), 'utf8'))),
    write: (file, text) => writeFileSync(join(root, file), text),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

export function tempOut(): string {
  return mkdtempSync(join(resolve('test/fixtures'), '.tmp-out-'));
}

/** A built file as text (a build's `files` hold strings or bytes); asserts that the build wrote it. */
export function outputText(files: ReadonlyMap<string, Uint8Array | string>, path: string): string {
  const data = files.get(path);
  assert.ok(data !== undefined, `${path} is in the output`);
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
}

/** The error `run` rejects with; throws when it succeeds. */
export async function failure(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the build to fail');
}
