import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { parseHTML } from 'linkedom';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { routeFile } from '../../src/pipeline/route-plan.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { fontUrls, sha256 } from '../../src/pipeline/document.ts';
import {
  BrokenLinkError,
  BudgetExceededError,
  ContentError,
  IslandError,
  RenderError,
  RoutesError,
  TemplateError,
} from '../../src/core/errors.ts';
import siteErrors from '../../content/errors.ts';
import { copyFixture, failure, outputText as text, tempOut } from '../helpers/fixture.ts';

const config = 'test/fixtures/basic/site.config.ts';

/**
 * Builds the fixture into `out`, applies `edit`, and builds again, which must fail: returns its error once the first
 * build's output is found as it was (the same files, index.html byte for byte).
 */
async function failedRebuildKeepsOutput(
  copy: ReturnType<typeof copyFixture>,
  out: string,
  edit: () => void,
): Promise<Error> {
  await buildSite({ config: copy.config, out });
  const before = readdirSync(out, { recursive: true }).sort();
  const index = readFileSync(join(out, 'index.html'));
  edit();
  const error = await failure(() => buildSite({ config: copy.config, out }));
  assert.equal(readdirSync(out, { recursive: true }).sort(), before, 'the previous output is untouched');
  assert.ok(readFileSync(join(out, 'index.html')).equals(index));
  return error;
}

const output = suite('build output');
let files: Map<string, Uint8Array | string>;

output.before(async () => {
  ({ files } = await buildSite({ config, out: 'unused', write: false }));
});

output('writes each route to its file, with sitemap and robots', () => {
  for (const path of [
    'index.html',
    'contact/index.html',
    'static/index.html',
    '404.html',
    'sitemap.xml',
    'robots.txt',
    'favicon.svg',
  ]) {
    assert.ok(files.has(path), `${path} is written`);
  }
  assert.is(routeFile({ path: '/contact' }), 'contact/index.html');
  const sitemap = text(files, 'sitemap.xml');
  assert.match(sitemap, /<loc>https:\/\/fixture\.example\/contact<\/loc>/);
  assert.not.match(sitemap, /404/, 'the noindex 404 page is not in the sitemap');
  assert.match(text(files, 'robots.txt'), /Sitemap: https:\/\/fixture\.example\/sitemap\.xml/);
});

output('a page with no islands ships no JavaScript at all', () => {
  const html = text(files, 'static/index.html');
  assert.not.match(
    html,
    /<script[^>]*src=|modulepreload|data-entry|siteGenCapture/,
    'no script file, no preload, no runtime',
  );
});

/** The files a module imports statically: `import{a}from"/x.js"` and `import"/x.js"`, not `import("/x.js")`. */
const staticImports = (file: string) =>
  [...text(files, file).matchAll(/import\s*(?:[\w${},\s*]+from\s*)?"\/([^"]+\.js)"/g)].map((m) => m[1]!);

output(
  'a page with islands names one module entry, imported by its inline capture script; shared code is in shared chunks',
  () => {
    const entryOf = (page: string) => {
      const { document } = parseHTML(text(files, page));
      assert.is(
        document.querySelectorAll('script[src], link[rel=modulepreload]').length,
        0,
        `${page}: nothing is fetched while the page loads`,
      );
      const scripts = [...document.querySelectorAll('script[data-entry]')];
      assert.is(scripts.length, 1, `${page}: one entry`);
      assert.match(scripts[0]!.textContent!, /siteGenCapture/, `${page}: carried by the capture script`);
      return scripts[0]!.getAttribute('data-entry')!;
    };
    const entry = entryOf('index.html');
    assert.match(entry, /^\/assets\/index-[A-Z0-9]{8}\.js$/);
    assert.ok(files.has(entry.slice(1)), `${entry} exists`);
    const home = staticImports(entry.slice(1));
    assert.ok(home.length > 0, 'the entry imports the runtime from a chunk');
    for (const file of home) assert.ok(files.has(file), `${file} exists`);
    const contact = staticImports(entryOf('contact/index.html').slice(1));
    assert.ok(
      home.some((file) => contact.includes(file)),
      'the runtime lives in a chunk both pages share',
    );
  },
);

