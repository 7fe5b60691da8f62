// The HTML-validity gate: the real site, built into a temporary folder, passes the Nu Html Checker (vnu) with zero
// errors on every page and stylesheet; warnings are printed, not failed. One JVM run checks every file together.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite, type BuildResult } from '../../src/pipeline/build.ts';

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
  message: string;
  extract?: string;
}

// vnu's CSS grammar predates CSS Scroll-driven Animations and calls these valid properties unknown. Only this exact
// message for these exact properties is set aside; every other CSS or HTML error still fails the gate.
const SCROLL_DRIVEN_PROPERTIES = [
  'animation-timeline',
  'animation-range',
  'animation-range-start',
  'animation-range-end',
  'scroll-timeline',
  'scroll-timeline-name',
  'scroll-timeline-axis',
  'view-timeline',
  'view-timeline-name',
  'view-timeline-axis',
  'view-timeline-inset',
  'timeline-scope',
];

function isKnownVnuGap(m: VnuMessage): boolean {
  const unknown = /^CSS: “([a-z-]+)”: Property “([a-z-]+)” doesn't exist\.$/.exec(m.message);
  return !!unknown && unknown[1] === unknown[2] && SCROLL_DRIVEN_PROPERTIES.includes(unknown[1]!);
}

/**
 * vnu checks the files from disk, where the page's origin is file: and CSP 'self' cannot match it: every same-site
 * stylesheet, script and image draws a "violates Content Security Policy" warning that a browser serving the site over
 * http(s) does not give. These are counted, not listed.
 */
function isFromDiskCspWarning(m: VnuMessage): boolean {
  return /^Resource violates Content Security Policy \(meta tag\): .+ “\/(?!\/)[^”]*” blocked by “[a-z-]+” directive\.$/.test(
    m.message,
  );
}

const vnuJar = String(createRequire(import.meta.url)('vnu-jar'));

/** Runs vnu once over `files` (paths relative to `cwd`); vnu exits 1 when it finds errors, so the exit code is not used. */
function runVnu(cwd: string, files: string[]): Promise<VnuMessage[]> {
  return new Promise((done, fail) => {
    // C1 only and the serial collector halve the JVM's CPU time on a run this short; vnu's schema needs a deep stack.
    execFile(
      'java',
      [
        '-Xss4m',
        '-XX:TieredStopAtLevel=1',
        '-XX:+UseSerialGC',
        '-jar',
        vnuJar,
        '--format',
        'json',
        '--stdout',
        '--also-check-css',
        ...files,
      ],
      { cwd, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          return fail(
            new Error(
              '`java` is not on the PATH: the Nu Html Checker needs Java 17 or later (apt-get install -y openjdk-17-jre-headless).',
            ),
          );
        }
        try {
          done((JSON.parse(stdout) as { messages: VnuMessage[] }).messages);
        } catch {
          fail(
            new Error(`vnu printed no JSON report (exit ${error?.code ?? 0}):\n${(stderr || stdout).slice(0, 2000)}`),
          );
        }
      },
    );
  });
}

const CONTROL = 'vnu-control.html';
// A document with two known errors: proves vnu read the files given to it and reports what it finds.
const controlHtml =
  '<!doctype html><html lang="en"><head><title>control</title></head><body><p><div>block in p</div></p><img src="x.png"></body></html>\n';

const gate = suite('html validity (Nu Html Checker)');

let tmp = '';
let out = '';
let build: BuildResult;
let messages: VnuMessage[] = [];
const checked: string[] = [];

/** "index.html:30:12" for a message, relative to the output folder. */
function where(m: VnuMessage): string {
  const file = m.url ? relative(out, fileURLToPath(m.url)) : '(no file)';
  return `${file}:${m.lastLine ?? '?'}:${m.firstColumn ?? m.lastColumn ?? '?'}`;
}

function describe(m: VnuMessage): string {
  return `${where(m)}: ${m.message}${m.extract ? `\n      ${JSON.stringify(m.extract.trim())}` : ''}`;
}

const inOutput = (m: VnuMessage) => !!m.url && !m.url.endsWith(`/${CONTROL}`);

gate.before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'site-gen-vnu-'));
  out = join(tmp, 'dist');
  build = await buildSite({ config: resolve('site.config.ts'), out });
  await writeFile(join(tmp, CONTROL), controlHtml);
  checked.push(...build.pages.map((p) => p.file), ...[...build.files.keys()].filter((f) => f.endsWith('.css')));
  messages = await runVnu(out, [...checked, join('..', CONTROL)]);
});

gate.after(async () => {
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

gate('checks every page the build writes, and its stylesheets', () => {
  const routes = build.pages.map((p) => p.path);
  for (const path of ['/', '/contact']) assert.ok(routes.includes(path), `the build writes ${path}`);
  assert.ok(
    checked.some((f) => f.endsWith('.css')),
    'the site stylesheet is among the checked files',
  );
  const control = messages.filter((m) => m.url?.endsWith(`/${CONTROL}`) && m.type === 'error');
  assert.ok(
    control.length >= 2,
    `vnu reports the control document's errors (got ${control.length}); if not, it did not check the files given to it`,
  );
});

gate('reports no errors on any page or stylesheet', () => {
  const errors = messages.filter((m) => inOutput(m) && m.type !== 'info' && !isKnownVnuGap(m));
  const fatal = messages.filter((m) => m.type === 'non-document-error');
  assert.equal(fatal.map(describe), [], `vnu could not check some files:\n${fatal.map(describe).join('\n')}`);
  assert.ok(errors.length === 0, `vnu found ${errors.length} error(s):\n  ${errors.map(describe).join('\n  ')}`);
});

gate('prints vnu warnings, and the errors set aside as gaps in vnu itself', () => {
  const all = messages.filter((m) => inOutput(m) && m.type === 'info' && m.subType === 'warning');
  const fromDisk = all.filter(isFromDiskCspWarning);
  const warnings = all.filter((m) => !isFromDiskCspWarning(m));
  const gaps = messages.filter((m) => inOutput(m) && isKnownVnuGap(m));
  if (warnings.length) console.log(`\n  vnu: ${warnings.length} warning(s):\n  ${warnings.map(describe).join('\n  ')}`);
  if (fromDisk.length)
    console.log(
      `\n  vnu: ${fromDisk.length} CSP warning(s) about same-site URLs, from checking files on disk ('self' cannot match a file: page).`,
    );
  if (gaps.length)
    console.log(
      `\n  vnu: ${gaps.length} CSS error(s) set aside (scroll-driven animation properties vnu does not know):\n  ${gaps.map(where).join(', ')}`,
    );
  // Guards the gap list itself: it must never swallow a message about a property outside it.
  assert.ok(
    gaps.every((m) => SCROLL_DRIVEN_PROPERTIES.some((p) => m.message.includes(`“${p}”`))),
    'only scroll-driven animation properties are set aside',
  );
});

gate.run();
