// The first tap's promises (the menu, a FAQ question, the theme) checked in Firefox (firefox-esr, over WebDriver BiDi with puppeteer-core) and WebKit
// (WebKitGTK's MiniBrowser, over WebDriver with selenium-webdriver), which Playwright cannot drive here; the same
// checks run in Chromium too. Every script is held back by the server: what is checked works before any download.
// Run: node --import tsx test/browser/engines/first-tap.ts [chromium|firefox|firefox-dark|webkit|webkit-dark ...] (needs a display for WebKit:
// it starts Xvfb :99 itself). Exits non-zero if a check fails in any engine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import mime from 'mime';

const ROOT = resolve(import.meta.dirname, '../../..');
const OUT = join(ROOT, '.site-gen/engines-dist');

interface Driver {
  goto(url: string): Promise<void>;
  setSize(width: number, height: number): Promise<void>;
  click(selector: string): Promise<void>;
  key(key: 'Tab' | 'Shift+Tab' | 'Escape' | 'Enter'): Promise<void>;
  /** Runs `body` (a function body's source) in the page; returns its JSON-able result. */
  run<T>(body: string): Promise<T>;
  /** Emulates the operating system's light or dark scheme, where the driver can (not over WebKit's WebDriver). */
  colorScheme?(scheme: 'light' | 'dark'): Promise<void>;
  /** The scheme the engine was launched with, where it cannot switch it live. */
  launchedScheme?: 'light' | 'dark';
  close(): Promise<void>;
}

/** Serves the built site; every script request waits until the server closes: nothing downloaded can answer. */
async function serveHoldingScripts(dir: string): Promise<{ url: string; server: Server }> {
  // A page's held requests are let go when the next page is asked for: an engine that keeps them open across
  // navigations (WebKit) would otherwise run out of connections to the server.
  const held = new Set<import('node:http').ServerResponse>();
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    if (path.endsWith('.js')) {
      held.add(response);
      return;
    }
    if (!extname(path)) {
      for (const waiting of held) waiting.destroy();
      held.clear();
    }
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : extname(path) ? path : `${path}/index.html`);
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': mime.getType(file) ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function poll<T>(driver: Driver, body: string, until: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 5000;
  let value = await driver.run<T>(body);
  while (!until(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: got ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
    value = await driver.run<T>(body);
  }
  return value;
}

const MENU_STATE = `
  const dialog = document.getElementById('site-menu');
  const button = document.getElementById('menu-button');
  const panel = dialog.querySelector('.menu-panel').getBoundingClientRect();
  const active = document.activeElement;
  return {
    open: dialog.open && dialog.matches(':modal'),
    expanded: button.getAttribute('aria-expanded'),
    focus: active === button ? 'button' : dialog.contains(active) ? 'dialog' : (active && active.id) || 'body',
    locked: getComputedStyle(document.documentElement).overflow === 'hidden',
    panel: { left: Math.round(panel.left), right: Math.round(panel.right), top: Math.round(panel.top), bottom: Math.round(panel.bottom) },
    hash: location.hash,
    width: innerWidth,
    height: innerHeight,
  };`;

interface MenuState {
  open: boolean;
  expanded: string;
  focus: string;
  locked: boolean;
  panel: { left: number; right: number; top: number; bottom: number };
  hash: string;
  width: number;
  height: number;
}

type Check = (driver: Driver, url: string) => Promise<void>;