output("a behaviour's chunk and every chunk it imports hold no React; an island's do", () => {
  const REACT = /react\.transitional\.element|react\.dev\/errors/;
  const closure = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imported of staticImports(file)) closure(imported, seen);
    return seen;
  };
  const chunk = (name: string) =>
    [...files.keys()].find((file) => new RegExp(`^assets/chunks/${name}-[A-Z0-9]{8}\\.js$`).test(file))!;
  const details = chunk('details');
  assert.ok(details, 'the behaviour has a chunk of its own');
  for (const file of closure(details))
    assert.not.match(text(files, file), REACT, `${file}, loaded with the behaviour, holds no React`);
  assert.ok(
    [...closure(chunk('counter'))].some((file) => REACT.test(text(files, file))),
    "the check can fail: an island's chunks do hold React",
  );
  assert.match(
    text(files, 'index.html'),
    /<site-island data-island="details" data-hydrate="interaction" data-behaviour data-props='/,
  );
});

output('the CSP hashes exactly the inline script and style, with no unsafe-inline', () => {
  for (const page of ['index.html', 'contact/index.html', '404.html']) {
    const { document } = parseHTML(text(files, page));
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    assert.not.match(csp, /unsafe-inline/);
    const inlineScripts = [...document.querySelectorAll('script:not([src]):not([type="application/ld+json"])')];
    const styles = [...document.querySelectorAll('style')];
    const hasIslands = document.querySelector('script[data-entry]') !== null;
    assert.is(
      inlineScripts.length,
      hasIslands ? 3 : 2,
      "the site head hook's script, site-gen's stylesheet switch, and with islands the runtime's input capture",
    );
    if (hasIslands)
      assert.match(inlineScripts[2]!.textContent!, /siteGenCapture/, `${page}: the capture script is inlined`);
    const hashes = inlineScripts.map((el) => sha256(el.textContent!)).join(' ');
    assert.ok(
      csp.includes(`script-src 'self' ${hashes};`),
      `${page}: exactly the inline scripts' hashes in script-src`,
    );
    for (const el of styles) assert.ok(csp.includes(sha256(el.textContent!)), `${page}: style hash in style-src`);
    assert.is(document.querySelectorAll('[style]').length, 0, 'no style attributes');
  }
});

output('each page inlines only the CSS its markup uses', () => {
  const style = (page: string) => parseHTML(text(files, page)).document.querySelector('style')!.textContent!;
  assert.match(style('index.html'), /\.items li/);
  assert.not.match(style('index.html'), /\.form/, 'the home page does not carry the form rules');
  assert.match(style('contact/index.html'), /\.form/);
  assert.not.match(style('contact/index.html'), /\.items/, 'the contact page does not carry the list rules');
  assert.not.match(
    style('index.html'),
    /faq-panel|Unused Face|unused-spin/,
    'unused rules, faces and keyframes stay out',
  );
  const full = [...files.keys()].find((f) => /^assets\/site-[0-9a-f]{8}\.css$/.test(f))!;
  assert.match(text(files, full), /faq-panel/, 'the full stylesheet has everything');
  assert.match(
    text(files, 'index.html'),
    new RegExp(`<noscript><link rel="stylesheet" href="/${full}"></noscript>`),
    'readable without JavaScript',
  );
});

output('the full stylesheet is not fetched before the first paint: the script that adds it after names it', () => {
  const full = [...files.keys()].find((f) => /^assets\/site-[0-9a-f]{8}\.css$/.test(f))!;
  const pages = [...files.keys()].filter((f) => f.endsWith('.html'));
  assert.ok(pages.length >= 2);
  for (const page of pages) {
    const html = text(files, page);
    assert.not.match(
      html.replace(/<noscript>.*?<\/noscript>/gs, ''),
      /<link[^>]+rel="stylesheet"/,
      `${page}: no stylesheet link outside <noscript>`,
    );
    const loader = parseHTML(html).document.querySelector('script[data-href]');
    assert.is(
      loader?.getAttribute('data-href'),
      `/${full}`,
      `${page}: the inline loader adds the full stylesheet once the page has painted`,
    );
  }
});

