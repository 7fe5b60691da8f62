// Smoke test of the README's first command: runs `npm start`, checks what it serves, then stops it and everything it started.
//
//   node --import tsx scripts/smoke-start.ts [--port <n>] [--timeout <seconds>]
//
// --port (or SMOKE_PORT): the port `npm start` serves on, passed as `npm start -- --port <n>`. Default: a free port the
// system picks, so the test never collides with a server already on 4321. --timeout (or SMOKE_TIMEOUT): how long the
// build may take before the site must answer, default 300 s. Prints one line, "smoke: PASS ..." or "smoke: FAIL ...",
// and exits 1 on failure. `.ci/run` runs it on the clean clone before `npm test`.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import copy from '../content/copy.ts';

const root = path.resolve(import.meta.dirname, '..');
const STOP_GRACE_MS = 10_000;
const MISSING_PATH = '/smoke-test-no-such-page';

class SmokeFailure extends Error {}

function option(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const number = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(number >= 1 && number <= max)) {
    console.error(
      `smoke: FAIL --${name} (or SMOKE_${name.toUpperCase()}) must be a whole number from 1 to ${max}; got "${value}".`,
    );
    process.exit(2);
  }
  return number;
}

/** A port nobody listens on now, picked by the system. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Whether any process of the group is still alive (signal 0 only checks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of an HTML page as a reader sees it: tags dropped, React's entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  const entities: Record<string, string> = {
    '&amp;': '&',
    '&#x27;': "'",
    '&#39;': "'",
    '&quot;': '"',
    '&lt;': '<',
    '&gt;': '>',
    '&nbsp;': ' ',
  };
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(amp|#x27|#39|quot|lt|gt|nbsp);/g, (entity) => entities[entity]!)
    .replace(/\s+/g, ' ');
}

async function get(base: string, pathname: string): Promise<{ status: number; text: string }> {
  const response = await fetch(base + pathname, { redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  return { status: response.status, text: visibleText(await response.text()) };
}

/** Waits until the server answers `/`, or fails when `npm start` exits first or the time is up. */
async function waitUntilServing(base: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new SmokeFailure(`npm start exited (code ${exited}) before it served the site`);
    try {
      await fetch(base + '/', { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await sleep(250);
    }
  }
  throw new SmokeFailure(`npm start did not serve ${base}/ within ${Math.round(timeoutMs / 1000)} s`);
}

async function checkSite(base: string): Promise<void> {
  const home = await get(base, '/');
  if (home.status !== 200) throw new SmokeFailure(`GET / answered ${home.status}, not 200`);
  for (const text of [...copy.hero.title.lines, copy.hero.text]) {
    if (!home.text.includes(text)) throw new SmokeFailure(`GET / does not show the hero text "${text}"`);
  }
  const contact = await get(base, '/contact');
  if (contact.status !== 200) throw new SmokeFailure(`GET /contact answered ${contact.status}, not 200`);
  const missing = await get(base, MISSING_PATH);
  if (missing.status !== 404) throw new SmokeFailure(`GET ${MISSING_PATH} answered ${missing.status}, not 404`);
  if (!missing.text.includes(copy.notFound.title))
    throw new SmokeFailure(`GET ${MISSING_PATH} does not show the not-found page ("${copy.notFound.title}")`);
}

/** Stops the whole process group (npm, its shell, site-gen): SIGTERM, then SIGKILL after the grace time. */
async function stop(child: ChildProcess): Promise<{ clean: boolean; ms: number }> {
  const started = Date.now();
  const pgid = child.pid!;
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((resolve) => child.once('exit', resolve));
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGTERM');
  await Promise.race([exited, sleep(STOP_GRACE_MS)]);
  while (groupAlive(pgid) && Date.now() - started < STOP_GRACE_MS) await sleep(100);
  const clean = !groupAlive(pgid);
  if (!clean) {
    process.kill(-pgid, 'SIGKILL');
    await exited;
  }
  return { clean, ms: Date.now() - started };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { port: { type: 'string' }, timeout: { type: 'string' } } });
  const port = option('port', values.port ?? process.env.SMOKE_PORT, 0, 65535) || (await freePort());
  const timeoutMs = option('timeout', values.timeout ?? process.env.SMOKE_TIMEOUT, 300, 3600) * 1000;
  const base = `http://127.0.0.1:${port}`;
  if (await portAnswers(port)) {
    console.error(`smoke: FAIL port ${port} is already in use; choose another with --port <n> or SMOKE_PORT.`);
    return 1;
  }

  // Its own process group (detached), so one signal reaches npm, the shell it starts and site-gen alike.
  const child = spawn('npm', ['start', '--', '--port', String(port)], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const abort = () => {
    if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    process.exit(1);
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);

  let failure: string | undefined;
  try {
    await waitUntilServing(base, child, timeoutMs);
    await checkSite(base);
  } catch (error) {
    failure = error instanceof SmokeFailure ? error.message : `could not check ${base}: ${(error as Error).message}`;
  }
  const { clean, ms } = await stop(child);
  if (!clean) failure ??= `npm start was still running ${STOP_GRACE_MS / 1000} s after SIGTERM; it was killed`;
  else if (await portAnswers(port)) failure ??= `port ${port} still answers after npm start stopped`;

  if (failure) {
    const tail = output.trim().split('\n').slice(-20).join('\n');
    console.error(`${tail ? `--- last lines of npm start ---\n${tail}\n---\n` : ''}smoke: FAIL npm start: ${failure}.`);
    return 1;
  }
  console.log(
    `smoke: PASS npm start served / (hero text), /contact and a 404 page on port ${port}, then stopped cleanly in ${ms} ms.`,
  );
  return 0;
}

process.exitCode = await main();
