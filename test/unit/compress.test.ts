// Compression of the output: settings per kind of file, each distinct content once, results kept between builds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compressedHere, compressionSettings, Compressor, jobCost } from '../../src/pipeline/compress.ts';
import { PageCache } from '../../src/pipeline/page-cache.ts';

const page = `<!doctype html><html><body>${'<p>Guiding your music through smart business.</p>'.repeat(60)}</body></html>`;
const script = `export const x = ${JSON.stringify('a'.repeat(3000))};`;

const compress = suite('Compressor');

compress('pages and the sitemap at brotli 6, everything else at 11 (5 above 256 KB), gzip 9 for all', () => {
  assert.equal(compressionSettings('contact/index.html', 40_000), {
    brotliQuality: 6,
    gzipLevel: 9,
    retry: { above: 12_000, upTo: 16_500, quality: 11 },
  });
  assert.equal(compressionSettings('assets/chunks/chunk-A1.js', 214_000), { brotliQuality: 11, gzipLevel: 9 });
  assert.equal(compressionSettings('feed.xml', 2_000), { brotliQuality: 11, gzipLevel: 9 });
  assert.equal(compressionSettings('assets/data.json', 262_145), { brotliQuality: 5, gzipLevel: 9 });
  const sitemap = { brotliQuality: 6, gzipLevel: 9, brotliWindow: 18 };
  assert.equal(compressionSettings('sitemap.xml', 2_000), sitemap);
  assert.equal(compressionSettings('sitemap.xml', 262_145), sitemap);
  assert.equal(compressionSettings('sitemap-2.xml', 3_400_000), sitemap);
  assert.equal(
    compressionSettings('big/index.html', 2_000_000).brotliQuality,
    6,
    'a page stays at 6 whatever its size',
  );
});

compress(
  'the threads share jobs by their work: a script at brotli 11 weighs as much as thirty pages of its size',
  () => {
    const job = (data: string, quality: number) => ({
      data,
      brotliParams: { [constants.BROTLI_PARAM_QUALITY]: quality },
      gzipLevel: 9,
    });
    assert.is(jobCost(job(page, 6)), Buffer.byteLength(page));
    assert.is(jobCost(job(script, 11)), 30 * Buffer.byteLength(script));
    assert.ok(
      jobCost(job(script, 11)) > 10 * jobCost(job(page, 6)),
      'a 3 KB script at 11 outweighs ten 3 KB pages at 6',
    );
  },
);

