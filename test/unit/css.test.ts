import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileStylesheet } from '../../src/pipeline/css.ts';
import { ConfigError, CssError } from '../../src/core/errors.ts';
import { resolveBrowsers } from '../../src/pipeline/targets.ts';

const fixtures = fileURLToPath(new URL('../fixtures/css/', import.meta.url));
const entry = `${fixtures}site/main.css`;
const browserslist = ['defaults', 'not dead'];
const anton = createRequire(import.meta.url).resolve('@fontsource/anton/files/anton-latin-400-normal.woff2');

function shortHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 8);
}

async function failure(options: Parameters<typeof compileStylesheet>[0]): Promise<CssError> {
  try {
    await compileStylesheet(options);
  } catch (error) {
    assert.instance(error, CssError, `expected a CssError, got ${String(error)}`);
    return error as CssError;
  }
  assert.unreachable(`compiling ${options.entry} should have failed`);
  throw new Error('unreachable');
}

const compile = suite('compileStylesheet');

compile('lowers nesting into flat rules and minifies', async () => {
  const { css } = await compileStylesheet({ entry, browserslist });
  assert.ok(css.includes('.card .card__title{font-family:Anton,sans-serif}'), `nested rule flattened: ${css}`);
  assert.ok(css.includes('.card:hover{color:#000}'), '&:hover becomes .card:hover');
  assert.not.ok(css.includes('&'), 'no nesting selector is left');
  assert.not.ok(css.includes('\n'), 'minified output has no line breaks');
});

compile('lowers nesting even for browsers that support it', async () => {
  const { css } = await compileStylesheet({ entry, browserslist: ['last 1 chrome version'] });
  assert.ok(css.includes('.card .card__title{'), 'critical CSS needs flat selectors whatever the targets');
});

compile('lowers syntax for the browserslist targets', async () => {
  const file = `${fixtures}lowering/inset.css`;
  const old = await compileStylesheet({ entry: file, browserslist: ['chrome 80'] });
  assert.ok(old.css.includes('top:0'), `inset is expanded for Chrome 80: ${old.css}`);
  const modern = await compileStylesheet({ entry: file, browserslist: ['chrome 120'] });
  assert.ok(modern.css.includes('inset:0'), `inset stays for Chrome 120: ${modern.css}`);
});

compile('bundles @import of local files and of a package, and lists every CSS file it read', async () => {
  const { css, dependencies } = await compileStylesheet({ entry, browserslist });
  assert.ok(css.startsWith('body{'), 'the imported base.css comes first, where its @import was');
  assert.ok(css.includes('@font-face{font-family:Anton'), "the package's @font-face is bundled");
  assert.equal(
    dependencies,
    [
      createRequire(import.meta.url).resolve('@fontsource/anton/latin.css'),
      entry,
      `${fixtures}site/parts/base.css`,
    ].sort(),
  );
});

compile('emits url() files as assets named with an 8-character content hash, with URLs under the base', async () => {
  const { css, assets } = await compileStylesheet({ entry, browserslist, base: '/sub/' });
  const svg = readFileSync(`${fixtures}site/images/dot.svg`);
  const dot = assets.find((asset) => asset.fileName.startsWith('assets/dot-'));
  assert.ok(dot, `an asset for dot.svg among ${assets.map((a) => a.fileName).join(', ')}`);
  assert.is(dot.fileName, `assets/dot-${shortHash(svg)}.svg`);
  assert.ok(dot.source.equals(svg), 'the asset holds the bytes of the file');
  assert.ok(css.includes(`url(/sub/assets/dot-${shortHash(svg)}.svg)`), `rewritten URL: ${css}`);
});

compile('resolves a url() relative to the CSS file that contains it and keeps its #fragment', async () => {
  const { css, assets } = await compileStylesheet({ entry, browserslist });
  const svg = readFileSync(`${fixtures}site/images/dot.svg`);
  assert.ok(
    css.includes(`body{background:url(/assets/dot-${shortHash(svg)}.svg#fill)`),
    `parts/base.css's ../images/dot.svg: ${css}`,
  );
  assert.is(
    assets.filter((asset) => asset.fileName.startsWith('assets/dot-')).length,
    1,
    'one asset for a file used twice',
  );
});

