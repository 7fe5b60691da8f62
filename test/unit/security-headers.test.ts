// The security headers: defined once in site.config.ts, written as dist/_headers, in agreement with each page's meta CSP.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite } from '../../src/pipeline/build.ts';
import { validateConfig } from '../../src/pipeline/load-config.ts';
import { headersSchema } from '../../src/core/config-schema.ts';
import { scanOutput } from '../../src/deploy/local.ts';
import { createStaticServer } from '../../src/serve/server.ts';
import { ConfigError, SiteGenError } from '../../src/core/errors.ts';
import { HEADERS_FILE, parseHeadersFile, serializeHeadersFile } from '../../src/core/http/headers-file.ts';
import { securityHeaders } from '../../src/core/http/policy.ts';
import { copyFixture } from '../helpers/fixture.ts';

const SITE = {
  name: 'Headers Test',
  url: 'https://headers.example',
  description: 'A site for header tests.',
};

const directives = (csp: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);

const policy = suite('security header policy');

policy(
  'the defaults: CSP with frame-ancestors none, HSTS, nosniff, strict-origin-when-cross-origin, features denied',
  () => {
    const headers = securityHeaders(headersSchema.parse(undefined));
    assert.equal(Object.keys(headers), [
      'Content-Security-Policy',
      'Strict-Transport-Security',
      'X-Content-Type-Options',
      'Referrer-Policy',
      'Permissions-Policy',
    ]);
    assert.is(
      headers['Content-Security-Policy'],
      "frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'",
    );
    assert.is(headers['Strict-Transport-Security'], 'max-age=63072000; includeSubDomains');
    assert.is(headers['X-Content-Type-Options'], 'nosniff');
    assert.is(headers['Referrer-Policy'], 'strict-origin-when-cross-origin');
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
      assert.ok(headers['Permissions-Policy']!.split(', ').includes(`${feature}=()`), `${feature} is denied`);
    }
  },
);

policy(
  'site.config.ts changes them in its headers section: no HSTS, another frame-ancestors, headers of its own',
  () => {
    const config = validateConfig({
      site: SITE,
      headers: {
        hsts: false,
        frameAncestors: "'self'",
        denyFeatures: ['camera'],
        extra: { 'Cross-Origin-Opener-Policy': 'same-origin' },
      },
    });
    assert.equal(securityHeaders(config.headers), {
      'Content-Security-Policy': "frame-ancestors 'self'; object-src 'none'; base-uri 'self'; form-action 'self'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Permissions-Policy': 'camera=()',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
  },
);

policy('a bad field is one message naming it', () => {
  const message = (headers: unknown) => {
    try {
      validateConfig({ site: SITE, headers });
    } catch (error) {
      assert.instance(error, ConfigError);
      return (error as Error).message;
    }
    throw new Error('expected a ConfigError');
  };
  assert.is(
    message({ extra: { 'content-security-policy': "default-src 'none'" } }),
    'site.config.ts: headers.extra.content-security-policy: comes from the other fields of headers (frameAncestors, hsts, referrerPolicy, denyFeatures); set it there.',
  );
  assert.match(message({ extra: { 'Bad Name': 'x' } }), 'headers.extra.Bad Name: is not a header name');
  assert.match(
    message({ frameAncestors: "'none'; script-src *" }),
    /^site\.config\.ts: headers\.frameAncestors: must be a CSP source list/,
  );
  assert.match(message({ referrerPolicy: 'never' }), /^site\.config\.ts: headers\.referrerPolicy: /);
  assert.match(message({ csp: 'x' }), 'headers: has unknown field "csp"');
});

policy.run();

const file = suite('dist/_headers');

file('is written in the Netlify / Cloudflare Pages format and read back to the same headers', () => {
  const headers = securityHeaders(headersSchema.parse(undefined));
  const text = serializeHeadersFile(headers);
  assert.match(
    text,
    /^# .*\n# .*\n\/\*\n  Content-Security-Policy: frame-ancestors 'none'; object-src 'none'; base-uri 'self'; form-action 'self'\n  Strict-Transport-Security: /,
  );
  assert.equal(parseHeadersFile(text, 'dist/_headers'), headers);
  assert.equal(
    parseHeadersFile(`/assets/*\n  X-Other: 1\n/*\n  X-All: 2\n`, 'x'),
    { 'X-All': '2' },
    'only the rule for every path',
  );
});

file('a damaged file names its line', () => {
  assert.throws(
    () => parseHeadersFile('/*\n  Content-Security-Policy\n', 'dist/_headers'),
    (error: Error) => {
      assert.instance(error, SiteGenError);
      return (
        error.message ===
        'dist/_headers:2 is not a "  Name: value" line under a path. Run `site-gen build` again to rewrite the file.'
      );
    },
  );
});

file("the build writes it from the config, and the header CSP agrees with every page's meta CSP", async () => {
  const fixture = copyFixture();
  try {
    fixture.edit('site.config.ts', (text) =>
      text.replace(/\n\}\);?\s*$/, `\n  headers: { extra: { 'Cross-Origin-Opener-Policy': 'same-origin' } },\n});\n`),
    );
    const { files, config } = await buildSite({ config: fixture.config, out: 'unused', write: false });
    const written = files.get(HEADERS_FILE);
    assert.type(written, 'string');
    const headers = parseHeadersFile(written as string, HEADERS_FILE);
    assert.equal(headers, securityHeaders(config.headers));
    assert.is(headers['Cross-Origin-Opener-Policy'], 'same-origin', "the fixture's own header is in");

    const header = directives(headers['Content-Security-Policy']!);
    assert.ok(header.includes("frame-ancestors 'none'"));
    const pages = [...files.keys()].filter((path) => path.endsWith('.html'));
    assert.ok(pages.length >= 3);
    for (const page of pages) {
      const { document } = parseHTML(String(files.get(page)));
      const meta = directives(
        document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!,
      );
      for (const directive of header.filter((d) => !d.startsWith('frame-ancestors'))) {
        assert.ok(meta.includes(directive), `${page}: the meta CSP has "${directive}" too`);
      }
      // The header restricts nothing the meta lets the page load: no fetch directive, so no hash can be missing from it.
      assert.not.ok(
        header.some((d) => /^(default|script|style|img|font|connect)-src /.test(d)),
        'no fetch directive in the header',
      );
    }
  } finally {
    fixture.remove();
  }
});

