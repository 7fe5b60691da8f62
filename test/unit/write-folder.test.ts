// The output folder: a page and its .br and .gz written by the compression thread that compressed them, into the
// staging folder like any other write; nothing in the output changes before commit, and a failed write is a WriteError.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WriteError } from '../../src/core/errors.ts';
import { Compressor, handWritesOver } from '../../src/pipeline/compress.ts';
import { OutputFolder, removeTree } from '../../src/pipeline/write.ts';

const page = `<!doctype html><html><body>${'<p>Guiding your music through smart business.</p>'.repeat(60)}</body></html>`;

const folder = suite('OutputFolder: pages written by the compression threads');
let root: string;
let out: string;

folder.before.each(() => {
  root = mkdtempSync(join(tmpdir(), 'site-gen-write-'));
  out = join(root, 'dist');
});
folder.after.each(() => rmSync(root, { recursive: true, force: true }));

/** Every file under `dir` with its bytes, by relative path. */
const tree = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort()
    .map((path) => [path, readFileSync(join(dir, path)).toString('base64')]);

folder('writes the page, its .br and .gz, and changes nothing in the output before commit', async () => {
  mkdirSync(out);
  writeFileSync(join(out, 'old.html'), 'the previous output');
  const compressor = new Compressor();
  const output = await OutputFolder.open(out);
  const sizes = await output.writeCompressed('about/index.html', page, compressor);
  await output.flush();
  assert.equal(readdirSync(out), ['old.html'], 'the output is as it was until commit');
  await output.commit();
  const br = readFileSync(join(out, 'about/index.html.br'));
  const gz = readFileSync(join(out, 'about/index.html.gz'));
  assert.is(readFileSync(join(out, 'about/index.html'), 'utf8'), page);
  assert.is(brotliDecompressSync(br).toString(), page, 'the .br is the page');
  assert.is(gunzipSync(gz).toString(), page, 'the .gz is the page');
  assert.equal(sizes, { br: br.byteLength, gz: gz.byteLength }, 'the sizes given back are those written');
  assert.equal(output.written, ['about/index.html', 'about/index.html.br', 'about/index.html.gz']);
  assert.equal(readdirSync(out).sort(), ['about'], 'the whole output was swapped in');
  assert.is(compressor.counts.compressed, 1);
});

folder('the same bytes as compressing and writing on this thread', async () => {
  const compressor = new Compressor();
  const made = await compressor.compress('index.html', page, { keep: false, store: false });
  const output = await OutputFolder.open(out);
  await output.writeCompressed('index.html', page, compressor);
  await output.commit();
  assert.ok(readFileSync(join(out, 'index.html.br')).equals(made.br));
  assert.ok(readFileSync(join(out, 'index.html.gz')).equals(made.gz));
});

folder("a thread's failed write is a WriteError naming the output folder, and the output stays as it was", async () => {
  mkdirSync(join(out, 'about'), { recursive: true });
  writeFileSync(join(out, 'about/index.html'), 'the previous page');
  const before = tree(out);
  const output = await OutputFolder.open(out);
  // A file where the page's folder must go: the thread cannot make the folder.
  await output.write('about', 'a file in the way');
  await output.flush();
  let error: unknown;
  try {
    await output.writeCompressed('about/index.html', page, new Compressor());
  } catch (caught) {
    error = caught;
  }
  assert.instance(error, WriteError);
  assert.match((error as Error).message, `Could not write the output to ${out} (`);
  assert.match((error as Error).message, 'the previous output was kept');
  let flushed: unknown;
  await output.flush().catch((caught: unknown) => (flushed = caught));
  assert.instance(flushed, WriteError, 'flush reports the failed write too, as for a write on this thread');
  await output.abort();
  assert.equal(tree(out), before, 'the previous output byte for byte');
  assert.equal(readdirSync(root), ['dist'], 'no staging folder left beside it');
});

folder('an update in place renames the three files over the old ones', async () => {
  mkdirSync(join(out, 'about'), { recursive: true });
  for (const file of ['index.html', 'index.html.br', 'index.html.gz']) writeFileSync(join(out, 'about', file), 'old');
  writeFileSync(join(out, 'kept.txt'), 'kept');
  const output = await OutputFolder.open(out, { inPlace: true });
  await output.writeCompressed('about/index.html', page, new Compressor());
  const files = new Set(['kept.txt', 'about/index.html', 'about/index.html.br', 'about/index.html.gz']);
  await output.commit(files, [...files]);
  assert.is(readFileSync(join(out, 'about/index.html'), 'utf8'), page);
  assert.is(brotliDecompressSync(readFileSync(join(out, 'about/index.html.br'))).toString(), page);
  assert.is(readFileSync(join(out, 'kept.txt'), 'utf8'), 'kept', 'a file not written stays');
  assert.equal(readdirSync(root), ['dist']);
});

folder("pages handed to the writer threads: each page's three files, byte for byte, and their sizes", async () => {
  handWritesOver('always');
  try {
    const compressor = new Compressor();
    const output = await OutputFolder.open(out);
    // Pages that differ in length, so that a file given another's part of a batch's shared buffer would show.
    const pages = Array.from({ length: 150 }, (_, index) => `${page}<p>${'page '.repeat(index)}${index}</p>`);
    const sizes = await Promise.all(
      pages.map((html, index) => output.writeCompressed(`p/${index}/index.html`, html, compressor)),
    );
    await output.commit();
    pages.forEach((html, index) => {
      const file = join(out, `p/${index}/index.html`);
      assert.is(readFileSync(file, 'utf8'), html);
      const br = readFileSync(`${file}.br`);
      const gz = readFileSync(`${file}.gz`);
      assert.is(brotliDecompressSync(br).toString(), html, `the .br of page ${index}`);
      assert.is(gunzipSync(gz).toString(), html, `the .gz of page ${index}`);
      assert.equal(sizes[index], { br: br.byteLength, gz: gz.byteLength });
    });
  } finally {
    handWritesOver('measured');
  }
});