output('a swap face is not preloaded: it paints in its fallback and does not hold the first paint back', () => {
  const css =
    '@font-face{font-family:A;font-display:swap;src:url(/a.woff2)format("woff2")}@font-face{font-family:B;font-display:fallback;src:url(/b.woff2)format("woff2")}@font-face{font-family:C;src:url(/c.woff2)}';
  assert.equal(fontUrls(css), ['/b.woff2', '/c.woff2']);
});

output("preloads the fonts the page's critical CSS uses, and only those", () => {
  const { document } = parseHTML(text(files, 'index.html'));
  const fonts = [...document.querySelectorAll('link[rel=preload][as=font]')];
  assert.is(fonts.length, 1, 'the used face is preloaded; the unused "Unused Face" is not');
  assert.match(fonts[0]!.getAttribute('href')!, /^\/assets\/display-[0-9a-f]{8}\.woff2$/);
  assert.is(fonts[0]!.getAttribute('type'), 'font/woff2');
  assert.ok(fonts[0]!.hasAttribute('crossorigin'), 'font preloads need crossorigin or the browser fetches twice');
  assert.ok(files.has(fonts[0]!.getAttribute('href')!.slice(1)), 'the preloaded file exists');
});

output('writes .br and .gz beside text files over 1 KB only', () => {
  assert.ok(files.has('index.html.br') && files.has('index.html.gz'));
  assert.not.ok(files.has('favicon.svg.br'), 'a small file is not precompressed');
  assert.not.ok(
    [...files.keys()].some((f) => /\.woff2\.(br|gz)$/.test(f)),
    'fonts are not precompressed',
  );
});

output(
  "the head carries title, description, canonical, Open Graph, favicon, and the site head hook's meta, script and JSON-LD",
  () => {
    const { document } = parseHTML(text(files, 'contact/index.html'));
    assert.is(document.title, 'Contact | Fixture Records');
    assert.is(document.querySelector('meta[name=description]')!.getAttribute('content'), 'Write to us.');
    assert.is(document.querySelector('link[rel=canonical]')!.getAttribute('href'), 'https://fixture.example/contact');
    assert.is(
      document.querySelector('meta[property="og:title"]')!.getAttribute('content'),
      'Contact | Fixture Records',
    );
    assert.is(document.querySelector('link[rel=icon]')!.getAttribute('href'), '/favicon.svg');
    assert.is(
      document.querySelector('meta[name=theme-color]')!.getAttribute('content'),
      '#ffffff',
      'the meta tag from src/site/head.ts',
    );
    const ld = JSON.parse(document.querySelector('script[type="application/ld+json"]')!.textContent!);
    assert.equal(ld, {
      '@context': 'https://schema.org',
      '@type': 'WebPage',
      name: 'Contact',
      url: 'https://fixture.example/contact',
      note: '</script>',
    });
    assert.not.match(
      text(files, 'contact/index.html'),
      '"</script>"',
      'a "<" in the JSON-LD data cannot end the element',
    );
    const csp = document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')!;
    const inline = [...document.querySelectorAll('script:not([src]):not([type])')].map((s) => s.textContent!);
    assert.is(inline[0], 'document.documentElement.dataset.js="on";', "the site's script comes first");
    const hasIslands = document.querySelector('script[data-entry]') !== null;
    assert.is(
      inline.length,
      hasIslands ? 3 : 2,
      "the site's script, site-gen's stylesheet switch, and with islands the runtime's input capture",
    );
    for (const script of inline) assert.match(csp, sha256(script), 'each inline script is hashed into the CSP');
    const notFound = parseHTML(text(files, '404.html')).document;
    assert.ok(notFound.querySelector('meta[name=robots][content=noindex]'), 'the 404 page is noindex');
    assert.not.ok(notFound.querySelector('link[rel=canonical]'), 'and has no canonical URL');
  },
);

output('two builds of the same input are byte-identical', async () => {
  const again = (await buildSite({ config, out: 'unused', write: false })).files;
  assert.equal([...again.keys()], [...files.keys()]);
  for (const [path, data] of files)
    assert.ok(
      Buffer.from(data as Uint8Array).equals(Buffer.from(again.get(path) as Uint8Array)),
      `${path} is identical`,
    );
});

