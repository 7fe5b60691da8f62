// A visitor browses the real site after `site-gen deploy` put it in a bucket served by S3 website hosting (s3rver).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page, Response } from '@playwright/test';
import { deploy } from '../../src/deploy/deploy.ts';
import { startS3rver, type S3rverHandle } from '../helpers/s3rver.ts';
import { expect, test } from './fixtures.ts';

// Built by the Playwright web server before any test runs.
const dist = resolve(process.env.SITE_GEN_TEST_DIST ?? '.site-gen/test-dist');
// s3rver serves the bucket named by the Host header, as S3 does for website endpoints; Chromium resolves every
// *.localhost name to 127.0.0.1, so root-relative URLs such as /assets/... resolve inside the bucket.
const BUCKET = 'site-gen-test.localhost';

let server: S3rverHandle;
let origin: string;

function titleOf(file: string): string {
  const html = readFileSync(resolve(dist, file), 'utf8');
  const raw = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
  return raw
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");
}

/** Every response the page got from the bucket, to check that nothing it asked for is missing. */
function recordResponses(page: Page): Response[] {
  const responses: Response[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(origin)) responses.push(response);
  });
  return responses;
}

const failed = (responses: Response[]) =>
  responses.filter((r) => r.status() >= 400).map((r) => `${r.status()} ${r.url()}`);

test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  server = await startS3rver({ buckets: [{ name: BUCKET }] });
  // --configure-website sets index.html and 404.html, as a deployer would on a new bucket.
  await deploy({
    outDir: dist,
    bucket: BUCKET,
    prefix: '',
    dryRun: false,
    maxDeletes: 256,
    concurrency: 8,
    gzip: false,
    configureWebsite: true,
    client: server.client(),
    output: { write: () => {} },
  });
  origin = `http://${BUCKET}:${server.port}`;
});

test.afterAll(async () => {
  await server?.dispose();
});

test('the home page answers at / with its styles and scripts, cached as the deploy set them', async ({ page }) => {
  const responses = recordResponses(page);
  const response = await page.goto(`${origin}/`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
  expect(response?.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  await expect(page).toHaveTitle(titleOf('index.html'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(failed(responses), 'everything the page asks for is in the bucket').toEqual([]);
  const assets = responses.filter((r) => new URL(r.url()).pathname.startsWith('/assets/'));
  expect(assets.length, 'the page loads hashed assets').toBeGreaterThan(0);
  for (const asset of assets)
    expect(asset.headers()['cache-control'], asset.url()).toBe('public, max-age=31536000, immutable');
});

test('/contact answers with the contact page itself, without a redirect', async ({ page }) => {
  const responses = recordResponses(page);
  const response = await page.goto(`${origin}/contact`);
  expect(response?.status()).toBe(200);
  expect(response?.request().redirectedFrom(), 'no redirect to /contact/').toBeNull();
  expect(page.url()).toBe(`${origin}/contact`);
  await expect(page).toHaveTitle(titleOf('contact/index.html'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(failed(responses)).toEqual([]);
});

test('/contact/ answers with the contact page too', async ({ page }) => {
  const responses = recordResponses(page);
  const response = await page.goto(`${origin}/contact/`);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle(titleOf('contact/index.html'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(failed(responses)).toEqual([]);
});

test("an unknown path gets the site's 404 page with status 404", async ({ page, problems }) => {
  // The browser logs the 404 answer itself, and the not-found page logs the path asked for.
  problems.allow(/status of 404/);
  problems.allow(/non-existent route/);
  const responses = recordResponses(page);
  const response = await page.goto(`${origin}/no-such-page`);
  expect(response?.status()).toBe(404);
  expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
  await expect(page).toHaveTitle(titleOf('404.html'));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(
    failed(responses).filter((line) => !line.endsWith('/no-such-page')),
    "the 404 page's own assets load",
  ).toEqual([]);
});
