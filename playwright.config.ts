// Browser tests run in Debian's Chromium against sites built and served by site-gen itself.
import { defineConfig } from '@playwright/test';

const SITE_PORT = Number(process.env.PW_SITE_PORT ?? 4399);
const FIXTURE_PORT = Number(process.env.PW_FIXTURE_PORT ?? 4398);
const cli = 'node bin/site-gen.js';

export default defineConfig({
  testDir: 'test/browser',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  // Islands load React at the first interaction: on a 2-core CI machine running two workers that can take over 5 s.
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'off',
  },
  projects: [
    { name: 'site', testIgnore: /pipeline\.spec\.ts/, use: { baseURL: `http://127.0.0.1:${SITE_PORT}` } },
    { name: 'pipeline', testMatch: /pipeline\.spec\.ts/, use: { baseURL: `http://127.0.0.1:${FIXTURE_PORT}` } },
  ],
  webServer: [
    {
      command: `${cli} build --out .site-gen/test-dist && ${cli} serve --out .site-gen/test-dist --port ${SITE_PORT}`,
      url: `http://127.0.0.1:${SITE_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      command: `${cli} build --config test/fixtures/basic/site.config.ts --out .site-gen/test-fixture-dist && ${cli} serve --out .site-gen/test-fixture-dist --port ${FIXTURE_PORT}`,
      url: `http://127.0.0.1:${FIXTURE_PORT}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
