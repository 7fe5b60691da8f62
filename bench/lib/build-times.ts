// Times `site-gen build` as a user runs it: a fresh process each time, cold (caches cleared) and warm (caches kept).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.ts';

const toolRoot = join(import.meta.dirname, '../..');
const cpuTime = pathToFileURL(join(import.meta.dirname, 'cpu-time.js')).href;

export interface BuildRun {
  /** Wall-clock time of the whole process, Node start-up included. */
  wallMs: number;
  /** What the build itself reports (`--json` "ms"): config to written output. */
  buildMs: number;
  /** CPU time of the build process (user + system), start-up included. */
  cpuMs: number;
  /** Peak resident memory of the build process, MB. */
  peakMB: number;
}

export interface BuildTimes {
  runs: number;
  cold: BuildRun & { samples: BuildRun[] };
  warm: BuildRun & { samples: BuildRun[] };
  /** The last build's own report (`site-gen build --json`). */
  summary: BuildSummary;
}

export interface BuildSummary {
  out: string;
  ms: number;
  /** Milliseconds of each step of the build, from its start to its end (steps overlap). */
  times?: Record<string, number>;
  files: number;
  /** Files the build wrote (absent from builds before it was reported). */
  written?: number;
  rendered?: { kept: number; made: number };
  pages: Array<{ path: string; file: string; html: { raw: number; brotli: number }; inlineCss: { raw: number }; js: { raw: number; brotli: number; files: number } }>;
}

export interface BuildTimesOptions {
  root: string;
  out: string;
  runs: number;
}

/** Runs `node bin/site-gen.js build --out <out> --json` in `root` once; rejects with the build's own output when it fails. */
export async function runBuild(
  root: string,
  out: string,
  env: NodeJS.ProcessEnv = {},
  tool = toolRoot,
): Promise<{ run: BuildRun; summary: BuildSummary }> {
  const scratch = await mkdtemp(join(tmpdir(), 'site-gen-bench-'));
  const cpuFile = join(scratch, 'cpu-ms');
  const rssFile = join(scratch, 'rss-kb');
  try {
    const { wallMs, summary } = await spawnBuild(root, out, { ...env, BENCH_CPU_FILE: cpuFile, BENCH_RSS_FILE: rssFile }, tool);
    const cpuMs = Number(await readFile(cpuFile, 'utf8').catch(() => 'NaN'));
    const peakMB = Math.round(Number(await readFile(rssFile, 'utf8').catch(() => 'NaN')) / 1024);
    return { run: { wallMs, buildMs: summary.ms, cpuMs, peakMB }, summary };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function spawnBuild(root: string, out: string, env: NodeJS.ProcessEnv, tool: string): Promise<{ wallMs: number; summary: BuildSummary }> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const args = ['--import', cpuTime, join(tool, 'bin/site-gen.js'), 'build', '--out', out, '--json'];
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`site-gen build --out ${out} failed (exit ${code}):\n${(stderr || stdout).trim()}`));
      let summary: BuildSummary;
      try {
        summary = JSON.parse(stdout) as BuildSummary;
      } catch {
        return reject(new Error(`site-gen build --json printed something that is not JSON:\n${stdout.slice(0, 500)}`));
      }
      resolvePromise({ wallMs, summary });
    });
  });
}

export async function timeBuilds(options: BuildTimesOptions): Promise<BuildTimes> {
  const cache = join(options.root, 'node_modules/.cache/site-gen');
  const cold: BuildRun[] = [];
  const warm: BuildRun[] = [];
  let summary: BuildSummary | undefined;
  for (let i = 0; i < options.runs; i++) {
    // Cold: no site-gen cache (so no compiled tool either), as on a fresh checkout.
    await rm(cache, { recursive: true, force: true });
    cold.push((await runBuild(options.root, options.out)).run);
    const next = await runBuild(options.root, options.out);
    warm.push(next.run);
    summary = next.summary;
  }
  const pick = (runs: BuildRun[]) => ({
    wallMs: median(runs.map((r) => r.wallMs)),
    buildMs: median(runs.map((r) => r.buildMs)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    peakMB: median(runs.map((r) => r.peakMB)),
    samples: runs,
  });
  return { runs: options.runs, cold: pick(cold), warm: pick(warm), summary: summary! };
}
