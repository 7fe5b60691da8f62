// What the bench ran on: CPU, cores, memory, Node, Chromium, Lighthouse, date. Printed with every result.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { createRequire } from 'node:module';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGB: number;
  os: string;
  node: string;
  chromium: string;
  lighthouse: string;
  date: string;
  /** 1-minute load average when the bench started and ended: other work on the machine skews timings. */
  loadAverage: { start: number; end?: number };
}

export function currentLoad(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}

export function describeMachine(chromiumPath: string): Machine {
  const require = createRequire(import.meta.url);
  let chromium = 'unknown';
  try {
    chromium = execFileSync(chromiumPath, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    chromium = `not found at ${chromiumPath}`;
  }
  const lighthouse = (JSON.parse(readFileSync(require.resolve('lighthouse/package.json'), 'utf8')) as { version: string }).version;
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${platform()} ${release()}`,
    node: process.version,
    chromium,
    lighthouse,
    date: new Date().toISOString(),
    loadAverage: { start: currentLoad() },
  };
}
