// The security headers as a visitor's browser gets them from `site-gen serve`: equal to dist/_headers on every
// response, enforced (no other site can frame a page), and breaking nothing (no CSP violation in either theme).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { parseHeadersFile } from '../../src/core/http/headers-file.ts';
import { expect, gotoWithTheme, nextFrames, test, transitionsEnded } from './fixtures.ts';

// Built by the Playwright web server before any test runs.
const dist = resolve(process.env.SITE_GEN_TEST_DIST ?? '.site-gen/test-dist');
const NOT_FOUND_LOG =
  /404 Error: User attempted to access non-existent route:|Failed to load resource: the server responded with a status of 404/;

function builtHeaders(): Record<string, string> {
  return parseHeadersFile(readFileSync(resolve(dist, '_headers'), 'utf8'), 'dist/_headers');
}

test('dist/_headers has the policy: header CSP with frame-ancestors, HSTS, nosniff, Referrer-Policy, Permissions-Policy', () => {
  const headers = builtHeaders();
  expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
  expect(headers['Strict-Transport-Security']).toMatch(/^max-age=\d+/);
  expect(headers['X-Content-Type-Options']).toBe('nosniff');
  expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['Permissions-Policy']).toContain('camera=()');
});

test('every response of site-gen serve carries exactly the headers of dist/_headers', async ({ page, request }) => {
  await page.goto('/');
  const script = await page.locator('script[data-entry]').first().getAttribute('data-entry');
  const stylesheet = await page.locator('link#site-css').getAttribute('href');
  const expected = Object.fromEntries(
    Object.entries(builtHeaders()).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const paths = [
    '/',
    '/contact',
    '/contact/',
    '/index.html',
    '/no-such-page',
    '/favicon.svg',
    '/sitemap.xml',
    '/robots.txt',
    script!,
    stylesheet!,
  ];
  for (const path of paths) {
    for (const method of ['GET', 'HEAD'] as const) {
      const answer = await request.fetch(path, { method, headers: { 'Accept-Encoding': 'br, gzip' } });
      const got = answer.headers();
      for (const [name, value] of Object.entries(expected)) expect(got[name], `${method} ${path}: ${name}`).toBe(value);
    }
  }
  const revalidation = await request.get(script!, {
    headers: { 'If-None-Match': (await request.get(script!)).headers().etag! },
  });
  expect(revalidation.status(), 'a 304 answer').toBe(304);
  expect(revalidation.headers()['content-security-policy'], 'a 304 carries them too').toBe(
    expected['content-security-policy'],
  );
  const refused = await request.fetch('/', { method: 'POST' });
  expect(refused.status()).toBe(405);
  expect(refused.headers()['x-content-type-options'], 'so does a 405').toBe('nosniff');
});

test('_headers itself is not served, as on the hosts that read it', async ({ request }) => {
  const answer = await request.get('/_headers');
  expect(answer.status()).toBe(404);
  expect(await answer.text()).not.toContain('Content-Security-Policy:');
});

test("no other site can show a page in a frame (frame-ancestors 'none')", async ({ page, problems, baseURL }) => {
  problems.allow(/Refused to frame|Failed to load resource/);
  // A page of another origin that frames the site's contact page.
  await page.route('http://embedder.test/', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>embedder</title><iframe src="${baseURL}/contact"></iframe>`,
    }),
  );
  await page.goto('http://embedder.test/');
  // Without the header the frame shows /contact; with it, Chromium puts its error page in the frame instead.
  const framed = () =>
    page
      .frames()
      .filter((frame) => frame !== page.mainFrame())
      .map((frame) => frame.url());
  await expect
    .poll(framed, 'the browser refused to show the page in the frame')
    .toEqual(['chrome-error://chromewebdata/']);
});

for (const theme of ['dark', 'light'] as const) {
  for (const path of ['/', '/contact', '/no-such-page']) {
    test(`${path} in the ${theme} theme: no CSP violation or console error under the header CSP, and axe finds nothing`, async ({
      page,
      problems,
    }) => {
      if (path === '/no-such-page') problems.allow(NOT_FOUND_LOG);
      const violations: string[] = [];
      await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
      await page.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (event) =>
          (window as unknown as { reportViolation(text: string): void }).reportViolation(
            `${event.violatedDirective} ${event.blockedURI}`,
          ),
        ),
      );
      const answer = await page.request.get(path);
      expect(answer.headers()['content-security-policy'], 'the page is served under the header CSP').toContain(
        "frame-ancestors 'none'",
      );
      await gotoWithTheme(page, path, theme);
      await page.waitForLoadState('networkidle');
      // Scroll to the end, so the islands that hydrate when visible load their code too. The sections below the first
      // screen are rendered as they come near (content-visibility: auto) and may turn out taller than estimated:
      // scroll again until the end stays put.
      await page.evaluate(async () => {
        const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        for (let last = -1; last !== window.scrollY; ) {
          last = window.scrollY;
          window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
          await frames();
        }
      });
      await page.waitForLoadState('networkidle');
      // What the scroll brought into view fades in (once its observer has reported it) and the full stylesheet
      // applies, if the fonts had not brought it already: axe measures contrast on what is painted, so wait until
      // nothing well in view (over the observer's 10 %) is still hidden and the fades have ended.
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              [...document.querySelectorAll('[data-reveal-state="hidden"]')].filter((el) => {
                const box = el.getBoundingClientRect();
                return (
                  box.height > 0 && (Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0)) / box.height > 0.2
                );
              }).length,
          ),
        )
        .toBe(0);
      await nextFrames(page);
      await transitionsEnded(page);
      expect(violations).toEqual([]);
      const axe = await new AxeBuilder({ page }).analyze();
      expect(
        axe.violations.map(
          (v) =>
            `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} (${n.failureSummary?.replace(/\s+/g, ' ')})`).join(', ')}`,
        ),
      ).toEqual([]);
    });
  }
}
