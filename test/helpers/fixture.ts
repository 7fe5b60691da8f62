// Copies of the fixture project that a test may break, at the same depth so its relative imports still resolve.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
