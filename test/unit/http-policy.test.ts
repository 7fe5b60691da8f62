import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  HASHED_FILES_PATH,
  hashedFilesOf,
  isBuildMetadata,
  parseHashedFiles,
  serializeHashedFiles,
} from '../../src/core/http/hashed-files.ts';
import { isCompressible } from '../../src/core/http/compressible.ts';
import { INDEX_FILE, pageFile, pagePathOf, resolveOutputPath } from '../../src/core/http/paths.ts';
import { shouldPrecompress } from '../../src/pipeline/compress.ts';
import { pageAlias } from '../../src/deploy/headers.ts';
import { targetsFor } from '../../src/deploy/targets.ts';
import {
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  contentTypeFor,
  createHttpPolicy,
  looksHashed,
} from '../../src/core/http/policy.ts';
import { SiteGenError } from '../../src/core/errors.ts';

// What the build named with a hash, as its list says: esbuild's base32 and the CSS step's hex.
const built = new Set([
  'assets/home-3F9A1C2B.js',
  'assets/chunks/react-AB12CD34.js',
  'assets/site-1a2b3c4d.css',
  'assets/inter-0a1b2c3d.woff2',
]);

// [path, hashed by the build's list, hashed by the name alone (a dist/ without the list), Content-Type]
const TABLE: Array<[string, boolean, boolean, string]> = [
  ['assets/home-3F9A1C2B.js', true, true, 'text/javascript; charset=utf-8'],
  ['assets/home-3F9A1C2B.js.br', true, true, 'application/octet-stream'],
  ['assets/home-3F9A1C2B.js.gz', true, true, 'application/gzip'],
  ['assets/chunks/react-AB12CD34.js', true, true, 'text/javascript; charset=utf-8'],
  ['assets/site-1a2b3c4d.css', true, true, 'text/css; charset=utf-8'],
  ['assets/inter-0a1b2c3d.woff2', true, true, 'font/woff2'],
  // Dates and hex-looking words from public/assets/: never immutable, whatever their look.
  ['assets/photo-20240101.jpg', false, false, 'image/jpeg'],
  ['assets/logo-facadeee.svg', false, false, 'image/svg+xml'],
  ['assets/brand-deadbeef.png', false, false, 'image/png'],
  ['assets/logo-partner.svg', false, false, 'image/svg+xml'],
  ['assets/home-3F9a1c2b.js', false, false, 'text/javascript; charset=utf-8'],
  ['assets/home-3f9a1c2.js', false, false, 'text/javascript; charset=utf-8'],
  ['assets/3f9a1c2b', false, false, 'application/octet-stream'],
  // A public/ file that looks hashed: the name guesses wrong, the build's list does not.
  ['assets/report-2b3c4d5e.pdf', false, true, 'application/pdf'],
  // Outside assets/ nothing is hashed.
  ['home-3F9A1C2B.js', false, false, 'text/javascript; charset=utf-8'],
  ['index.html', false, false, 'text/html; charset=utf-8'],
  ['index.html.br', false, false, 'application/octet-stream'],
  ['contact/index.html', false, false, 'text/html; charset=utf-8'],
  ['404.html', false, false, 'text/html; charset=utf-8'],
  ['sitemap.xml', false, false, 'application/xml; charset=utf-8'],
  ['robots.txt', false, false, 'text/plain; charset=utf-8'],
  ['favicon.svg', false, false, 'image/svg+xml'],
  ['og-image.png', false, false, 'image/png'],
  ['downloads/press-kit.gz', false, false, 'application/gzip'],
  ['LICENSE', false, false, 'application/octet-stream'],
];

const policy = suite('HTTP policy');

policy('decides hashed, Cache-Control and Content-Type from the build list for every awkward name', () => {
  const withList = createHttpPolicy(built);
  for (const [path, hashed, , type] of TABLE) {
    assert.is(withList.isHashed(path), hashed, `${path}: hashed only if the build named it with a hash`);
    assert.equal(
      withList.fileHeaders(path),
      { contentType: type, cacheControl: hashed ? CACHE_IMMUTABLE : CACHE_REVALIDATE },
      path,
    );
    assert.equal(
      withList.fileHeaders(`/${path}`),
      withList.fileHeaders(path),
      `${path}: a URL path and an output path agree`,
    );
  }
});

policy('without the build list, judges by the name and says unhashed when unsure', () => {
  const byName = createHttpPolicy();
  for (const [path, , hashed] of TABLE) {
    assert.is(byName.isHashed(path), hashed, `${path}: name-based answer`);
    assert.is(looksHashed(path), hashed, path);
    assert.is(byName.fileHeaders(path).cacheControl, hashed ? CACHE_IMMUTABLE : CACHE_REVALIDATE, path);
  }
});

