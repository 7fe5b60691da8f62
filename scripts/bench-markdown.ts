// Markdown at scale: N generated entries (one page each, and an index) built cold by site-gen and by Eleventy 3, back to
// back on this machine; site-gen also with precompression off (--no-precompress), and rebuilt with nothing changed.
// Writes its section of bench/RESULTS.md. Run: npm run bench:markdown [-- --entries 4000 --runs 3 --dry-run]
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { eleventyMarkdownSite, siteGenMarkdownSite } from '../bench/lib/markdown-site.ts';
import { currentLoad, describeMachine } from '../bench/lib/machine.ts';
import { writeSection } from '../bench/lib/results-section.ts';
import { median } from '../bench/lib/stats.ts';

const { values: flags } = parseArgs({
  options: {
    entries: { type: 'string', default: '4000' },
    runs: { type: 'string', default: '3' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const ENTRIES = Number(flags.entries);
const RUNS = Number(flags.runs);
const TOOL = join(import.meta.dirname, '..');
const work = join(tmpdir(), `site-gen-bench-markdown-${process.pid}`);
const siteGen = join(work, 'site-gen');
/** The site's own cache folder (src/core/paths.ts), not the tool's. */
const CACHE = join(siteGen, 'node_modules/.cache/site-gen');
const eleventy = join(work, 'eleventy');

const cpuTime = pathToFileURL(join(TOOL, 'bench/lib/cpu-time.js')).href;
const cpuFile = join(tmpdir(), `site-gen-bench-markdown-cpu-${process.pid}`);
const userFile = join(tmpdir(), `site-gen-bench-markdown-user-${process.pid}`);

interface Timing {
  wall: number;
  /** CPU time of the Node process, all its threads (esbuild's own process, for site-gen's scripts, not counted). */
  cpu: number;
  /** The user part of `cpu`: the system part is mostly the file system's, and varies with the disk's other users. */
  user: number;
}

/** Runs a Node script to its end; resolves with its wall-clock and CPU milliseconds, rejects with its output if it fails. */
function timed(args: string[], cwd: string): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', cpuTime, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BENCH_CPU_FILE: cpuFile, BENCH_USER_FILE: userFile },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) =>
      code === 0
        ? resolve({
            wall: performance.now() - started,
            cpu: Number(readFileSync(cpuFile, 'utf8')),
            user: Number(readFileSync(userFile, 'utf8')),
          })
        : reject(new Error(`${args.join(' ')} failed (${code}):\n${output.slice(-3000)}`)),
    );
  });
}

/**
 * Every build writes into a folder no build used before, and no output is deleted until every run is timed: on this
 * disk, deleting a tree of thousands of folders makes the next thousands of file creations, by whichever process,
 * cost seconds of system time (docs/benchmarks.md, "Output folders"), so a deletion just before a run would time the
 * deletion rather than the tool.
 */
let outputs = 0;
const freshOutput = (tool: string) => join(work, 'out', `${tool}-${(outputs += 1)}`);

/** Clears what a cold site-gen build must not find: its pages, images and build records (the compiled tool stays). */
async function coldSiteGen(): Promise<void> {
  for (const dir of ['pages', 'images', 'builds']) await rm(join(CACHE, dir), { recursive: true, force: true });
}

const build = (out: string, ...extra: string[]) =>
  timed([join(TOOL, 'bin/site-gen.js'), 'build', '--out', out, ...extra], siteGen);
const eleventyCmd = join(TOOL, 'node_modules/@11ty/eleventy/cmd.cjs');

console.log(`Generating ${ENTRIES} entries in ${work} ...`);
await siteGenMarkdownSite(siteGen, ENTRIES, TOOL);
await eleventyMarkdownSite(eleventy, ENTRIES);
// The tool compiles itself on first use: done once here, outside every timing.
await build(freshOutput('warm-up'), '--no-precompress');