output('--base prefixes asset and page URLs', async () => {
  const based = (await buildSite({ config, out: 'unused', base: '/sub/', write: false })).files;
  const html = text(based, 'index.html');
  assert.match(html, /data-entry="\/sub\/assets\/index-[A-Z0-9]{8}\.js"/);
  assert.match(html, /href="\/sub\/assets\/site-[0-9a-f]{8}\.css"/);
  assert.match(html, /data-base="\/sub\/"/);
});

output("the runtime of a site without an error screen carries no text of this repository's site", () => {
  const siteTexts = Object.values(siteErrors);
  const scripts = [...files].filter(([path]) => path.endsWith('.js'));
  assert.ok(scripts.length > 0, 'the fixture has scripts');
  for (const [path, data] of scripts) {
    for (const text of siteTexts)
      assert.not.ok(
        Buffer.from(data as Uint8Array)
          .toString('utf8')
          .includes(text),
        `${path} does not contain "${text}"`,
      );
  }
});

output(
  "a site's src/site/error.tsx is fetched only when an island fails: in a lazy chunk, never preloaded",
  async () => {
    const copy = copyFixture();
    try {
      copy.write(
        'src/site/error.tsx',
        'export default function Oops({ error }: { error: Error }) {\n  return <p role="alert">Oops from the fixture: {error.message}</p>;\n}\n',
      );
      const built = (await buildSite({ config: copy.config, out: 'unused', write: false })).files;
      const chunk = [...built].find(
        ([path, data]) =>
          path.endsWith('.js') &&
          Buffer.from(data as Uint8Array)
            .toString('utf8')
            .includes('Oops from the fixture'),
      );
      assert.ok(chunk, 'the screen is in the browser bundle');
      const html = text(built, 'contact/index.html');
      assert.not.match(html, chunk![0], 'and not preloaded');
      const entry = html.match(/data-entry="\/(assets\/[a-z0-9-]+-[A-Z0-9]+\.js)"/)![1]!;
      assert.match(text(built, entry), `import("/${chunk![0]}")`, 'the page entry imports it on demand');
    } finally {
      copy.remove();
    }
  },
);

output.run();

const failures = suite('build failures');

failures('invalid content names the file, the item and what to do, and keeps the previous output', async () => {
  const copy = copyFixture();
  const out = tempOut();
  try {
    const error = await failedRebuildKeepsOutput(copy, out, () =>
      copy.edit('content/items.ts', (t) => t.replace("['four', 'five', 'six']", "['four', 'five']")),
    );
    assert.instance(error, ContentError);
    assert.is(error.message, 'content/items.ts: items[1] ("beta").bullets each item needs exactly 3 bullets.');
  } finally {
    copy.remove();
    rmSync(out, { recursive: true, force: true });
  }
});

failures('a missing field in content says it is missing', async () => {
  const copy = copyFixture();
  try {
    copy.edit('content/items.ts', (t) => t.replace("title: 'Alpha', ", ''));
    const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
    assert.instance(error, ContentError);
    assert.match(error.message, /^content\/items\.ts: items\[0\] \("alpha"\)\.title is missing; add it/);
  } finally {
    copy.remove();
  }
});

failures('a broken #anchor fails the build, naming page and link', async () => {
  const copy = copyFixture();
  try {
    copy.edit('src/site/pages/home.tsx', (t) => t.replace('href="#beta"', 'href="#gamma"'));
    const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
    assert.instance(error, BrokenLinkError);
    assert.match(error.message, /\/: link "#gamma": \/ has no element with id "gamma"/);
  } finally {
    copy.remove();
  }
});

failures('a page over its budget fails the build', async () => {
  const copy = copyFixture();
  try {
    copy.edit('site.config.ts', (t) =>
      t.replace('  site: {', '  build: { budgets: { html: 600, js: 90 * 1024 } },\n  site: {'),
    );
    const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
    assert.instance(error, BudgetExceededError);
    assert.match(
      error.message,
      /\/: HTML \+ inline CSS is [\d.]+ KB brotli, over the 0\.6 KB budget \(build\.budgets\.html\)/,
    );
  } finally {
    copy.remove();
  }
});