/** JSON with sorted keys: engines return an object's keys in different orders. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  );
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (canonical(actual) !== canonical(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const checks: Record<string, Check> = {
  async 'the menu opens as a modal drawer from 768 px: focus in and kept, Escape closes, focus back, page locked'(
    driver,
    url,
  ) {
    await driver.setSize(1024, 768);
    await driver.goto(`${url}/`);
    await driver.click('#menu-button');
    const state = await poll<MenuState>(driver, MENU_STATE, (s) => s.open, 'the dialog opens');
    expectEqual([state.expanded, state.focus, state.locked], ['true', 'dialog', true], 'expanded, focus, scroll lock');
    if (state.panel.right !== state.width || state.panel.left <= state.width / 2)
      throw new Error(`a right-side drawer: panel ${JSON.stringify(state.panel)} in a ${state.width} px window`);
    for (let i = 1; i <= 8; i++) {
      await driver.key('Tab');
      expectEqual((await driver.run<MenuState>(MENU_STATE)).focus, 'dialog', `focus after Tab ${i}`);
    }
    await driver.key('Shift+Tab');
    expectEqual((await driver.run<MenuState>(MENU_STATE)).focus, 'dialog', 'focus after Shift+Tab');
    await driver.key('Escape');
    const closed = await poll<MenuState>(
      driver,
      MENU_STATE,
      (s) => !s.open && s.expanded === 'false',
      'Escape closes it',
    );
    expectEqual([closed.expanded, closed.focus, closed.locked], ['false', 'button', false], 'after Escape');
  },

  async 'the close button closes it and gives focus back; a section link closes it and goes there'(driver, url) {
    await driver.setSize(1024, 768);
    await driver.goto(`${url}/`);
    await driver.click('#menu-button');
    await poll<MenuState>(driver, MENU_STATE, (s) => s.open, 'the dialog opens');
    await driver.click('#site-menu button.menu-close');
    const closed = await poll<MenuState>(
      driver,
      MENU_STATE,
      (s) => !s.open && s.expanded === 'false',
      'the close button closes it',
    );
    expectEqual([closed.expanded, closed.focus], ['false', 'button'], 'after the close button');
    await driver.click('#menu-button');
    await poll<MenuState>(driver, MENU_STATE, (s) => s.open, 'the dialog opens again');
    await driver.click('#site-menu a[href="#faq"]');
    const there = await poll<MenuState>(driver, MENU_STATE, (s) => !s.open && s.focus === 'faq', 'the FAQ link');
    expectEqual(there.hash, '#faq', 'the hash');
  },

  async 'under 768 px it is a full-screen overlay'(driver, url) {
    await driver.setSize(360, 740);
    await driver.goto(`${url}/`);
    await driver.click('#menu-button');
    const state = await poll<MenuState>(driver, MENU_STATE, (s) => s.open, 'the overlay opens');
    expectEqual(
      state.panel,
      { left: 0, right: state.width, top: 0, bottom: state.height },
      'the panel covers the window',
    );
  },

  async 'a FAQ question opens its answer at the first tap, each on its own; Enter toggles it; a second tap closes it'(
    driver,
    url,
  ) {
    await driver.setSize(412, 823);
    await driver.goto(`${url}/`);
    const state = `
      const items = [...document.querySelectorAll('#faq details')];
      return items.map((item) => {
        const answer = item.querySelector('.accordion-panel').getBoundingClientRect();
        return item.open && answer.height > 0 ? 'open' : 'closed';
      }).join(' ');`;
    expectEqual(await driver.run<string>(state), Array(7).fill('closed').join(' '), 'all closed at first');
    // The sections above it render at their real height as they come into view (content-visibility: auto) and move
    // it: the visitor taps once it stands still, in the middle of the window (the sticky header covers the top).
    let last = '';
    await poll<string>(
      driver,
      `document.querySelector('#faq .accordion').scrollIntoView({ block: 'center', behavior: 'instant' });
      return String(Math.round(document.querySelector('#faq .accordion').getBoundingClientRect().top));`,
      (top) => {
        const still = top === last;
        last = top;
        return still;
      },
      'the FAQ stands still in view',
    );
    await driver.click('#faq details:nth-child(1) > summary');
    await poll<string>(driver, state, (s) => s.startsWith('open closed'), 'the first answer opens');
    await driver.click('#faq details:nth-child(3) > summary');
    await poll<string>(
      driver,
      state,
      (s) => s.startsWith('open closed open closed'),
      'the third opens, the first stays',
    );
    await driver.click('#faq details:nth-child(1) > summary');
    await poll<string>(
      driver,
      state,
      (s) => s.startsWith('closed closed open closed'),
      'a second tap closes the first',
    );
    await driver.run(`document.querySelector('#faq details:nth-child(2) > summary').focus(); return null;`);
    await driver.key('Enter');
    await poll<string>(driver, state, (s) => s.startsWith('closed open open closed'), 'Enter opens the focused one');
    const focused = await driver.run<boolean>(
      `return document.activeElement === document.querySelector('#faq details:nth-child(2) > summary');`,
    );
    expectEqual(focused, true, 'focus stays on the question');
  },

  async 'the theme switch applies, stores and shows a choice; a stored "system" is the OS theme'(driver, url) {
    await driver.setSize(1024, 768);
    await driver.goto(`${url}/`);
    const chosen = await driver.run<[string, string | null, string | null]>(`
      const select = document.querySelector('.theme-select');
      select.value = 'light';
      select.dispatchEvent(new Event('change', { bubbles: true }));
      return [document.documentElement.className, localStorage.getItem('vite-ui-theme'),
        document.querySelector('.theme-icons').getAttribute('data-choice')];`);
    expectEqual(chosen, ['light', 'light', null], 'class, storage, icon (by the class) after choosing light');
    await driver.run(`localStorage.setItem('vite-ui-theme', 'system'); return null;`);
    await driver.goto(`${url}/contact`);
    const system = await driver.run<[string, string, string, string]>(`
      return [document.documentElement.className,
        matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
        document.querySelector('.theme-select').value,
        document.querySelector('.theme-icons').getAttribute('data-choice')];`);
    expectEqual(
      [system[0], system[2], system[3]],
      [system[1], 'system', 'system'],
      'class (the OS theme), the switch and its icon on "system"',
    );
    if (driver.launchedScheme)
      expectEqual(system[1], driver.launchedScheme, 'the OS scheme the engine was launched with');
    if (driver.colorScheme) {
      // And it follows the OS as it switches, with no tap.
      for (const scheme of ['dark', 'light', 'dark'] as const) {
        await driver.colorScheme(scheme);
        await poll<string>(driver, 'return document.documentElement.className;', (c) => c === scheme, `OS ${scheme}`);
      }
    }
    await driver.run(`localStorage.removeItem('vite-ui-theme'); return null;`);
  },
};

/** Firefox cannot switch its scheme live over BiDi: it is launched light, then dark (`ui.systemUsesDarkTheme`). */
async function firefox(scheme: 'light' | 'dark' = 'light'): Promise<Driver> {
  const puppeteer = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: '/usr/bin/firefox-esr',
    headless: true,
    defaultViewport: null,
    extraPrefsFirefox: { 'ui.systemUsesDarkTheme': scheme === 'dark' ? 1 : 0 },
  });
  const { driver, page } = await puppeteerDriver(browser);
  return {
    ...driver,
    setSize: async (width, height) => {
      // Sets the size, then throws on screen orientation over BiDi (NOTES.md).
      await page.setViewport({ width, height }).catch(() => undefined);
    },
    launchedScheme: scheme,
  };
}