folder("a writer thread's failed write is a WriteError, and the output stays as it was", async () => {
  mkdirSync(join(out, 'p'), { recursive: true });
  writeFileSync(join(out, 'p/kept.html'), 'the previous page');
  const before = tree(out);
  handWritesOver('always');
  try {
    const output = await OutputFolder.open(out);
    await output.write('p/7', 'a file where page 7 must make its folder');
    await output.flush();
    const compressor = new Compressor();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, index) => output.writeCompressed(`p/${index}/index.html`, page, compressor)),
    );
    const failed = results.flatMap((result, index) => (result.status === 'rejected' ? [[index, result.reason]] : []));
    assert.is(failed.length, 1, 'only the page whose folder is in the way');
    assert.is(failed[0]![0], 7);
    assert.instance(failed[0]![1], WriteError);
    await output.flush().catch(() => undefined);
    await output.abort();
    assert.equal(tree(out), before, 'the previous output byte for byte');
  } finally {
    handWritesOver('measured');
  }
});

folder(
  'lists each file written once, a page written again with its .br and .gz, in the order first written',
  async () => {
    const output = await OutputFolder.open(out);
    const compressor = new Compressor();
    await output.write('small/index.html', '<p>small</p>');
    await output.writeCompressed('index.html', page, compressor);
    await output.write('sitemap.xml', '<urlset/>');
    await output.write('sitemap.xml.br', 'x');
    // Written again: once when it rendered, again when its document changed; the small page now big enough to compress.
    await output.writeCompressed('index.html', `${page}<p>again</p>`, compressor);
    await output.writeCompressed('small/index.html', page, compressor);
    await output.write('index.html.br', 'a .br the compressed write listed already');
    await output.flush();
    const written = [
      'small/index.html',
      'small/index.html.br',
      'small/index.html.gz',
      'index.html',
      'index.html.br',
      'index.html.gz',
      'sitemap.xml',
      'sitemap.xml.br',
    ];
    assert.equal(output.written, written);
    assert.is(output.writtenCount, written.length);
    await output.abort();
  },
);

/** The pid of a process that has ended. */
const endedPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

folder("a build killed before it cleaned up: its staging folder goes, a running build's stays", async () => {
  mkdirSync(out);
  writeFileSync(join(out, 'index.html'), 'the last build');
  const dead = join(root, `.dist.tmp-${endedPid()}-mx0abc`);
  const live = join(root, `.dist.tmp-${process.ppid}-mx0abd`);
  const other = join(root, `.distant.tmp-${endedPid()}-mx0abe`);
  for (const dir of [dead, live, other]) mkdirSync(join(dir, 'a'), { recursive: true });
  const output = await OutputFolder.open(out);
  assert.not.ok(
    readdirSync(root).includes(dead.slice(root.length + 1)),
    "the killed build's staging folder is removed",
  );
  assert.ok(readdirSync(root).includes(live.slice(root.length + 1)), "a running build's is kept");
  assert.ok(readdirSync(root).includes(other.slice(root.length + 1)), "another output folder's is kept");
  assert.is(readFileSync(join(out, 'index.html'), 'utf8'), 'the last build');
  await output.abort();
});

folder('a build killed between the renames of its commit: its previous output is put back', async () => {
  const old = join(root, `.dist.old-${endedPid()}-mx0abc`);
  mkdirSync(old);
  writeFileSync(join(old, 'index.html'), 'the last build');
  const output = await OutputFolder.open(out);
  assert.is(
    readFileSync(join(out, 'index.html'), 'utf8'),
    'the last build',
    'the output folder is the last build again',
  );
  assert.not.ok(readdirSync(root).includes(old.slice(root.length + 1)));
  await output.abort();
  // With the output folder there, a killed build's previous output is only a leftover.
  const again = join(root, `.dist.old-${endedPid()}-mx0abd`);
  mkdirSync(again);
  writeFileSync(join(again, 'index.html'), 'older');
  await (await OutputFolder.open(out)).abort();
  assert.not.ok(readdirSync(root).includes(again.slice(root.length + 1)));
  assert.is(readFileSync(join(out, 'index.html'), 'utf8'), 'the last build');
});

folder('removeTree removes a tree of folders and files, not what a link in it points to', async () => {
  const old = join(root, 'old');
  for (let i = 0; i < 150; i += 1) {
    mkdirSync(join(old, 'releases', `release-${i}`, 'deeper'), { recursive: true });
    for (const name of ['index.html', 'index.html.br', 'index.html.gz'])
      writeFileSync(join(old, 'releases', `release-${i}`, name), name);
  }
  const kept = join(root, 'kept');
  mkdirSync(kept);
  writeFileSync(join(kept, 'file.txt'), 'stays');
  symlinkSync(kept, join(old, 'link'));
  writeFileSync(join(old, 'favicon.svg'), '<svg/>');
  await removeTree(old);
  assert.not.ok(existsSync(old), 'the tree is gone');
  assert.is(readFileSync(join(kept, 'file.txt'), 'utf8'), 'stays', 'the linked folder is left as it was');
  await removeTree(old); // gone already: nothing to do
  writeFileSync(join(root, 'one.txt'), 'a file');
  await removeTree(join(root, 'one.txt'));
  assert.not.ok(existsSync(join(root, 'one.txt')), 'a file is removed too');
});

folder.run();
