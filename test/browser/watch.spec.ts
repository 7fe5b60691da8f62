// `site-gen watch` as a developer uses it, on a copy of the project: edits show up by themselves, CSS applies in place,
// a broken component shows the error screen until it is fixed, unknown paths get 404, and Ctrl-C stops it cleanly.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { parseHeadersFile } from '../../src/core/http/headers-file.ts';
import { copyProject, startWatch, type ProjectCopy, type WatchProcess } from '../helpers/watch-project.ts';
import { expect as baseExpect, test } from './fixtures.ts';

// A rebuild and a reload take well under a second, but the test machine may be busy: wait up to 15 s for each state.
const expect = baseExpect.configure({ timeout: 15_000 });

const COPY = 'content/copy.ts';
const HERO = 'src/site/components/Hero.tsx';
const HERO_CSS = 'src/site/styles/hero.css';
const ERROR_TITLE = 'Unexpected Application Error!';
const NOT_FOUND_LOG =
  /404 Error: User attempted to access non-existent route:|Failed to load resource: the server responded with a status of 404/;

let project: ProjectCopy;
let watch: WatchProcess;

// One server on one copy: the tests edit the same files, so they take turns.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  project = await copyProject();
  watch = await startWatch(project.root);
});

test.afterEach(async () => {
  const from = watch.output().length;
  // Put the edited files back and wait for the rebuild, so the next test starts from the project as copied.
  if ((await project.restore()).length > 0)
    await watch.waitFor(/pages reloaded|stylesheet swapped|output unchanged/, { from });
});

test.afterAll(async () => {
  if (watch && watch.child.exitCode === null) await watch.stop();
  await project?.remove();
});

/** Opens a page of the watched site and waits until its reload client listens. */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(`${watch.url}${path}`);
  await expect(page.locator('html')).toHaveAttribute('data-site-gen-reload', 'connected');
}

test('a content edit shows on the open page, which reloads by itself', async ({ page }) => {
  await open(page, '/');
  await page.evaluate(() => ((window as unknown as { beforeEdit: boolean }).beforeEdit = true));
  await project.edit(COPY, (text) => text.replace(/(hero: \{\s*badge: )[^\n]*,/, "$1'Edited while watching',"));
  await expect(page.getByText('Edited while watching')).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { beforeEdit?: boolean }).beforeEdit),
    'the page was reloaded',
  ).toBeUndefined();
});

test('a CSS edit applies without a reload: state on window and the scroll position survive', async ({ page }) => {
  await open(page, '/');
  const hero = page.locator('.hero');
  await expect(hero).not.toHaveCSS('outline-offset', '11px');
  await page.evaluate(() => {
    (window as unknown as { beforeEdit: string }).beforeEdit = 'kept';
    // Instant: the site scrolls smoothly by default, which would still be moving when the stylesheet lands.
    window.scrollTo({ top: 300, behavior: 'instant' });
  });
  // Sections below the first screen are laid out as they come near (content-visibility: auto), and the browser's
  // scroll anchoring may then move the position by a pixel: within 2 px of 300 is where the visitor is.
  await expect.poll(() => page.evaluate(() => Math.abs(window.scrollY - 300))).toBeLessThanOrEqual(2);
  const before = await page.evaluate(() => window.scrollY);
  await project.edit(HERO_CSS, (text) => text.replace(/^\.hero \{\n/m, '.hero {\n  outline-offset: 11px;\n'));
  await expect(hero).toHaveCSS('outline-offset', '11px');
  expect(await page.evaluate(() => (window as unknown as { beforeEdit?: string }).beforeEdit), 'no reload').toBe(
    'kept',
  );
  const after = await page.evaluate(() => window.scrollY);
  expect(Math.abs(after - before), `the scroll position stays (${before} -> ${after})`).toBeLessThanOrEqual(2);
  await expect(page.locator('link#site-css'), 'one full stylesheet, the new one').toHaveCount(1);
});

test('a component that throws shows the error screen with the message and file, and the fix brings the page back', async ({
  page,
  problems,
}) => {
  problems.allow(/Failed to load resource: the server responded with a status of 500/);
  await open(page, '/');
  await project.edit(HERO, (text) =>
    text.replace(/(export function Hero\([^)]*\) \{)/, "$1\n  throw new Error('Hero broken by the watch test');"),
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ERROR_TITLE);
  await expect(page.getByText('Could not render /: Hero broken by the watch test')).toBeVisible();
  await expect(page.locator('.error-stack')).toContainText('src/site/components/Hero.tsx');
  expect((await page.request.get(`${watch.url}/`)).status(), 'the broken build answers 500').toBe(500);
  await expect(page.locator('html')).toHaveAttribute('data-site-gen-reload', 'connected');

  await project.restore();
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(ERROR_TITLE);
  await expect(page.locator('.hero')).toBeVisible();
  expect((await page.request.get(`${watch.url}/`)).status()).toBe(200);
});

test('a syntax error shows the error screen naming the file and line, and the fix brings the page back', async ({
  page,
  problems,
}) => {
  problems.allow(/Failed to load resource: the server responded with a status of 500/);
  await open(page, '/');
  await project.edit(HERO, (text) => text.replace('export function Hero(', 'export function Hero(('));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ERROR_TITLE);
  await expect(page.locator('.error-message')).toContainText(/src\/site\/components\/Hero\.tsx:\d+:\d+/);
  await project.restore();
  await expect(page.locator('.hero')).toBeVisible();
});

test('an unknown path gets the not-found page with status 404', async ({ page, problems }) => {
  problems.allow(NOT_FOUND_LOG);
  const response = await page.goto(`${watch.url}/no-such-page`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');
});

test('every response carries the headers site-gen build writes to dist/_headers: pages, assets, the reload client and its events', async ({
  page,
  problems,
}) => {
  problems.allow(NOT_FOUND_LOG);
  // The Playwright web server built this project's site.config.ts, which the watched copy has too.
  const built = parseHeadersFile(
    await readFile(path.resolve(process.env.SITE_GEN_TEST_DIST ?? '.site-gen/test-dist', '_headers'), 'utf8'),
    '_headers',
  );
  const expected = Object.fromEntries(Object.entries(built).map(([name, value]) => [name.toLowerCase(), value]));
  const seen = new Map<string, Record<string, string>>();
  page.on('response', (response) => seen.set(new URL(response.url()).pathname, response.headers()));
  await open(page, '/contact');
  const paths = [...seen.keys()];
  for (const wanted of ['/contact', /^\/__site-gen\/reload-\w+\.js$/, '/__site-gen/events']) {
    expect(
      paths.some((p) => (typeof wanted === 'string' ? p === wanted : wanted.test(p))),
      `a response for ${wanted}`,
    ).toBe(true);
  }
  const stylesheet = await page.locator('link#site-css').getAttribute('href');
  const more = await Promise.all(
    [`${watch.url}/no-such-page`, `${watch.url}${stylesheet}`].map((url) => page.request.get(url)),
  );
  const answers = [...seen.values(), ...more.map((answer) => answer.headers())];
  for (const headers of answers)
    for (const [name, value] of Object.entries(expected)) expect(headers[name], name).toBe(value);
});

test('Ctrl-C stops the server: exit code 0 and the port is free', async () => {
  const code = await watch.stop('SIGINT');
  expect(code).toBe(0);
  expect(watch.output()).toContain('Stopped.');
  await expect(fetch(`${watch.url}/`)).rejects.toThrow();
});