async function chromium(): Promise<Driver> {
  const puppeteer = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
    defaultViewport: null,
  });
  const { driver, page } = await puppeteerDriver(browser);
  return {
    ...driver,
    colorScheme: (scheme) => page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]),
  };
}

type PuppeteerBrowser = Awaited<ReturnType<typeof import('puppeteer-core').launch>>;

/** One page of a browser puppeteer launched (Chromium over CDP, Firefox over BiDi), and the driver over it. */
async function puppeteerDriver(browser: PuppeteerBrowser) {
  const page = await browser.newPage();
  const driver: Driver = {
    goto: async (url) => void (await page.goto(url, { waitUntil: 'domcontentloaded' })),
    setSize: (width, height) => page.setViewport({ width, height }),
    click: (selector) => page.click(selector),
    key: async (key) => {
      if (key === 'Shift+Tab') {
        await page.keyboard.down('Shift');
        await page.keyboard.press('Tab');
        await page.keyboard.up('Shift');
      } else await page.keyboard.press(key);
    },
    run: (body) => page.evaluate(`(() => {${body}})()`) as never,
    close: () => browser.close(),
  };
  return { driver, page };
}

/** WebKitGTK takes its scheme from the GTK theme: launched light, then dark (GTK_THEME=Adwaita:dark). */
async function webkit(scheme: 'light' | 'dark' = 'light'): Promise<Driver> {
  const { Builder, By, Key } = await import('selenium-webdriver');
  const display = ':99';
  const xvfb: ChildProcess = spawn('Xvfb', [display, '-screen', '0', '1280x1024x24'], { stdio: 'ignore' });
  const port = 4400 + Math.floor(Math.random() * 100);
  const wd: ChildProcess = spawn('WebKitWebDriver', [`--port=${port}`], {
    stdio: 'ignore',
    env: { ...process.env, DISPLAY: display, GTK_THEME: scheme === 'dark' ? 'Adwaita:dark' : 'Adwaita' },
  });
  await new Promise((r) => setTimeout(r, 1500));
  const driver = await new Builder()
    .usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation'],
      },
    })
    .build();
  const keys = { Tab: Key.TAB, Escape: Key.ESCAPE, Enter: Key.ENTER };
  return {
    // WebDriver's get waits for the load event, which held scripts never let come: the page is read as it parses.
    goto: async (url) => {
      await driver.manage().setTimeouts({ pageLoad: 5000 });
      await driver.get(url).catch(() => undefined);
      await driver.wait(async () => (await driver.executeScript('return document.readyState')) !== 'loading', 15000);
    },
    setSize: async (width, height) => {
      await driver.manage().window().setRect({ width, height });
    },
    click: async (selector) => (await driver.findElement(By.css(selector))).click(),
    key: async (key) => {
      const actions = driver.actions();
      if (key === 'Shift+Tab') await actions.keyDown(Key.SHIFT).sendKeys(Key.TAB).keyUp(Key.SHIFT).perform();
      else await actions.sendKeys(keys[key]).perform();
    },
    run: (body) => driver.executeScript(body) as never,
    launchedScheme: scheme,
    close: async () => {
      await driver.quit().catch(() => undefined);
      wd.kill();
      xvfb.kill();
    },
  };
}