failures(
  'a page over its budget keeps the previous output, though the files were being written while it was measured',
  async () => {
    const copy = copyFixture();
    const out = tempOut();
    try {
      const error = await failedRebuildKeepsOutput(copy, out, () => {
        copy.edit('site.config.ts', (t) =>
          t.replace('  site: {', '  build: { budgets: { html: 600, js: 90 * 1024 } },\n  site: {'),
        );
        copy.edit('content/copy.ts', (t) => t.replace("'Fixture home'", "'Over budget home'"));
      });
      assert.instance(error, BudgetExceededError, 'the budget error, as it is');
      assert.equal(
        readdirSync(join(out, '..')).filter((name) => name.startsWith(`.${basename(out)}.`)),
        [],
        'no half-written folder is left beside it',
      );
    } finally {
      copy.remove();
      rmSync(out, { recursive: true, force: true });
    }
  },
);

failures('an island without a module in src/site/islands/ is an unknown island', async () => {
  const copy = copyFixture();
  try {
    copy.write(
      'src/site/ghost.tsx',
      "import { island } from 'site-gen-ssg';\nexport default island('ghost', () => <p>boo</p>, { hydrate: 'load' });\n",
    );
    copy.edit(
      'src/site/pages/static.tsx',
      (t) => `import Ghost from '../ghost.tsx';\n${t.replace('Home</a>', 'Home</a><Ghost />')}`,
    );
    const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
    assert.instance(error, IslandError);
    assert.match(error.message, /Page \/static uses island "ghost", but src\/site\/islands\/ghost\.tsx does not exist/);
  } finally {
    copy.remove();
  }
});

failures(
  'a behaviour whose module would bring React to the browser fails the build, naming the chain of imports',
  async () => {
    const copy = copyFixture();
    try {
      copy.write(
        'src/site/label.ts',
        "import { version } from 'react';\nexport const label = (text: string) => `${text} (React ${version})`;\n",
      );
      copy.edit(
        'src/site/behaviours/details.ts',
        (t) => `import { label } from '../label.ts';\n${t.replace('`${shown} (${presses})`', 'label(shown)')}`,
      );
      const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
      assert.instance(error, IslandError);
      assert.match(
        error.message,
        /^Behaviour "details" would load React in the browser: src\/site\/behaviours\/details\.ts imports src\/site\/label\.ts imports react\/index\.js\. A behaviour runs plain DOM code/,
      );
    } finally {
      copy.remove();
    }
  },
);

failures('a behaviour named otherwise than its file in src/site/behaviours/ is an unknown behaviour', async () => {
  const copy = copyFixture();
  try {
    copy.edit('src/site/behaviours/details.ts', (t) =>
      t.replace("behaviour<DetailsProps>('details'", "behaviour<DetailsProps>('detail'"),
    );
    const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
    assert.instance(error, IslandError);
    assert.match(
      error.message,
      /^Page \/ uses behaviour "detail", but src\/site\/behaviours\/detail\.ts does not exist\. Create it \(export default behaviour\('detail', \{ hydrate \}, mount\)\) or fix the name\./,
    );
  } finally {
    copy.remove();
  }
});

