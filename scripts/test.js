#!/usr/bin/env node
// The one test command: installs Chromium if the machine lacks it, then runs the type-check, the uvu unit tests and the
// Playwright browser tests, and ends with one line "N passed, N failed" for all of them together.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const only = process.argv.slice(2); // e.g. `npm test -- unit` runs one stage

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const root = process.getuid?.() === 0;
  if (!root || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `Chromium is missing at ${CHROMIUM}. Install Debian's package (sudo apt-get update && sudo apt-get install -y chromium) or set CHROMIUM_PATH, then run npm test again.`,
    );
    process.exit(1);
  }
  console.log("Chromium is missing: installing Debian's chromium package (apt-get)...");
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const r = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) {
      console.error(
        `apt-get ${args.join(' ')} failed (exit ${r.status}). Install chromium by hand and run npm test again.`,
      );
      process.exit(1);
    }
  }
}

/** Runs a command, echoing its output, and returns what it printed. */
function run(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      out += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
const stages = [];

async function typecheck() {
  const { code } = await run('npx', ['--no-install', 'tsc', '--noEmit', '-p', '.']);
  totals[code === 0 ? 'passed' : 'failed'] += 1;
  stages.push(`type-check: ${code === 0 ? 'ok' : 'FAILED'}`);
}

async function lint() {
  // Biome: the linter and the formatter's check, configured once in biome.json. A lint error fails npm test.
  const { code } = await run('npx', [
    '--no-install',
    'biome',
    'check',
    '--formatter-enabled=true',
    '--linter-enabled=true',
    '.',
  ]);
  totals[code === 0 ? 'passed' : 'failed'] += 1;
  stages.push(
    `lint and format: ${code === 0 ? 'ok' : 'FAILED (npm run format fixes formatting; fix lint errors by hand)'}`,
  );
}

async function unit() {
  const { code, out } = await run(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', 'test/unit']);
  const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
  const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
  // A crash before uvu's summary counts as one failure, never as success.
  const failed = code !== 0 && total === passed ? 1 : total - passed - skipped;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  stages.push(`uvu: ${passed} passed, ${failed} failed`);
}

async function browser() {
  ensureChromium();
  rmSync('test-results/playwright.json', { force: true });
  const { code } = await run('npx', ['--no-install', 'playwright', 'test']);
  let stats;
  try {
    stats = JSON.parse(readFileSync('test-results/playwright.json', 'utf8')).stats;
  } catch {
    stats = null;
  }
  const passed = stats ? stats.expected + stats.flaky : 0;
  const failed = stats ? stats.unexpected + (code !== 0 && stats.unexpected === 0 ? 1 : 0) : 1;
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += stats?.skipped ?? 0;
  stages.push(`playwright: ${passed} passed, ${failed} failed`);
}

const all = { typecheck, lint, unit, browser };
for (const [name, stage] of Object.entries(all)) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n== ${name} ==`);
  await stage();
}
console.log(`\n${stages.join('\n')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