compile('resolves a bare package specifier in url() from node_modules', async () => {
  const { css, assets } = await compileStylesheet({ entry, browserslist });
  const bytes = readFileSync(anton);
  const name = `assets/anton-latin-400-normal-${shortHash(bytes)}.woff2`;
  const asset = assets.find((a) => a.fileName === name);
  assert.ok(asset, `asset ${name} among ${assets.map((a) => a.fileName).join(', ')}`);
  assert.ok(asset.source.equals(bytes));
  assert.ok(css.includes(`.from-package{background-image:url(/${name})}`), css);
  assert.ok(
    css.includes(`src:url(/${name})format("woff2")`),
    "the package's own relative url() resolves to the same asset",
  );
});

compile('leaves data: and http(s) URLs alone', async () => {
  const { css } = await compileStylesheet({ entry, browserslist, base: '/sub/' });
  assert.ok(
    css.includes(`.inline{background-image:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E")}`),
    css,
  );
  assert.ok(css.includes('.remote{background-image:url(https://example.com/pattern.png)}'), css);
});

compile('prefixes root-relative URLs (files from public/) with the base', async () => {
  const under = await compileStylesheet({ entry, browserslist, base: '/sub' });
  assert.ok(
    under.css.includes('.from-public{background-image:url(/sub/og.png)}'),
    'a base without a trailing slash gets one',
  );
  const root = await compileStylesheet({ entry, browserslist });
  assert.ok(root.css.includes('.from-public{background-image:url(/og.png)}'), 'the default base is /');
});

compile('prints readable CSS when minify is false', async () => {
  const { css } = await compileStylesheet({ entry, browserslist, minify: false });
  assert.ok(css.includes('.card .card__title {\n'), css);
});

compile('a url() to a missing file fails naming the CSS file, line, URL and what to do', async () => {
  const error = await failure({ entry: `${fixtures}broken/missing-url.css`, browserslist });
  assert.match(error.message, /broken\/missing-url\.css:6:25: url\("images\/nowhere\.png"\) points at no file/);
  assert.match(error.message, /Fix the path \(it is relative to this CSS file\)/);
});

compile('a syntax error fails with file:line:column and the parser message', async () => {
  const error = await failure({ entry: `${fixtures}broken/syntax-error.css`, browserslist });
  assert.match(
    error.message,
    /broken\/syntax-error\.css:4:9: Invalid dangling combinator in selector\. Fix the CSS at that position\./,
  );
});

compile('a syntax error in an imported file names the imported file', async () => {
  const error = await failure({ entry: `${fixtures}broken/imports-syntax-error.css`, browserslist });
  assert.match(error.message, /broken\/syntax-error\.css:4:9: /);
});

compile('an @import of a missing file fails naming the importing file and the import', async () => {
  const error = await failure({ entry: `${fixtures}broken/missing-import.css`, browserslist });
  assert.match(error.message, /broken\/missing-import\.css:1:1: @import "\.\/absent\.css" points at no file/);
});

compile('an @import of a package that is not installed says so', async () => {
  const error = await failure({ entry: `${fixtures}broken/missing-package.css`, browserslist });
  assert.match(
    error.message,
    /@import "@nowhere\/no-such-package\/style\.css" points at no file .*and for a package in node_modules/,
  );
  assert.match(error.message, /install the package/);
});

compile('a missing entry stylesheet fails with a CssError', async () => {
  const error = await failure({ entry: `${fixtures}nowhere.css`, browserslist });
  assert.match(error.message, /nowhere\.css does not exist/);
});

compile(
  'an invalid browserslist query fails with the ConfigError the JavaScript targets give, naming build.browserslist',
  async () => {
    const error = await compileStylesheet({ entry, browserslist: ['defaultz'] }).then(
      () => assert.unreachable('an unknown query must fail'),
      (e: unknown) => e,
    );
    assert.instance(error, ConfigError, `expected a ConfigError, got ${String(error)}`);
    assert.match(
      (error as Error).message,
      /site\.config\.ts: build\.browserslist \(\["defaultz"\]\) is not a valid browserslist query/,
    );
    assert.is(
      (error as Error).message,
      (() => {
        try {
          resolveBrowsers(['defaultz']);
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      })(),
      'one wording for CSS and JS',
    );
  },
);

compile('is deterministic: two compiles give identical CSS and assets', async () => {
  const first = await compileStylesheet({ entry, browserslist });
  const second = await compileStylesheet({ entry, browserslist });
  assert.is(first.css, second.css);
  assert.equal(
    first.assets.map((a) => a.fileName),
    second.assets.map((a) => a.fileName),
  );
  assert.equal(
    first.assets.map((a) => a.fileName),
    [...first.assets.map((a) => a.fileName)].sort(),
    'assets are sorted by name',
  );
  assert.ok(first.assets.every((asset, index) => asset.source.equals(second.assets[index]!.source)));
});

compile.run();
