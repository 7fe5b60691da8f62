// Measures `site-gen watch` as a developer feels it, in Chromium on a copy of the project:
// content edit -> reloaded page, CSS edit -> swapped stylesheet (medians of 20 each), then 100 edits in a row, a third
// of them breaking the build, after which the server must still answer and show the last edit.
// Run: npm run bench:watch (node --import tsx scripts/bench-watch.ts)
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright';
import { connected, reloadedWith } from '../bench/lib/reload.ts';
import { copyProject, startWatch } from '../test/helpers/watch-project.ts';

const EDITS = 20;
/** How long the browser waits for a reload, a reconnection or a swapped stylesheet before the bench fails. */
const WAIT_MS = 15_000;
const STORM = 100;
const COPY = 'content/copy.ts';
const HERO = 'src/site/components/Hero.tsx';
const HERO_CSS = 'src/site/styles/hero.css';

/** The home page's hero badge: a short text every visitor sees first. */
const setBadge = (value: string) => (text: string) => text.replace(/(hero: \{\s*badge: )[^\n]*,/, `$1${value},`);
const setOffset = (px: number) => (text: string) =>
  text.replace(/^\.hero \{\n(  outline-offset: \d+px;\n)?/m, `.hero {\n  outline-offset: ${px}px;\n`);
const breakSyntax = (text: string) => text.replace(/export function Hero\(/, 'export function Hero((');
const throwInRender = (text: string) =>
  text.replace(/(export function Hero\([^)]*\) \{)/, "$1\n  throw new Error('Hero broken by the benchmark');");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]!
    : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
}

function stats(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const p90 = sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))]!;
  return `median ${Math.round(median(values))} ms (min ${Math.round(sorted[0]!)}, p90 ${Math.round(p90)}, max ${Math.round(sorted.at(-1)!)})`;
}

