// `npm run screenshots`: full-page PNGs of every page, at each width, in both themes, for a design review.
//
//   node --import tsx scripts/screenshots.ts [--url http://127.0.0.1:4400] [--widths 375,1440] [--out screenshots]
//
// Without --url it builds the site into .site-gen/screenshots-dist and serves it on a free port while it works.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright';

const PAGES = [
  { name: 'home', path: '/' },
  { name: 'contact', path: '/contact' },
  { name: '404', path: '/this-page-does-not-exist' },
];
const THEMES = ['dark', 'light'] as const;
const THEME_KEY = 'vite-ui-theme';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    widths: { type: 'string', default: '375,1440' },
    out: { type: 'string', default: 'screenshots' },
  },
});

const widths = values.widths.split(',').map((w) => Number(w.trim()));
if (widths.some((w) => !Number.isInteger(w) || w < 200 || w > 4000)) {
  console.error(
    `--widths must be a comma-separated list of pixel widths between 200 and 4000, e.g. "375,1440"; got "${values.widths}".`,
  );
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'bin/site-gen.js');
let server: ChildProcess | undefined;

async function startSite(): Promise<string> {
  const dist = path.join(root, '.site-gen/screenshots-dist');
  const build = spawnSync(process.execPath, [cli, 'build', '--out', dist], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('The build failed (see above); fix it and run the screenshots again.');
  server = spawn(process.execPath, [cli, 'serve', '--out', dist, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    server!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /https?:\/\/[^\s]+/.exec(output);
      if (match) resolve(match[0].replace(/\/$/, ''));
    });
    server!.on('exit', (code) =>
      reject(new Error(`site-gen serve stopped (exit code ${code}) before it printed its URL.`)),
    );
  });
}

async function main(): Promise<void> {
  const base = values.url?.replace(/\/$/, '') ?? (await startSite());
  const outDir = path.resolve(root, values.out);
  await mkdir(outDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  try {
    for (const theme of THEMES) {
      for (const width of widths) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
        // A string, not a function: tsx would add helpers to a function that do not exist in the page.
        await context.addInitScript(
          `try { localStorage.setItem(${JSON.stringify(THEME_KEY)}, ${JSON.stringify(theme)}) } catch {}`,
        );
        const page = await context.newPage();
        for (const { name, path: pagePath } of PAGES) {
          await page.goto(base + pagePath, { waitUntil: 'networkidle' });
          await page.evaluate('document.fonts.ready');
          // A full-page capture does not render what content-visibility: auto skips off screen (sections below the first
          // screen): render those as when they come into view, with the paint containment auto gives them.
          await page.evaluate(`for (const el of document.querySelectorAll('body *')) {
            if (getComputedStyle(el).contentVisibility === 'auto') { el.style.contentVisibility = 'visible'; el.style.contain = 'layout style paint'; }
          }`);
          // The entrance animations hide what is out of view until it is scrolled to: scroll through the page as a
          // visitor would, so that the capture shows every element as it looks once seen, then back to the top.
          await page.evaluate(`(async () => {
            for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
              scrollTo({ top: y, behavior: 'instant' });
              await new Promise((resolve) => setTimeout(resolve, 80));
            }
            scrollTo({ top: 0, behavior: 'instant' });
          })()`);
          // The longest entrance: 0.6 s after a delay of up to 0.6 s.
          await page.waitForTimeout(1300);
          const file = path.join(outDir, `${name}-${width}-${theme}.png`);
          await page.screenshot({ path: file, fullPage: true });
          console.log(path.relative(process.cwd(), file));
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

try {
  await main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  server?.kill();
}
