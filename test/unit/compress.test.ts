// Compression of the output: settings per kind of file, each distinct content once, results kept between builds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compressionSettings, Compressor } from '../../src/pipeline/compress.ts';
import { PageCache } from '../../src/pipeline/page-cache.ts';

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
  const again = await Promise.all([
    compressor.compress('assets/a.js', script),
    compressor.compress('assets/copy-of-a.js', Buffer.from(script)),
  ]);
  assert.is(compressor.counts.compressed, 1, 'the same bytes at the same settings are compressed once');
  assert.ok(again.every((result) => result.br.equals(first.br)));
  await compressor.compress('a.html', script);
  assert.is(compressor.counts.compressed, 2, 'the same bytes as a page are compressed at the page settings');
});

compress(
  'keeps results in the page cache: a later build reads them instead of compressing; a deleted cache is made again',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-gen-compress-'));
    const open = () => PageCache.open(dir, join(dir, 'site.config.ts'), '/');
    try {
      const cache = open();
      const made = await new Compressor({ store: cache }).compress('index.html', page);
      await cache.save();

      const later = new Compressor({ store: open() });
      const read = await later.compress('index.html', page);
      assert.equal(later.counts, { cached: 1, compressed: 0 });
      assert.ok(read.br.equals(made.br) && read.gz.equals(made.gz), 'the same bytes as compressing');

      const edited = await later.compress('index.html', `${page}<!-- edited -->`);
      assert.is(later.counts.compressed, 1, 'new content is never served from an older entry');
      assert.is(brotliDecompressSync(edited.br).toString(), `${page}<!-- edited -->`);

      rmSync(dir, { recursive: true, force: true });
      const fresh = new Compressor({ store: open() });
      await fresh.compress('index.html', page);
      assert.equal(fresh.counts, { cached: 0, compressed: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

compress('a window just big enough: the same bytes back, no bigger than with the default window', async () => {
  const big = `<!doctype html>${'<p>Guiding your music through smart business, one release at a time.</p>'.repeat(2000)}`;
  const result = await new Compressor().compress('big.html', big);
  assert.is(brotliDecompressSync(result.br).toString(), big, 'a page over 64 KB decompresses whole');
  assert.ok(
    result.br.byteLength <= brotliCompressSync(big, { params: { [constants.BROTLI_PARAM_QUALITY]: 6 } }).byteLength,
  );
});

compress(
  'asks the threads once for a file asked for again with the same data, as every page report does for shared scripts',
  async () => {
    const compressor = new Compressor();
    const data = Buffer.from(script);
    const results = await Promise.all(Array.from({ length: 50 }, () => compressor.compress('assets/shared.js', data)));
    assert.is(compressor.counts.compressed, 1);
    assert.ok(
      results.every((result) => result === results[0]),
      'the very same result',
    );
    const changed = await compressor.compress('assets/shared.js', Buffer.from(`${script}//`));
    assert.is(compressor.counts.compressed, 2, 'other bytes at the same path are compressed');
    assert.is(brotliDecompressSync(changed.br).toString(), `${script}//`);
  },
);

compress.run();