/** A fixed pseudo-random sequence (same run to run): the pauses between the storm's edits. */
function* pauses(): Generator<number> {
  let seed = 7;
  for (;;) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const r = seed / 2 ** 31;
    yield r < 0.3 ? 0 : r < 0.7 ? Math.round(r * 60) : Math.round(r * 250);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Linux's CPU pressure (share of the last 10 s some task waited for a CPU): other work on the machine skews timings. */
function cpuPressure(): string {
  try {
    return `${/some avg10=([\d.]+)/.exec(readFileSync('/proc/pressure/cpu', 'utf8'))![1]}%`;
  } catch {
    return 'unknown';
  }
}

const project = await copyProject();
const watch = await startWatch(project.root);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
let failed = false;
try {
  const page = await browser.newPage();
  await page.goto(`${watch.url}/`);
  await connected(page, WAIT_MS);
  console.log(
    `site-gen watch on a copy of the project at ${watch.url}; Chromium ${browser.version()}; CPU pressure ${cpuPressure()}`,
  );

  // 1. Content edits: from the save to the reloaded page's load event; also to the start of the reload, and to the
  // first paint of the new page.
  const content: number[] = [];
  const toNavigation: number[] = [];
  const toPaint: number[] = [];
  const rebuildsFrom = watch.output().length;
  for (let i = 0; i < EDITS; i += 1) {
    const text = `Bench content edit ${i}`;
    const saved = Date.now();
    await project.edit(COPY, setBadge(`'${text}'`));
    await reloadedWith(page, text, WAIT_MS);
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        start: performance.timeOrigin,
        painted: performance.timeOrigin + (paint?.startTime ?? nav.domContentLoadedEventEnd),
        loaded: performance.timeOrigin + nav.loadEventEnd,
      };
    });
    content.push(timing.loaded - saved);
    toNavigation.push(timing.start - saved);
    toPaint.push(timing.painted - saved);
    await connected(page, WAIT_MS);
  }
  console.log(`content edit -> reloaded page (load event): ${stats(content)}`);
  console.log(`  save -> reload starts (watcher, rebuild, event): ${stats(toNavigation)}`);
  console.log(`  save -> new page first painted: ${stats(toPaint)}`);
  const rebuildMs = [
    ...watch
      .output()
      .slice(rebuildsFrom)
      .matchAll(/ in (\d+) ms; pages reloaded/g),
  ].map((m) => Number(m[1]));
  console.log(`  the rebuild itself, as the terminal prints it: ${stats(rebuildMs)}`);

  // 2. CSS edits: from the save to the frame that shows the new rule, with no reload in between.
  await page.evaluate(() => ((window as unknown as { benchMarker: string }).benchMarker = 'kept'));
  const css: number[] = [];
  for (let i = 0; i < EDITS; i += 1) {
    const px = 10 + i;
    const saved = Date.now();
    await project.edit(HERO_CSS, setOffset(px));
    const shown = await page.waitForFunction(
      (expected) => (getComputedStyle(document.querySelector('.hero')!).outlineOffset === expected ? Date.now() : 0),
      `${px}px`,
      { polling: 'raf', timeout: WAIT_MS },
    );
    css.push((await shown.jsonValue()) - saved);
  }
  const kept = await page.evaluate(() => (window as unknown as { benchMarker?: string }).benchMarker);
  if (kept !== 'kept') throw new Error('A CSS edit reloaded the page: the value set on window is gone.');
  console.log(`CSS edit -> stylesheet swapped (no reload): ${stats(css)}`);

  // 3. A storm of edits, one in three breaking the build, each break mended by the next edit.
  const breaks = [
    { name: 'syntax error', file: HERO, change: breakSyntax },
    { name: 'component throws', file: HERO, change: throwInRender },
    { name: 'invalid content', file: COPY, change: setBadge('42') },
  ];
  const goodHero = await project.read(HERO);
  const linesBefore = watch.output().split('\n').length;
  const started = Date.now();
  const gaps = pauses();
  let last = '';
  let broken: (typeof breaks)[number] | undefined;
  for (let i = 0; i < STORM; i += 1) {
    if (i % 3 === 1) {
      broken = breaks[Math.floor(i / 3) % breaks.length]!;
      await project.edit(broken.file, broken.change);
    } else if (i % 3 === 2 && broken?.file === HERO) {
      await project.write(HERO, goodHero);
    } else {
      last = `Bench storm edit ${i}`;
      await project.edit(COPY, setBadge(`'${last}'`));
    }
    await sleep(gaps.next().value);
  }
  await page.waitForFunction(
    (t) => document.readyState === 'complete' && document.body.textContent!.includes(t),
    last,
    { timeout: 30_000 },
  );
  const settled = Date.now() - started;
  const rebuilds = watch
    .output()
    .split('\n')
    .slice(linesBefore)
    .filter((line) => /^\d\d:\d\d:\d\d /.test(line));
  const home = await fetch(`${watch.url}/`);
  const homeHtml = await home.text();
  const contact = await fetch(`${watch.url}/contact`);
  const missing = await fetch(`${watch.url}/no-such-page`);
  const checks = [
    [home.status === 200, `/ answers 200 (got ${home.status})`],
    [homeHtml.includes(last), `/ shows the last edit "${last}"`],
    [!homeHtml.includes('Unexpected Application Error!'), '/ shows no error screen'],
    [contact.status === 200, `/contact answers 200 (got ${contact.status})`],
    [missing.status === 404, `an unknown path answers 404 (got ${missing.status})`],
    [(await page.getByText(last).count()) > 0, 'the open page shows the last edit'],
  ] as const;
  console.log(
    `${STORM} edits (${Math.floor(STORM / 3)} breaking: ${breaks.map((b) => b.name).join(', ')}): ` +
      `${rebuilds.length} rebuilds, ${rebuilds.filter((l) => l.includes('failed')).length} of them failed; ` +
      `the open page showed the last edit ${settled} ms after the first`,
  );
  for (const [ok, what] of checks) {
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
    if (!ok) failed = true;
  }
  const met = (value: number, bar: number) =>
    `${Math.round(value)} ms (bar ${bar}: ${value < bar ? 'met' : 'NOT met'})`;
  console.log(
    `\nmedians: content edit -> reloaded page ${met(median(content), 300)}, CSS edit -> swapped stylesheet ${met(median(css), 150)}; CPU pressure at the end ${cpuPressure()}`,
  );
} catch (error) {
  failed = true;
  console.error(error);
  console.error(`site-gen watch printed:\n${watch.output()}`);
} finally {
  await browser.close();
  const code = await watch.stop();
  if (code !== 0) {
    console.error(`site-gen watch exited with ${code} after Ctrl-C, not 0.`);
    failed = true;
  }
  await project.remove();
}
process.exitCode = failed ? 1 : 0;
