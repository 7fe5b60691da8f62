// The tool's own package.json: its name and version (what `site-gen --version` prints, what a new site depends on) and
// the versions of the packages it is built and checked with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolRoot } from './paths.ts';

export interface ToolPackage {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

let read: ToolPackage | undefined;

export function toolPackage(): ToolPackage {
  read ??= {
    dependencies: {},
    devDependencies: {},
    ...(JSON.parse(readFileSync(join(toolRoot, 'package.json'), 'utf8')) as Partial<ToolPackage>),
  } as ToolPackage;
  return read;
}