policy('gives servers the same two headers deploy stores, and plain-text answers a revalidated text type', () => {
  const withList = createHttpPolicy(built);
  assert.equal(withList.responseHeaders('assets/site-1a2b3c4d.css'), {
    'Content-Type': 'text/css; charset=utf-8',
    'Cache-Control': CACHE_IMMUTABLE,
  });
  assert.equal(withList.textHeaders(), {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': CACHE_REVALIDATE,
  });
  assert.is(CACHE_IMMUTABLE, 'public, max-age=31536000, immutable');
  assert.is(CACHE_REVALIDATE, 'public, max-age=0, must-revalidate');
  assert.is(contentTypeFor('/contact/index.html'), 'text/html; charset=utf-8');
});

policy.run();

const list = suite('hashed-files list');

list('round-trips through the file the build writes, sorted and without duplicates', () => {
  const text = serializeHashedFiles(['b-AB12CD34.js', 'a-AB12CD34.js', 'b-AB12CD34.js']);
  assert.equal([...parseHashedFiles(text, 'x')], ['a-AB12CD34.js', 'b-AB12CD34.js']);
  assert.equal(hashedFilesOf(new Map([[HASHED_FILES_PATH, text]])), new Set(['a-AB12CD34.js', 'b-AB12CD34.js']));
  assert.is(hashedFilesOf(new Map()), undefined, 'a build without the list falls back to names');
});

list('refuses a damaged list, naming the file and what to do', () => {
  for (const text of ['not json', '{"version":2,"files":[]}', '{"version":1,"files":[1]}']) {
    assert.throws(
      () => parseHashedFiles(text, 'dist/.site-gen/hashed-files.json'),
      (error: unknown) =>
        error instanceof SiteGenError &&
        /dist\/\.site-gen\/hashed-files\.json .*Run `site-gen build` again/.test(error.message),
      text,
    );
  }
});

list('marks the list as build metadata, never a file of the site', () => {
  assert.ok(isBuildMetadata(HASHED_FILES_PATH));
  assert.not.ok(isBuildMetadata('assets/site-1a2b3c4d.css'));
});

list.run();

const paths = suite('resolveOutputPath');

paths('finds a file, then <path>.html, then <path>/index.html; a trailing slash names a page', () => {
  const files = new Set(['index.html', 'contact/index.html', '404.html', 'robots.txt']);
  assert.is(resolveOutputPath(files, '/'), 'index.html');
  assert.is(resolveOutputPath(files, '/contact'), 'contact/index.html');
  assert.is(resolveOutputPath(files, '/404'), '404.html');
  assert.is(resolveOutputPath(files, '/robots.txt'), 'robots.txt');
  assert.is(resolveOutputPath(files, '/robots.txt/'), undefined);
});

paths("writes a page path as its folder's index.html, and reads it back", () => {
  const table: Array<[string, string]> = [
    ['/', 'index.html'],
    ['/contact', 'contact/index.html'],
    ['/docs/a b', 'docs/a b/index.html'],
  ];
  for (const [page, file] of table) {
    assert.is(pageFile(page), file, `${page} is written to ${file}`);
    assert.is(pageFile(`${page}/`), file, `${page}/ is the same page`);
    assert.is(pagePathOf(file), page, `${file} is the page ${page}`);
    assert.is(resolveOutputPath(new Set([file]), page), file, `${page} is answered with ${file}`);
  }
  assert.is(INDEX_FILE, 'index.html');
  for (const file of ['404.html', 'contactindex.html', 'assets/site.css', 'index.html.br'])
    assert.is(pagePathOf(file), undefined, `${file} is no folder's page`);
  assert.is(pageAlias('contact/index.html'), 'contact', "deploy's extra key is the page path without its slash");
  assert.is(pageAlias('index.html'), undefined);
});

paths.run();

const compressible = suite('compressible files: one rule for the build and for deploy --gzip');

compressible('text, JSON, XML, SVG, icons and WebAssembly are compressed; images, fonts and archives are not', () => {
  for (const file of [
    'a.html',
    'a.css',
    'a.js',
    'a.mjs',
    'a.json',
    'a.map',
    'a.svg',
    'a.xml',
    'a.txt',
    'a.ico',
    'a.wasm',
  ])
    assert.ok(isCompressible(file), file);
  for (const file of ['a.png', 'a.avif', 'a.woff2', 'a.jpg', 'a.gz', 'a.zip', '_headers', 'README'])
    assert.not.ok(isCompressible(file), file);
});

compressible('the build precompresses exactly the files deploy --gzip stores gzip-encoded', () => {
  const files = ['app.wasm', 'site.css', 'data.json', 'logo.svg', 'photo.png', 'font.woff2', 'feed.xml', 'notes.csv'];
  const gzipped = targetsFor(
    files.map((path) => ({ path, absolutePath: `/dist/${path}`, size: 4096, md5: '0'.repeat(32) })),
    { prefix: '', gzip: true },
  )
    .filter((target) => target.encoding === 'gzip')
    .map((target) => target.path)
    .sort();
  assert.equal(files.filter((file) => shouldPrecompress(file, 4096)).sort(), gzipped);
  assert.ok(gzipped.includes('app.wasm'), 'WebAssembly is compressed by both');
  assert.not.ok(shouldPrecompress('app.wasm', 1024), 'files of 1 KB or less get no siblings');
});

compressible.run();
