import { parseHTML } from 'linkedom';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { buildSite, type PageReport } from '../../src/pipeline/build.ts';
import { brotli } from '../../src/pipeline/compress.ts';

// Issue 11: before any interaction a page downloads at most 20 KB brotli of JavaScript (the 404 page 2 KB): its
// module scripts, modulepreloads and their static imports. React and the islands come later.
const scripts = suite("the real site's JavaScript at load");
let files: Map<string, Uint8Array | string>;
let pages: PageReport[];

scripts.before(async () => {
  ({ files, pages } = await buildSite({ config: 'site.config.ts', out: 'unused', write: false }));
});

const textOf = (path: string) => {
  const data = files.get(path);
  assert.ok(data !== undefined, `${path} is in the output`);
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
};

/**
 * What the browser fetches without any interaction, found from the HTML alone: module scripts, modulepreloads, the
 * entry the capture script imports after the load event, and their static imports.
 */
function loadedAtLoad(page: string): string[] {
  const { document } = parseHTML(textOf(page));
  const start = [
    ...[...document.querySelectorAll('script[type="module"][src]')].map((s) => s.getAttribute('src')!),
    ...[...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')!),
    ...[...document.querySelectorAll('script[data-entry]')].map((s) => s.getAttribute('data-entry')!),
  ].map((url) => url.slice(1));
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    // Static imports only: `import{a}from"/x.js"` and `import"/x.js"`; `import("/x.js")` waits for its caller.
    for (const match of textOf(file).matchAll(/import\s*(?:[\w${},\s*]+from\s*)?"(\/[^"]+\.js)"/g))
      visit(match[1]!.slice(1));
  };
  start.forEach(visit);
  return [...seen].sort();
}

const KB = 1024;

scripts('the build report measures exactly what a page fetches at load, before any interaction', () => {
  for (const page of pages) {
    const files = loadedAtLoad(page.file);
    const bytes = files.reduce((sum, file) => sum + brotli(textOf(file)).byteLength, 0);
    assert.is(page.js.files, files.length, `${page.path}: ${files.join(', ')}`);
    assert.is(page.js.brotli, bytes, `${page.path}: brotli bytes of the same files`);
  }
});

scripts('the home and contact pages load at most 20 KB brotli of JavaScript, the 404 page at most 2 KB', () => {
  const limit: Record<string, number> = { '/': 20 * KB, '/contact': 20 * KB, '/404': 2 * KB };
  for (const page of pages)
    assert.ok(
      page.js.brotli <= limit[page.path]!,
      `${page.path}: ${page.js.brotli} bytes brotli of JavaScript at load, over ${limit[page.path]}`,
    );
});

scripts(
  'no script is fetched while the page loads: the runtime comes after the load event, React and islands when needed',
  () => {
    for (const page of pages) {
      for (const file of loadedAtLoad(page.file)) {
        assert.not.match(
          textOf(file),
          /react\.transitional\.element|hydrateRoot/,
          `${page.path}: ${file} is React-free`,
        );
      }
      const { document } = parseHTML(textOf(page.file));
      assert.is(
        document.querySelectorAll('script[src], link[rel="modulepreload"]').length,
        0,
        `${page.path}: no script or modulepreload in the HTML`,
      );
      assert.match(
        document.querySelector('script[data-entry]')?.textContent ?? '',
        /siteGenCapture/,
        `${page.path}: the input capture is inline, so it works before any script arrives`,
      );
    }
  },
);

scripts.run();