const engines: Record<string, () => Promise<Driver>> = {
  chromium,
  firefox: () => firefox('light'),
  'firefox-dark': () => firefox('dark'),
  webkit: () => webkit('light'),
  'webkit-dark': () => webkit('dark'),
};
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(engines);
const unknown = wanted.filter((name) => !engines[name]);
if (unknown.length) {
  console.error(`Unknown engine ${unknown.join(', ')}: give chromium, firefox, firefox-dark, webkit or webkit-dark.`);
  process.exit(1);
}

const built = spawnSync(process.execPath, ['bin/site-gen.js', 'build', '--out', OUT], { cwd: ROOT, encoding: 'utf8' });
if (built.status !== 0) {
  console.error(`site-gen build failed:\n${built.stderr}${built.stdout}`);
  process.exit(1);
}
const { url, server } = await serveHoldingScripts(OUT);
let failures = 0;
for (const name of wanted) {
  let driver: Driver;
  try {
    driver = await engines[name]!();
  } catch (error) {
    failures++;
    console.log(`✘ ${name}: could not start: ${(error as Error).message}`);
    continue;
  }
  for (const [title, check] of Object.entries(checks)) {
    try {
      await check(driver, url);
      console.log(`✓ ${name}: ${title}`);
    } catch (error) {
      failures++;
      console.log(`✘ ${name}: ${title}\n    ${(error as Error).name}: ${(error as Error).message}`);
    }
  }
  await driver.close();
}
server.closeAllConnections();
server.close();
process.exit(failures ? 1 : 0);