compress('threads started ahead of their first job (warm) do not keep the process alive', () => {
  // A module file rather than `node -e`: a process evaluating -e code ends whatever its workers hold.
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-warm-'));
  try {
    const script = join(dir, 'warm.mts');
    const compressModule = pathToFileURL(join(process.cwd(), 'src/pipeline/compress.ts')).href;
    writeFileSync(
      script,
      `const { Compressor } = await import(${JSON.stringify(compressModule)});\nnew Compressor().warm();\nconsole.log('warmed');\n`,
    );
    const started = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000 });
    assert.is(started.stdout.trim(), 'warmed', started.stderr);
    assert.is(started.signal, null, 'the process ended by itself, not killed by the timeout');
    assert.is(started.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
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

/** The window a brotli stream declares in its first bits (RFC 7932, 9.1), as log2 of its bytes. */
function brotliWindowBits(stream: Uint8Array): number {
  let bit = 0;
  const read = (count: number) => {
    let value = 0;
    for (let i = 0; i < count; i += 1, bit += 1) value |= ((stream[bit >> 3]! >> (bit & 7)) & 1) << i;
    return value;
  };
  if (read(1) === 0) return 16;
  const n = read(3);
  if (n !== 0) return 17 + n;
  const m = read(3);
  return m === 0 ? 17 : 8 + m;
}

/** A sitemap part of `count` URLs, as the build writes one. */
function sitemapOf(count: number, prefix = 'c'): string {
  const urls = Array.from(
    { length: count },
    (_, i) => `  <url><loc>https://example.com/${prefix}/${i + 1}</loc></url>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('')}</urlset>\n`;
}

compress(
  'a sitemap part of megabytes is compressed with a 256 KB window; another large file keeps its own',
  async () => {
    const part = sitemapOf(30_000);
    assert.ok(Buffer.byteLength(part) > 1_000_000, 'a part larger than the largest window it is given');
    const compressor = new Compressor();
    const [asSitemap, asData] = await Promise.all([
      compressor.compress('sitemap-1.xml', part),
      compressor.compress('assets/urls.xml', part),
    ]);
    assert.is(brotliWindowBits(asSitemap.br), 18);
    assert.is(brotliWindowBits(asData.br), 21, 'a window just big enough for any other file');
    assert.is(brotliDecompressSync(asSitemap.br).toString(), part);
    assert.is(gunzipSync(asSitemap.gz).toString(), part);
    assert.ok(asSitemap.br.byteLength <= asData.br.byteLength + asData.br.byteLength / 50, 'no worse than 2% for it');
  },
);

compress('large files asked for at once, run aside one at a time, each come back as their own bytes', async () => {
  const parts = Array.from({ length: 4 }, (_, i) => sitemapOf(25_000, `p${i}`));
  assert.ok(
    parts.every(
      (part) =>
        jobCost({ data: part, brotliParams: { [constants.BROTLI_PARAM_QUALITY]: 6 }, gzipLevel: 9 }) > 1_000_000,
    ),
    'each large enough to be compressed aside',
  );
  const results = await Promise.all(parts.map((part, i) => new Compressor().compress(`sitemap-${i + 1}.xml`, part)));
  results.forEach((result, i) => {
    assert.is(brotliDecompressSync(result.br).toString(), parts[i]);
    assert.is(gunzipSync(result.gz).toString(), parts[i]);
  });
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

/** A page like a real one: repeated markup around sentences drawn from a vocabulary, `count` cards of them. */
function distinctPage(count: number): string {
  let state = 7;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % n;
  };
  const vocabulary = Array.from({ length: 400 }, (_, i) => (i * 2654435761).toString(36).slice(0, 3 + (i % 7)));
  const sentence = (words: number) =>
    Array.from({ length: words }, () => vocabulary[next(vocabulary.length)]).join(' ');
  const cards = Array.from(
    { length: count },
    (_, i) =>
      `<article class="card card-${i % 6}" data-reveal=""><h3 class="card-title">${sentence(4)}</h3>` +
      `<p class="card-text">${sentence(14)}</p><a class="card-link" href="/services#s${i}">${sentence(2)}</a></article>`,
  );
  return `<!doctype html><html lang="en"><body><main class="cards">${cards.join('')}</main></body></html>`;
}

/** Brotli of `data` at `quality`, as the build would make it but without the retry. */
function brotliAt(data: string, quality: number): Buffer {
  return brotliCompressSync(data, {
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(data) },
  });
}

compress('a page that brotli 6 leaves near the first round trip is compressed again at 11; others keep 6', async () => {
  const compressor = new Compressor();
  // Sizes chosen by measuring: find a page whose brotli 6 lands between 12 and 16.5 KB, one below and one above.
  const sized = (low: number, high: number) => {
    for (let count = 10; count < 5000; count += 10) {
      const html = distinctPage(count);
      const size = brotliAt(html, 6).length;
      if (size > low && size <= high) return html;
    }
    throw new Error(`no page found with brotli 6 between ${low} and ${high} bytes`);
  };
  const near = sized(12_500, 16_000);
  const small = sized(4_000, 11_000);
  const large = sized(17_000, 40_000);
  const nearResult = await compressor.compress('near/index.html', near);
  assert.ok(
    nearResult.br.length < brotliAt(near, 6).length,
    `the page near the line is smaller than at 6 (${nearResult.br.length} against ${brotliAt(near, 6).length})`,
  );
  assert.is(brotliDecompressSync(nearResult.br).toString(), near);
  for (const [name, html] of [
    ['small', small],
    ['large', large],
  ] as const) {
    const result = await compressor.compress(`${name}/index.html`, html);
    assert.ok(
      result.br.length >= brotliAt(html, 11).length && result.br.length > brotliAt(html, 11).length * 1.02,
      `the ${name} page keeps quality 6 (${result.br.length} bytes; at 11: ${brotliAt(html, 11).length})`,
    );
  }
});

compress(
  'while it waits, the main thread compresses and writes the jobs not sent to a thread yet, with the same bytes',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-gen-help-'));
    try {
      const compressor = new Compressor();
      // 120 pages of 60 KB: about 7 MB of work, more than a thread is sent ahead (SENT_COST).
      const pages = Array.from(
        { length: 120 },
        (_, i) =>
          `<!doctype html><p>${i}</p>${Array.from({ length: 3000 }, (_, j) => `w${(i * 7919 + j * 104729) % 100003}`).join(' ')}`,
      );
      const before = compressedHere();
      const written = pages.map((html, i) =>
        compressor.compressTo(`p${i}/index.html`, html, join(dir, `p${i}/index.html`)),
      );
      const kept = pages
        .slice(0, 20)
        .map((html, i) => compressor.compress(`k${i}/index.html`, html, { keep: false, store: false }));
      await compressor.whileWaiting(Promise.all([...written, ...kept]));
      const here = compressedHere() - before;
      assert.ok(here > 0, 'the main thread compressed some of the jobs');
      assert.ok(here < 140, 'the thread compressed the others');
      for (const [i, html] of pages.entries()) {
        const file = join(dir, `p${i}/index.html`);
        assert.is(readFileSync(file, 'utf8'), html);
        assert.is(brotliDecompressSync(readFileSync(`${file}.br`)).toString(), html);
        assert.is(gunzipSync(readFileSync(`${file}.gz`)).toString(), html);
        assert.equal(await written[i], {
          br: readFileSync(`${file}.br`).byteLength,
          gz: readFileSync(`${file}.gz`).byteLength,
        });
      }
      for (const [i, result] of (await Promise.all(kept)).entries()) {
        assert.is(brotliDecompressSync(result.br).toString(), pages[i]);
        assert.is(gunzipSync(result.gz).toString(), pages[i]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

compress('whileWaiting settles with what it waits for, rejected or not, with nothing to compress', async () => {
  const compressor = new Compressor();
  await compressor.whileWaiting(Promise.reject(new Error('a failed batch')));
  await compressor.whileWaiting(Promise.resolve(1));
});

compress('a thread with a small young generation compresses files and batches larger than it', async () => {
  const compressor = new Compressor();
  const big = page.repeat(Math.ceil((16 * 1024 * 1024) / page.length));
  const batch = Array.from({ length: 32 }, (_, i) => `${i}`.repeat(512 * 1024));
  const results = await Promise.all([
    compressor.compress('big.html', big, { keep: false, store: false }),
    ...batch.map((text, i) => compressor.compress(`page-${i}.html`, text, { keep: false, store: false })),
  ]);
  assert.is(gunzipSync(results[0]!.gz).toString(), big, 'a 16 MB file, twice the young generation');
  results.slice(1).forEach((result, i) => {
    assert.is(brotliDecompressSync(result.br).toString(), batch[i], `page ${i} of a batch of 16 MB and more`);
  });
});

compress(
  'a large script (compressed beside the compression threads) gets the bytes the threads would give',
  async () => {
    // 120 KB at brotli 11 is past the cost a compression thread takes in its queue: it goes to libuv's threads.
    const large = Array.from(
      { length: 3000 },
      (_, i) => `export const v${i} = ${JSON.stringify(`value ${i * 7919}`)};`,
    ).join('\n');
    assert.ok(
      jobCost({ data: large, brotliParams: { [constants.BROTLI_PARAM_QUALITY]: 11 }, gzipLevel: 9 }) > 1_000_000,
    );
    const aside = await new Compressor().compress('assets/large.js', large);
    const window = Math.ceil(Math.log2(Buffer.byteLength(large)));
    const params = {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(large),
      [constants.BROTLI_PARAM_LGWIN]: window,
    };
    assert.ok(aside.br.equals(brotliCompressSync(large, { params })), 'brotli 11, the window fitted to it');
    assert.ok(aside.gz.equals(gzipSync(large, { level: 9 })), 'gzip 9');
  },
);

compress.run();
