// `site-gen build`: renders the site into the output folder and prints what each page weighs.
import type { Command } from 'commander';
import { relative } from 'node:path';
import type { BuildResult } from '../pipeline/build.ts';
import { configOption, outOption } from './options.ts';

interface BuildFlags {
  config: string;
  out: string;
  base: string;
  json?: boolean;
  cache: boolean;
  precompress: boolean;
}

export function addBuildCommand(program: Command): void {
  program
    .command('build')
    .description(
      'render every route to static HTML with critical CSS and island scripts, check links and budgets, write the output folder atomically',
    )
    .addOption(configOption())
    .addOption(outOption('written by the build, replaced only when the build succeeds'))
    .option('--base <path>', 'URL path the site is served under, e.g. /my-site/', '/')
    .option('--json', 'print the summary as JSON instead of a table')
    .option('--no-cache', 'make every page, script and compressed file again, ignoring node_modules/.cache/site-gen')
    .option('--no-precompress', 'write no .br/.gz files and skip the budgets (brotli sizes): for a quick local build')
    .action(async (flags: BuildFlags) => {
      // Loaded when the command runs: the build's packages (esbuild, lightningcss, linkedom, React's renderer) are most
      // of the start-up time, which --help and the other commands do not need to pay.
      const { buildSite } = await import('../pipeline/build.ts');
      const result = await buildSite({
        config: flags.config,
        out: flags.out,
        base: flags.base,
        cache: flags.cache,
        precompress: flags.precompress,
      });
      process.stdout.write(
        flags.json ? `${JSON.stringify(summaryJson(result, flags.out), null, 2)}\n` : summaryTable(result, flags.out),
      );
    });
}

export function summaryJson(result: BuildResult, out: string) {
  return {
    out,
    ms: result.ms,
    times: result.times,
    compressed: result.compressed,
    rendered: result.rendered,
    images: result.images,
    files: result.files.size,
    upToDate: result.upToDate,
    pages: result.pages,
  };
}

export function summaryTable(result: BuildResult, out: string): string {
  const kb = (n: number) => (n / 1024).toFixed(1);
  const head = ['route', 'file', 'HTML KB', 'HTML br', 'inline CSS KB', 'JS KB', 'JS br', 'JS files'];
  const rows = result.pages.map((p) => [
    p.path,
    p.file,
    kb(p.html.raw),
    kb(p.html.brotli),
    kb(p.inlineCss.raw),
    kb(p.js.raw),
    kb(p.js.brotli),
    String(p.js.files),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const rel = relative(process.cwd(), out);
  const shown = rel && !rel.startsWith('..') ? rel : out;
  return [
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `Built ${result.pages.length} pages, ${result.files.size} files into ${shown}/ in ${result.ms} ms.`,
    '',
  ].join('\n');
}