const times = {
  siteGen: [] as Timing[],
  eleventy: [] as Timing[],
  noCompress: [] as Timing[],
  unchanged: [] as Timing[],
};
const loads: number[] = [];
/** The first cold site-gen output, to count its pages. */
let firstOutput: string | undefined;
for (let run = 0; run < RUNS; run += 1) {
  await coldSiteGen();
  const out = freshOutput('site-gen');
  firstOutput ??= out;
  times.siteGen.push(await build(out));
  times.unchanged.push(await build(out));
  times.eleventy.push(await timed([eleventyCmd, '--quiet', `--output=${freshOutput('eleventy')}`], eleventy));
  await coldSiteGen();
  times.noCompress.push(await build(freshOutput('site-gen-no-precompress'), '--no-precompress'));
  loads.push(currentLoad());
  console.log(
    `run ${run + 1}: site-gen ${s(times.siteGen.at(-1)!.wall)}, Eleventy ${s(times.eleventy.at(-1)!.wall)}, site-gen --no-precompress ${s(times.noCompress.at(-1)!.wall)}, unchanged ${s(times.unchanged.at(-1)!.wall)} (load ${loads.at(-1)})`,
  );
}
const pages = firstOutput && existsSync(join(firstOutput, 'posts')) ? ENTRIES + 3 : Number.NaN;

function s(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

const machine = describeMachine(process.env.CHROME_PATH ?? '/usr/bin/chromium');
const wall = (runs: Timing[]) => median(runs.map((run) => run.wall));
const cpu = (runs: Timing[]) => median(runs.map((run) => run.cpu));
const user = (runs: Timing[]) => median(runs.map((run) => run.user));
const measured = [
  [
    'site-gen, cold',
    times.siteGen,
    'Markdown + Shiki, React pages, link and #anchor check, critical CSS, CSP, .br + .gz',
  ],
  ['Eleventy 3.1.8, cold', times.eleventy, 'markdown-it, one Nunjucks layout; no highlighting, checks or compression'],
  ['site-gen --no-precompress, cold', times.noCompress, 'the same as site-gen without .br/.gz and the budgets'],
  ['site-gen, nothing changed', times.unchanged, 'the build record finds nothing changed'],
] as const;
const rows = [
  ['build', 'wall, median', 'CPU, median', 'of which user', 'wall of each run', 'what it does'],
  ...measured.map(([name, runs, note]) => [
    name,
    s(wall(runs)),
    s(cpu(runs)),
    s(user(runs)),
    runs.map((run) => s(run.wall)).join(', '),
    note,
  ]),
];
const ratio = (a: Timing[], b: Timing[]) =>
  `${(wall(a) / wall(b)).toFixed(2)} wall, ${(cpu(a) / cpu(b)).toFixed(2)} CPU, ${(user(a) / user(b)).toFixed(2)} user CPU`;
const section = [
  `### Markdown: ${ENTRIES.toLocaleString('en')} entries, site-gen beside Eleventy 3`,
  '',
  `${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; ${machine.date}; load during the runs ${loads.join(', ')}. Each run builds cold into an output folder no build used before (none is deleted until every run is timed), back to back in this order: site-gen, site-gen again with nothing changed, Eleventy, site-gen --no-precompress. Wall clock of the whole process, and its CPU time (all threads; user and system, then user alone: the system time of writing thousands of small files on this disk swings from run to run with its other users), output on this disk. Generated by \`npm run bench:markdown\` (bench/lib/markdown-site.ts: headings, paragraphs, lists, links, a fenced JS block in every fourth entry; ${pages} site-gen pages).`,
  '',
  ...markdownTable(rows),
  '',
  `site-gen cold / Eleventy cold: ${ratio(times.siteGen, times.eleventy)}; --no-precompress / Eleventy: ${ratio(times.noCompress, times.eleventy)}.`,
].join('\n');
console.log(`\n${section}`);
if (!flags['dry-run']) {
  await writeSection(join(TOOL, 'bench/RESULTS.md'), 'markdown', section);
}
await Promise.all([work, cpuFile, userFile].map((path) => rm(path, { recursive: true, force: true })));

/** A Markdown table with its columns padded, as the formatter (Biome) writes it. */
function markdownTable(table: string[][]): string[] {
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(table[0]!), line(widths.map((width) => '-'.repeat(width))), ...table.slice(1).map(line)];
}