failures('an error names the thing that failed: the template, the routes, the head hook', async () => {
  const cases: Array<{
    change: (copy: ReturnType<typeof copyFixture>) => void;
    type: new (...args: never[]) => Error;
    message: RegExp;
  }> = [
    {
      change: (c) => rmSync(join(c.root, 'templates/document.html')),
      type: TemplateError,
      message: /^templates\/document\.html does not exist\. Create the document template/,
    },
    {
      change: (c) => c.edit('templates/document.html', (t) => t.replace('<!--site-gen:body-->', '')),
      type: TemplateError,
      message: /^templates\/document\.html: the template has no <!--site-gen:body--> marker/,
    },
    {
      change: (c) => rmSync(join(c.root, 'src/site/routes.tsx')),
      type: RoutesError,
      message: /^src\/site\/routes\.tsx does not exist\. Create it with the routes/,
    },
    {
      change: (c) =>
        c.edit('src/site/routes.tsx', (t) =>
          t.replace("page: Static, head: () => ({ title: 'Static' })", "page: Static, head: 'Static'"),
        ),
      type: RoutesError,
      message: /^src\/site\/routes\.tsx: routes\[2\] \(\/static\) has no head\(\) function/,
    },
    {
      change: (c) =>
        c.edit('src/site/head.ts', (t) =>
          t.replace('scripts: [\'document.documentElement.dataset.js="on";\']', 'scripts: [42]'),
        ),
      type: RenderError,
      message: /^src\/site\/head\.ts: head\(\) for \/ returned a `scripts` that is not a list of strings/,
    },
  ];
  for (const { change, type, message } of cases) {
    const copy = copyFixture();
    try {
      change(copy);
      const error = await failure(() => buildSite({ config: copy.config, out: 'unused', write: false }));
      assert.instance(error, type, `${error.name}: ${error.message}`);
      assert.match(error.message, message);
    } finally {
      copy.remove();
    }
  }
});

failures('refuses an --out that would replace the project', async () => {
  const error = await failure(() => buildSite({ config, out: 'test/fixtures/basic' }));
  assert.match(error.message, /would replace the project folder/);
});

failures.run();

const cli = suite('site-gen CLI');
const run = promisify(execFile);

async function siteGen(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/site-gen.js', ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

cli('--help lists the commands', async () => {
  const { code, stdout } = await siteGen('--help');
  assert.is(code, 0);
  for (const command of ['build', 'serve', 'deploy']) assert.match(stdout, new RegExp(`\\n  ${command}\\b`));
});

cli('an unknown flag exits 1 and names it', async () => {
  const { code, stderr } = await siteGen('build', '--outt', 'x');
  assert.is(code, 1);
  assert.match(stderr, /unknown option '--outt'/);
  assert.match(stderr, /Did you mean --out\?/);
});

cli('a bad config exits 1 with one message and no stack trace; --debug adds the stack', async () => {
  const { code, stderr } = await siteGen('build', '--config', 'test/fixtures/basic/missing.config.ts');
  assert.is(code, 1);
  assert.match(stderr, /missing\.config\.ts does not exist/);
  assert.not.match(stderr, /\n\s+at /, 'no stack trace');
  assert.not.match(stderr, /--debug/, 'the message says it all: no stack to offer');
  const debug = await siteGen('build', '--config', 'test/fixtures/basic/missing.config.ts', '--debug');
  assert.match(debug.stderr, /\n\s+at /, 'stack trace with --debug');
});

cli(
  "an exception thrown by the site's code offers its stack (--debug); a mistake the message names does not",
  async () => {
    const copy = copyFixture();
    const out = tempOut();
    try {
      copy.edit('src/site/pages/static.tsx', (code) =>
        code.replace(
          'const withBase = useWithBase();',
          "const withBase = useWithBase();\n  throw new TypeError('no lyrics');",
        ),
      );
      const thrown = await siteGen('build', '--config', copy.config, '--out', out);
      assert.is(thrown.code, 1);
      assert.match(thrown.stderr, /Could not render \/static: no lyrics/);
      assert.match(thrown.stderr, /\(run with --debug for the stack trace\)/);
      const debug = await siteGen('build', '--config', copy.config, '--out', out, '--debug');
      assert.match(debug.stderr, /static\.tsx/, 'the stack names the file that threw');
    } finally {
      copy.remove();
      rmSync(out, { recursive: true, force: true });
    }
  },
);

cli('build prints a summary table, or JSON with --json', async () => {
  const out = tempOut();
  try {
    const { code, stdout } = await siteGen('build', '--config', config, '--out', out, '--json');
    assert.is(code, 0);
    const summary = JSON.parse(stdout);
    assert.equal(
      summary.pages.map((p: { path: string }) => p.path),
      ['/', '/contact', '/static', '/404'],
    );
    assert.ok(summary.pages[0].html.brotli > 0 && summary.pages[0].js.brotli > 0);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

cli.run();