file('public/_headers is refused: the build writes it from site.config.ts', async () => {
  const fixture = copyFixture();
  try {
    fixture.write('public/_headers', '/*\n  X-Mine: 1\n');
    try {
      await buildSite({ config: fixture.config, out: 'unused', write: false });
      assert.unreachable('the build must fail');
    } catch (error) {
      assert.match(
        (error as Error).message,
        'public/_headers has the same path as a file the build writes. Rename or remove it.',
      );
    }
  } finally {
    fixture.remove();
  }
});

file('deploy never uploads _headers', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'site-gen-headers-'));
  try {
    await mkdir(join(dir, 'contact'));
    await writeFile(join(dir, 'index.html'), '<h1>Home</h1>');
    await writeFile(join(dir, 'contact/index.html'), '<h1>Contact</h1>');
    await writeFile(join(dir, HEADERS_FILE), serializeHeadersFile({ 'X-Content-Type-Options': 'nosniff' }));
    assert.equal(
      (await scanOutput(dir)).map((f) => f.path),
      ['contact/index.html', 'index.html'],
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

file('serve sends the _headers of the folder on every answer, and a damaged one is a 500 naming it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'site-gen-headers-'));
  const server = createStaticServer({
    dir,
    port: 0,
    handlers: [
      (_req, res, pathname) =>
        pathname === '/handled' && (res.writeHead(200, { 'Content-Type': 'text/plain' }).end('handled'), true),
    ],
  });
  try {
    await writeFile(join(dir, 'index.html'), '<h1>Home</h1>');
    await writeFile(
      join(dir, HEADERS_FILE),
      serializeHeadersFile({ 'X-Content-Type-Options': 'nosniff', 'X-Test': 'one' }),
    );
    const { url } = await server.listen();
    for (const [path, method, status] of [
      ['/', 'GET', 200],
      ['/handled', 'GET', 200],
      ['/missing', 'GET', 404],
      ['/', 'POST', 405],
      ['/_headers', 'GET', 404],
    ] as const) {
      const answer = await fetch(url + path, { method });
      assert.is(answer.status, status, `${method} ${path}`);
      assert.is(answer.headers.get('x-test'), 'one', `${method} ${path} carries the headers of _headers`);
    }
    await writeFile(join(dir, HEADERS_FILE), '/*\n  broken line\n');
    const broken = await fetch(url + '/');
    assert.is(broken.status, 500);
    assert.match(
      await broken.text(),
      `${join(dir, HEADERS_FILE)}:2 is not a "  Name: value" line under a path. Run \`site-gen build\` again`,
    );
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});

file.run();
