// Compression of the output: settings per kind of file, each distinct content once, results kept on disk between builds.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compressionSettings, Compressor } from '../../src/build/compress.ts';

const page = `<!doctype html><html><body>${'<p>Guiding your music through smart business.</p>'.repeat(60)}</body></html>`;
const script = `export const x = ${JSON.stringify('a'.repeat(3000))};`;

const compress = suite('Compressor');

compress('pages at brotli 6, everything else at 11, gzip 9 for all', () => {
  assert.equal(compressionSettings('contact/index.html'), { brotliQuality: 6, gzipLevel: 9 });
  assert.equal(compressionSettings('assets/chunks/chunk-A1.js'), { brotliQuality: 11, gzipLevel: 9 });
  assert.equal(compressionSettings('sitemap.xml'), { brotliQuality: 11, gzipLevel: 9 });
});

compress('gives brotli and gzip that decompress to the file', async () => {
  const result = await new Compressor().compress('index.html', page);
  assert.is(brotliDecompressSync(result.br).toString(), page);
  assert.is(gunzipSync(result.gz).toString(), page);
});

compress('compresses each distinct content once, for every page that asks', async () => {
  const compressor = new Compressor();
  const first = await compressor.compress('assets/a.js', script);
  const again = await Promise.all([compressor.compress('assets/a.js', script), compressor.compress('assets/copy-of-a.js', Buffer.from(script))]);
  assert.is(compressor.counts.compressed, 1, 'the same bytes at the same settings are compressed once');
  assert.ok(again.every((result) => result.br.equals(first.br)));
  await compressor.compress('a.html', script);
  assert.is(compressor.counts.compressed, 2, 'the same bytes as a page are compressed at the page settings');
});

compress('keeps results on disk: a later build reads them instead of compressing; a deleted cache is made again', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-compress-'));
  try {
    const first = new Compressor({ cacheDir: dir });
    const made = await first.compress('index.html', page);
    const entries = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    assert.is(entries().length, 1, 'one entry holds both the brotli and the gzip bytes');

    const later = new Compressor({ cacheDir: dir });
    const read = await later.compress('index.html', page);
    assert.equal(later.counts, { cached: 1, compressed: 0 });
    assert.ok(read.br.equals(made.br) && read.gz.equals(made.gz), 'the same bytes as compressing');

    const [entry] = entries();
    writeFileSync(join(entry!.parentPath, entry!.name), readFileSync(join(entry!.parentPath, entry!.name)).subarray(0, 20));
    const damaged = await new Compressor({ cacheDir: dir }).compress('index.html', page);
    assert.ok(damaged.br.equals(made.br), 'a truncated entry is compressed again');

    const edited = await later.compress('index.html', `${page}<!-- edited -->`);
    assert.is(later.counts.compressed, 1, 'new content is never served from an older entry');
    assert.is(brotliDecompressSync(edited.br).toString(), `${page}<!-- edited -->`);

    rmSync(dir, { recursive: true, force: true });
    const fresh = new Compressor({ cacheDir: dir });
    await fresh.compress('index.html', page);
    assert.equal(fresh.counts, { cached: 0, compressed: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

compress('asks the threads once for a file asked for again with the same data, as every page report does for shared scripts', async () => {
  const compressor = new Compressor();
  const data = Buffer.from(script);
  const results = await Promise.all(Array.from({ length: 50 }, () => compressor.compress('assets/shared.js', data)));
  assert.is(compressor.counts.compressed, 1);
  assert.ok(results.every((result) => result === results[0]), 'the very same result');
  const changed = await compressor.compress('assets/shared.js', Buffer.from(`${script}//`));
  assert.is(compressor.counts.compressed, 2, 'other bytes at the same path are compressed');
  assert.is(brotliDecompressSync(changed.br).toString(), `${script}//`);
});

compress.run();
