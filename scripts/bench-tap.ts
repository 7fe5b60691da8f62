// The first tap on each interactive part of the site, on Lighthouse's phone profile: the median time from the touch
// to the first frame that shows the answer, the bytes fetched on the tap, and the JavaScript fetched with no touch.
// Writes its section of bench/RESULTS.md. Run: npm run bench:tap [-- --runs 3 --compare DIR]
// --compare DIR: a checkout of another commit (node_modules in place) built and measured in the same run, as "before".
import { spawnSync } from 'node:child_process';
import os, { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright';
import { writeSection } from '../bench/lib/results-section.ts';
import { serve } from '../bench/lib/serve.ts';
import { kb, median } from '../bench/lib/stats.ts';
import { toMarkdown, toText, type Table } from '../bench/lib/table.ts';

const TOOL_ROOT = resolve(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    compare: { type: 'string' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    only: { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) {
  console.error(`--runs ${args.runs}: give a whole number of page loads per measure, 1 or more.`);
  process.exit(1);
}

// Lighthouse's mobile profile: slow 4G (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up), a CPU four times slower, and
// the Moto G Power's screen (412 x 823, touch).
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
/** The visitor's first tap comes this long after the load event. */
const TAP_AFTER_LOAD_MS = 3000;
/** How long the visitor takes to choose in the phone's picker. */
const PICKER_MS = 1000;
/** A quick typist on a phone: 10 characters a second. */
const TYPING_DELAY_MS = 100;
/** A visitor who lets the phone fill the form in (autofill): the time from the field's tap to the button's. */
const AUTOFILL_MS = 500;
/** How long a visitor looks at a part that scrolled into view before touching it. */
const READING_MS = 1000;
/** A tap on a part the visitor has just jumped to: the time to find it on the screen. */
const ARRIVAL_MS = 300;
/** How long a tap's answer may take before the run counts it as never shown. */
const ANSWER_TIMEOUT_MS = 15_000;

/** Text the answer shows, or a selector, checked in the page each frame; see `answered` below. */
interface Answer {
  selector: string;
  text?: string;
}

interface Part {
  page: '/' | '/contact';
  name: string;
  /** What the visitor does before the tap (the touch or typing that comes first counts as intent, as on a phone). */
  before?: (page: Page) => Promise<void>;
  /** What is tapped. */
  target: (page: Page) => ReturnType<Page['locator']>;
  /** A touch that starts and is cancelled (no click): the <select>, whose picker the phone draws. */
  touchOnly?: boolean;
  /** Tapped where it is, without Playwright's wait for it to be ready: the tap comes when the visitor's would. */
  atOnce?: boolean;
  /** A tap on a <select> opens the phone's own picker; the choice is what the page answers. */
  choose?: (page: Page) => Promise<void>;
  answer: Answer;
  /** A second answer timed from the same touch (the success toast after the simulated send). */
  later?: { name: string; answer: Answer };
}

/** Fills the contact form as a visitor does: a tap in the first field, then typing, field after field. */
async function fillContact(page: Page, terms: boolean): Promise<void> {
  await page.locator('#firstName').tap();
  await page.keyboard.type('Ada', { delay: TYPING_DELAY_MS });
  for (const [field, text] of [
    ['#lastName', 'Lovelace'],
    ['#email', 'ada@example.com'],
    ['#phoneNumber', '5550100'],
    ['#message', 'Hello'],
  ] as const) {
    await page.locator(field).focus();
    await page.keyboard.type(text, { delay: TYPING_DELAY_MS });
  }
  if (terms) await page.locator('#termsAccepted').tap();
}

const PARTS: Part[] = [
  {
    page: '/',
    name: 'menu (/)',
    target: (page) => page.locator('#menu-button'),
    answer: { selector: '.menu-dialog .menu-panel' },
  },
  {
    page: '/contact',
    name: 'menu (/contact)',
    target: (page) => page.locator('#menu-button'),
    answer: { selector: '.menu-dialog .menu-panel' },
  },
  {
    page: '/',
    name: 'theme switch',
    target: (page) => page.locator('select.theme-select'),
    // The touch opens the phone's own picker (which a headless page cannot draw: it would stall the frames the
    // probe counts), and the visitor picks in it for about a second; the choice is the change the page answers.
    touchOnly: true,
    choose: async (page) => {
      await page.waitForTimeout(PICKER_MS);
      await page.locator('select.theme-select').selectOption('light');
    },
    answer: { selector: 'html.light' },
  },
  {
    page: '/',
    name: 'FAQ question',
    before: async (page) => {
      await page.locator('#faq').evaluate((el) => el.scrollIntoView({ block: 'start', behavior: 'instant' }));
      await page.waitForTimeout(TAP_AFTER_LOAD_MS);
    },
    target: (page) => page.locator('.accordion-trigger, .accordion-item summary').first(),
    answer: { selector: '.accordion-panel p' },
  },
  {
    page: '/',
    name: 'FAQ question, on arrival',
    // The visitor jumps to the FAQ (the menu's link) and taps a question at once: before an island there could load.
    before: async (page) => {
      // Centred, so that the first question is below the sticky header.
      await page
        .locator('.accordion-trigger, .accordion-item summary')
        .first()
        .evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await page.waitForTimeout(ARRIVAL_MS);
    },
    target: (page) => page.locator('.accordion-trigger, .accordion-item summary').first(),
    atOnce: true,
    answer: { selector: '.accordion-panel p' },
  },
  {
    page: '/',
    name: 'newsletter Subscribe',
    before: async (page) => {
      const email = page.locator('form.newsletter input[type="email"]');
      await email.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await email.tap();
      await page.keyboard.type('ada@example.com', { delay: TYPING_DELAY_MS });
    },
    target: (page) => page.locator('form.newsletter [type="submit"]'),
    answer: { selector: '.toast', text: 'Thank you for subscribing!' },
  },
  {
    page: '/',
    name: 'newsletter Subscribe, autofilled',
    // The fastest submit a visitor makes: the footer scrolled to, a second's look, a tap in the field, the address
    // put in by the phone's autofill at once, and the button tapped half a second after the field.
    before: async (page) => {
      const email = page.locator('form.newsletter input[type="email"]');
      await email.evaluate((el) => el.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await page.waitForTimeout(READING_MS);
      await email.tap();
      await email.fill('ada@example.com');
      await page.waitForTimeout(AUTOFILL_MS);
    },
    target: (page) => page.locator('form.newsletter [type="submit"]'),
    answer: { selector: '.toast', text: 'Thank you for subscribing!' },
  },
  {
    page: '/contact',
    name: 'contact submit, terms not ticked',
    before: (page) => fillContact(page, false),
    target: (page) => page.locator('form.contact-form [type="submit"]'),
    answer: { selector: '.toast', text: 'Terms not accepted' },
  },
  {
    page: '/contact',
    name: 'contact submit, autofilled',
    // The fastest a visitor sends the form: a tap in the first field, the phone's autofill puts in the name, address
    // and number at once, a two-letter message, the terms box, and the button.
    before: async (page) => {
      await page.locator('#firstName').tap();
      for (const [field, text] of [
        ['#firstName', 'Ada'],
        ['#lastName', 'Lovelace'],
        ['#email', 'ada@example.com'],
        ['#phoneNumber', '5550100'],
      ] as const)
        await page.locator(field).fill(text);
      await page.waitForTimeout(AUTOFILL_MS);
      await page.locator('#message').tap();
      await page.keyboard.type('Hi', { delay: TYPING_DELAY_MS });
      await page.locator('#termsAccepted').tap();
    },
    target: (page) => page.locator('form.contact-form [type="submit"]'),
    answer: {
      selector: 'form.contact-form [type="submit"]:disabled, form.contact-form [type="submit"][aria-busy="true"]',
    },
    later: { name: 'contact submit, autofilled: success toast', answer: { selector: '.toast', text: 'Message sent!' } },
  },
  {
    page: '/contact',
    name: 'contact submit',
    before: (page) => fillContact(page, true),
    target: (page) => page.locator('form.contact-form [type="submit"]'),
    answer: {
      selector: 'form.contact-form [type="submit"]:disabled, form.contact-form [type="submit"][aria-busy="true"]',
    },
    later: { name: 'contact submit: success toast', answer: { selector: '.toast', text: 'Message sent!' } },
  },
];

interface Request {
  url: string;
  type: string;
  sentAt: number;
  bytes: number;
}

/** Every request the page makes, with its body's bytes as sent (compressed), from Chromium's network log. */
function networkLog(cdp: CDPSession): Request[] {
  const log: Request[] = [];
  const byId = new Map<string, Request>();
  cdp.on('Network.requestWillBeSent', (event) => {
    const request = { url: event.request.url, type: event.type ?? 'Other', sentAt: Date.now(), bytes: 0 };
    byId.set(event.requestId, request);
    log.push(request);
  });
  // The response's own count at its headers is their size: what comes after is the body, as encoded (brotli here).
  const headerBytes = new Map<string, number>();
  cdp.on('Network.responseReceived', (event) => headerBytes.set(event.requestId, event.response.encodedDataLength));
  cdp.on('Network.loadingFinished', (event) => {
    const request = byId.get(event.requestId);
    if (request) request.bytes = event.encodedDataLength - (headerBytes.get(event.requestId) ?? 0);
  });
  return log;
}

/**
 * Installed before the page's own scripts: notes when the touch started (its event time) and, every frame from then
 * on, whether each answer is on screen; the first frame where it is gives the answer's time. Source text, not a
 * function: tsx would wrap a function's inner functions in a helper the page does not have.
 */
const PROBE = `(answers) => {
  // Armed by the bench just before its tap: the touches and changes of the filling before do not count.
  const probe = { armed: false, changed: false, touch: -1, shown: answers.map(() => -1) };
  window.tapProbe = probe;
  const onScreen = (answer) =>
    [...document.querySelectorAll(answer.selector)].some((element) => {
      if (answer.text && !element.textContent.includes(answer.text)) return false;
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < innerHeight;
    });
  const frame = () => {
    answers.forEach((answer, i) => {
      if (probe.shown[i] === -1 && onScreen(answer)) probe.shown[i] = performance.now();
    });
    if (probe.shown.includes(-1)) requestAnimationFrame(frame);
  };
  addEventListener('touchstart', (event) => {
    if (!probe.armed || probe.touch !== -1) return;
    probe.touch = event.timeStamp;
    requestAnimationFrame(frame);
  }, { capture: true, passive: true });
  // The theme is chosen in the phone's own picker: the change is the visitor's act the page answers.
  addEventListener('change', (event) => {
    // Once: the visitor's own comes first (this listener is on the window, before any on the document); a runtime
    // replaying it dispatches a copy later.
    if (!probe.armed || !(event.target instanceof HTMLSelectElement) || probe.changed) return;
    probe.changed = true;
    probe.touch = event.timeStamp;
    probe.shown = answers.map(() => -1);
    requestAnimationFrame(frame);
  }, { capture: true });
}`;

interface Sample {
  ms: number[];
  tapBytes: number;
  tapFiles: number;
  idleJsBytes: number;
  idleJsFiles: number;
}

async function tapOnce(browser: Browser, base: string, part: Part): Promise<Sample> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const log = networkLog(cdp);
    const answers = [part.answer, ...(part.later ? [part.later.answer] : [])];
    await page.addInitScript(`(${PROBE})(${JSON.stringify(answers)})`);
    await page.goto(base + part.page, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForTimeout(TAP_AFTER_LOAD_MS);
    const idleJs = log.filter((r) => r.type === 'Script');
    const idleJsBytes = idleJs.reduce((sum, r) => sum + r.bytes, 0);
    await part.before?.(page);
    const target = part.target(page);
    if (!part.atOnce) await target.scrollIntoViewIfNeeded();
    // The answer's code may already be loading from intent (a field's focus): only what the tap itself starts counts.
    await page.evaluate(() => {
      (window as unknown as { tapProbe: { armed: boolean } }).tapProbe.armed = true;
    });
    const tappedAt = Date.now();
    if (part.touchOnly) {
      const box = (await target.boundingBox())!;
      const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchCancel', touchPoints: [] });
    } else if (part.atOnce) {
      const box = (await target.boundingBox())!;
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    } else await target.tap({ noWaitAfter: true });
    await part.choose?.(page);
    await page
      .waitForFunction(
        () => {
          const probe = (window as unknown as { tapProbe: { touch: number; shown: number[] } }).tapProbe;
          return probe.touch !== -1 && !probe.shown.includes(-1);
        },
        undefined,
        { timeout: ANSWER_TIMEOUT_MS, polling: 100 },
      )
      .catch(async (error: Error) => {
        const state = await page.evaluate(() => JSON.stringify((window as unknown as { tapProbe: unknown }).tapProbe));
        throw new Error(`${error.message.split('\n')[0]} (probe: ${state})`);
      });
    const probe = await page.evaluate(
      () => (window as unknown as { tapProbe: { touch: number; shown: number[] } }).tapProbe,
    );
    const onTap = log.filter((r) => r.sentAt >= tappedAt);
    return {
      ms: probe.shown.map((shown) => shown - probe.touch),
      tapBytes: onTap.reduce((sum, r) => sum + r.bytes, 0),
      tapFiles: onTap.length,
      idleJsBytes,
      idleJsFiles: idleJs.length,
    };
  } finally {
    await context.close();
  }
}

interface Figures {
  part: string;
  ms: number;
  tapKb: string;
  idleKb: string;
  samples: number[];
}

function ms(value: number): string {
  return Number.isFinite(value) ? `${Math.round(value)} ms` : 'no answer';
}

async function measureSite(browser: Browser, base: string, label: string): Promise<Figures[]> {
  const figures: Figures[] = [];
  for (const part of PARTS.filter((p) => !args.only || p.name.includes(args.only))) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run++) {
      try {
        samples.push(await tapOnce(browser, base, part));
      } catch (error) {
        console.error(`${label} ${part.name}: run ${run + 1} failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    const answerCount = part.later ? 2 : 1;
    for (let i = 0; i < answerCount; i++) {
      const ms = samples.map((s) => s.ms[i]!);
      figures.push({
        part: i === 0 ? part.name : part.later!.name,
        ms: median(ms),
        tapKb:
          i === 0 ? `${kb(median(samples.map((s) => s.tapBytes)))} (${median(samples.map((s) => s.tapFiles))})` : '',
        idleKb:
          i === 0
            ? `${kb(median(samples.map((s) => s.idleJsBytes)))} (${median(samples.map((s) => s.idleJsFiles))})`
            : '',
        samples: ms,
      });
    }
    for (const figure of figures.slice(-answerCount))
      console.log(
        `${label.padEnd(7)} ${figure.part.padEnd(34)} ${ms(figure.ms).padStart(9)}  [${figure.samples.map(Math.round).join(', ')}]`,
      );
  }
  return figures;
}

function build(root: string, out: string): void {
  const result = spawnSync(process.execPath, ['bin/site-gen.js', 'build', '--out', out], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    console.error(`site-gen build in ${root} failed:\n${result.stderr}${result.stdout}`);
    process.exit(1);
  }
}

const sites = [
  ...(args.compare ? [{ label: 'before', root: resolve(args.compare) }] : []),
  { label: 'now', root: TOOL_ROOT },
];
const started = Date.now();
const loadAtStart = loadavg()[0]!;
const browser = await chromium.launch({ executablePath: args.chromium, args: ['--no-sandbox', '--disable-gpu'] });
const results = new Map<string, Figures[]>();
try {
  for (const site of sites) {
    const out = join(site.root, '.site-gen/bench-tap');
    build(site.root, out);
    const served = await serve(site.root, out);
    try {
      results.set(site.label, await measureSite(browser, served.url, site.label));
    } finally {
      await served.stop();
    }
  }
} finally {
  await browser.close();
}

const now = results.get('now')!;
const before = results.get('before');
const table: Table = {
  title: `First tap on a phone (Chromium ${browser.version()}, slow 4G 150 ms RTT 1.6 Mbit/s, CPU x${CPU_SLOWDOWN}, 412 x 823 touch; median of ${RUNS} fresh loads)`,
  head: before
    ? [
        'first tap on',
        'before: touch to answer',
        'before: fetched on tap KB (files)',
        'before: idle JS KB (files)',
        'now: touch to answer',
        'now: fetched on tap KB (files)',
        'now: idle JS KB (files)',
      ]
    : ['first tap on', 'touch to answer', 'fetched on tap KB (files)', 'idle JS KB (files)'],
  rows: now.map((figure, i) => {
    const cells = [ms(figure.ms), figure.tapKb, figure.idleKb];
    const old = before?.[i];
    return [figure.part, ...(old ? [ms(old.ms), old.tapKb, old.idleKb] : []), ...cells];
  }),
  notes: [
    `touch to answer: from the touchstart event's time to the first frame in which the answer is on screen (checked in each requestAnimationFrame callback, just before that frame paints); the theme switch from its change event (the choice in the phone's picker, a second after the touch that opened it).`,
    `the tap comes ${TAP_AFTER_LOAD_MS / 1000} s after the load event; the forms are filled first as a quick phone typist would (a tap in the first field, then ${1000 / TYPING_DELAY_MS} characters a second), the tap on the button right after the last character: their code loads from that intent (the focus), not from the tap.`,
    'fetched on tap: every request sent from the tap on until the answer; idle JS: scripts fetched before any touch; KB are response bodies as served (brotli).',
    "the success toast after a contact submit is timed from the same touch: the spec's simulated send takes 1.5 s.",
    ...(before ? [`before: ${args.compare} (built and measured in the same run).`] : []),
  ],
};
console.log(`\n${toText(table)}`);
if (!args['no-write']) {
  const body = [
    '## First tap (issue 23; `npm run bench:tap`)',
    '',
    `Run ${new Date(started).toISOString()} (took ${Math.round((Date.now() - started) / 1000)} s; load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end on ${os.cpus().length} cores: other work on the machine slows both columns). Method: docs/first-tap.md.`,
    '',
    toMarkdown(table),
  ].join('\n');
  await writeSection(join(TOOL_ROOT, 'bench/RESULTS.md'), 'first-tap', body);
  console.log('Wrote the first-tap section of bench/RESULTS.md.');
}
