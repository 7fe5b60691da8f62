// Markdown bodies rendered on the main thread and a worker thread together: the same entries and problems as the
// main thread alone makes, images read on the main thread, a failed worker leaving its work to the main thread, and
// the compiled worker loading without tsx.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ContentError } from '../../src/core/errors.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { splitFrontmatter } from '../../src/content/frontmatter.ts';
import { highlighterFor } from '../../src/content/highlight.ts';
import { MarkdownCollections } from '../../src/content/load.ts';
import { fenceLanguages, parseMarkdown, type RenderedMarkdown, renderParsed } from '../../src/content/markdown.ts';
import {
  type BodyToRender,
  chunkBounds,
  earlyWorker,
  fenceCount,
  likelyBlocks,
  MarkdownWorker,
  mayShowImage,
  renderBodies,
  takesChunk,
  type WorkerReply,
} from '../../src/content/markdown-pool.ts';
import { ImageSources } from '../../src/images/source.ts';
import { collectNow } from '../../src/pipeline/heap.ts';
import { collections as fixtureCollections } from '../fixtures/markdown/content/schema.ts';
import { copyFixture, failure } from '../helpers/fixture.ts';

const fixture = resolve('test/fixtures/markdown');
/** The fixture's own Markdown collection: its schema, as its content/schema.ts declares it. */
const collections = { posts: fixtureCollections.posts };

/** Entry `i`: headings, a footnote, a task list, a table, links, code in two languages; some a picture or odd code. */
function entryText(i: number): string {
  const extra = [
    '![A harbour](./harbour.jpg)',
    '```\nno language\n```',
    '```nosuchlanguage\nplain <b>\n```',
    'A NUL \u0000 and an entity &#0; become U+FFFD, never a marker.',
    '<img src="raw.png" alt="raw HTML, never read">',
    '',
  ][i % 6];
  return `---
title: Entry ${i}
date: 2026-01-${String((i % 28) + 1).padStart(2, '0')}
tags: [t${i % 3}]
---

## Part ${i}

Text ${i} with **bold**, a [link](/notes/first-note) and a footnote.[^n]

- [x] done ${i}
- item \`code ${i}\`

\`\`\`ts
const value${i}: number = ${i} * 2; // comment
\`\`\`

\`\`\`css
.a${i} { color: red; }
\`\`\`

| a | b |
| - | - |
| ${i} | ${i + 1} |

## Part ${i}

${extra}

[^n]: The note of ${i}.
`;
}

const slug = (i: number) => `entry-${String(i).padStart(3, '0')}`;

/** A copy of the Markdown fixture with `count` generated entries beside its own. */
function manyEntries(count: number, change?: (i: number, text: string) => string) {
  const copy = copyFixture(fixture);
  for (let i = 0; i < count; i += 1)
    copy.write(`content/posts/${slug(i)}.md`, change ? change(i, entryText(i)) : entryText(i));
  return copy;
}

const load = (root: string, workerFrom: number, prepare = false) => {
  const markdown = new MarkdownCollections(projectPaths(join(root, 'site.config.ts')), new ImageSources(), {
    workerFrom,
  });
  return (async () => {
    if (prepare) await markdown.prepare();
    return { loaded: await markdown.load(collections), onWorker: markdown.onWorker };
  })();
};

const pool = suite('Markdown bodies on a worker thread');

pool('a collection rendered with the worker is the one the main thread alone renders', async () => {
  const copy = manyEntries(60);
  try {
    const alone = await load(copy.root, Number.POSITIVE_INFINITY);
    assert.equal(alone.onWorker, { bodies: 0, blocks: 0 }, 'no worker under the threshold');
    for (const prepare of [false, true]) {
      const shared = await load(copy.root, 0, prepare);
      assert.ok(shared.onWorker.blocks > 0, 'the worker highlighted the code of the bodies rendered here');
      assert.equal(
        shared.loaded,
        alone.loaded,
        `the same entries (html, headings, links, images), prepare: ${prepare}`,
      );
    }
    const posts = alone.loaded.content.posts!;
    const pictured = posts.find((entry) => entry.slug === slug(0))!;
    assert.match(pictured.html, /<picture>.*alt="A harbour"/, 'a picture is made on the main thread');
    assert.ok(pictured.images.length > 0, 'with its image files to encode');
    assert.match(posts.find((entry) => entry.slug === slug(3))!.html, /A NUL \uFFFD and an entity \uFFFD/);
    assert.match(posts.find((entry) => entry.slug === slug(1))!.html, /<pre class="code"><code>no language<\/code>/);
  } finally {
    copy.remove();
  }
});

pool('a problem in a body fails the load naming the file and line, with the worker as without', async () => {
  const copy = manyEntries(40, (i, text) =>
    i === 7 ? text.replace('## Part 7\n\nText', '## Part 7\n\n<p onclick="go()">x</p>\n\nText') : text,
  );
  try {
    const messages: string[] = [];
    for (const workerFrom of [Number.POSITIVE_INFINITY, 0]) {
      const error = await failure(() => load(copy.root, workerFrom));
      assert.instance(error, ContentError);
      messages.push(error.message);
    }
    assert.match(messages[0]!, /content\/posts\/entry-007\.md:9: <p> has an onclick= handler/);
    assert.is(messages[1], messages[0], 'the same message with the worker');
  } finally {
    copy.remove();
  }
});

/** The fixture's generated bodies, as the pool is given them. */
function bodies(count: number): BodyToRender[] {
  return Array.from({ length: count }, (_, i) => {
    const front = splitFrontmatter(entryText(i));
    return { file: join(fixture, 'content/posts', `${slug(i)}.md`), body: front.body, bodyLine: front.bodyLine };
  });
}

const images = new ImageSources();
const renderedHere = (item: BodyToRender, highlighter: Parameters<typeof renderParsed>[1]) =>
  renderParsed(
    parseMarkdown(item.body, { ...item, readImage: (file, shown) => images.read(file, shown) }),
    highlighter,
  );

pool('a build with many .md files starts its worker early, and the collections take it', async () => {
  const copy = manyEntries(30);
  try {
    const paths = projectPaths(join(copy.root, 'site.config.ts'));
    assert.is(earlyWorker(paths.content, 100), undefined, 'no worker for fewer files than the threshold');
    assert.is(earlyWorker(join(copy.root, 'no-such-folder'), 0), undefined, 'none without a content folder');
    const worker = earlyWorker(paths.content, 10);
    assert.ok(worker, 'a worker for more files than the threshold');
    // Given the early worker, the collections use it whatever their own threshold.
    const markdown = new MarkdownCollections(paths, new ImageSources(), {
      workerFrom: Number.POSITIVE_INFINITY,
      worker,
    });
    await markdown.prepare();
    const loaded = await markdown.load(collections);
    assert.ok(markdown.onWorker.blocks + markdown.onWorker.bodies > 0, 'the early worker did part of the work');
    assert.equal(loaded, (await load(copy.root, Number.POSITIVE_INFINITY)).loaded, 'the same entries as without it');
  } finally {
    copy.remove();
  }
});

pool('the collections’ hash is the same for the same files and another when a text or a name changes', async () => {
  const copy = manyEntries(3);
  try {
    const hashOf = async () => (await load(copy.root, Number.POSITIVE_INFINITY, true)).loaded.hash;
    const first = await hashOf();
    assert.match(first, /^[0-9a-f]{32}$/);
    assert.is(await hashOf(), first, 'the same files: the same hash');
    copy.write(`content/posts/${slug(1)}.md`, entryText(1).replace('## Part 1', '## Part one'));
    const edited = await hashOf();
    assert.is.not(edited, first, 'an edited body changes it');
    renameSync(join(copy.root, `content/posts/${slug(2)}.md`), join(copy.root, `content/posts/${slug(9)}.md`));
    assert.is.not(await hashOf(), edited, 'a renamed file changes it');
  } finally {
    copy.remove();
  }
});

pool('the worker renders a body as the main thread does, problems and their lines included', async () => {
  const given = bodies(12).map((item, i) =>
    i === 2 ? { ...item, body: `${item.body}\n<script>alert(1)</script>\n` } : item,
  );
  const languages = [...new Set(given.flatMap((item) => fenceLanguages(item.body)))];
  const highlighter = await highlighterFor(languages);
  // The worker alone takes from the queue: nothing here takes a chunk.
  const bounds = chunkBounds(given.length);
  const worker = MarkdownWorker.start();
  const { port1, port2 } = new MessageChannel();
  const renders: Array<RenderedMarkdown | null> = [];
  try {
    await new Promise<void>((done) => {
      let left = bounds.length - 1;
      worker.run(
        { bodies: given, bounds, next: new SharedArrayBuffer(4), languages, jobs: port2 },
        (reply: WorkerReply) => {
          if (!('chunk' in reply)) return;
          renders.splice(bounds[reply.chunk]!, reply.renders.length, ...reply.renders);
          left -= 1;
          if (left === 0) done();
        },
      );
    });
  } finally {
    worker.stop();
    port1.close();
  }
  given.forEach((item, i) => {
    // Entry 0 shows a picture: the worker leaves it to the main thread, which reads images.
    if (i % 6 === 0) assert.is(renders[i], null, `body ${i} shows an image: left to the main thread`);
    else assert.equal(renders[i], renderedHere(item, highlighter), `body ${i} is rendered as the main thread does`);
  });
  const scriptLine = given[2]!.bodyLine + given[2]!.body.split('\n').indexOf('<script>alert(1)</script>');
  assert.equal(
    renders[2]!.problems.map(({ line }) => line),
    [scriptLine],
    'the <script> is a problem at its line in the file',
  );
});

pool('a worker that cannot start leaves every body and block to the main thread', async () => {
  const given = bodies(30);
  const languages = [...new Set(given.flatMap((item) => fenceLanguages(item.body)))];
  const highlighter = await highlighterFor(languages);
  const { renders, onWorker } = await renderBodies(given, {
    languages,
    renderHere: (index, withHighlighter) => renderedHere(given[index]!, withHighlighter),
    worker: MarkdownWorker.start(join(fixture, 'no-such-worker.js')),
  });
  assert.equal(onWorker, { bodies: 0, blocks: 0 });
  assert.equal(
    renders,
    given.map((item) => renderedHere(item, highlighter)),
    'every body rendered, blocks highlighted',
  );
});

pool('a worker that dies leaves the bodies it took and the blocks it never answered to the main thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pool-'));
  const given = bodies(40).map((item) => ({ ...item, file: join(dir, basename(item.file)) }));
  const taken = `${given[1]!.file}.taken`;
  const languages = [...new Set(given.flatMap((item) => fenceLanguages(item.body)))];
  const highlighter = await highlighterFor(languages);
  try {
    const { renders, onWorker } = await renderBodies(given, {
      languages,
      renderHere: (index, withHighlighter) => {
        // Body 0 shows a picture: rendered here first, while the worker takes every chunk of the queue and dies.
        if (index === 0) holdUntil(() => existsSync(taken));
        return renderedHere(given[index]!, withHighlighter);
      },
      worker: MarkdownWorker.start(resolve('test/helpers/dying-markdown-worker.ts')),
    });
    assert.equal(onWorker, { bodies: 0, blocks: 0 });
    assert.equal(
      renders,
      given.map((item) => renderedHere(item, highlighter)),
      'every body rendered, blocks highlighted',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Blocks this thread until `ready()` (the worker runs meanwhile), for at most 30 s. */
function holdUntil(ready: () => boolean): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let tries = 0; tries < 3000 && !ready(); tries += 1) Atomics.wait(pause, 0, 0, 10);
  assert.ok(ready(), 'the worker took the queue within 30 s');
}

pool('a body that shows an image is always seen as one (never missed, sometimes over-counted)', () => {
  const cases: Array<[body: string, image: boolean]> = [
    ['![a](./x.png)', true],
    ['- item ![a](./x.png)', true],
    ['> quoted ![a](./x.png)', true],
    ['| a |\n| - |\n| ![a](./x.png) |', true],
    ['![a][pic]\n\n[pic]: ./x.png', true],
    ['![a]\n\n[a]: ./x.png', true],
    ['no picture, a [link](./x.png)', false],
    ['<IMG src="x.png">', false],
    ['an escaped \\![a](./x.png) over-counted', false],
  ];
  for (const [body, image] of cases) {
    let read = false;
    renderParsed(
      parseMarkdown(body, {
        file: join(fixture, 'content/posts/x.md'),
        bodyLine: 1,
        readImage: () => {
          read = true;
          throw new Error('not read in this test');
        },
      }),
    );
    assert.is(read, image, `${JSON.stringify(body)} ${image ? 'reads' : 'reads no'} image`);
    if (read) assert.ok(mayShowImage(body), `${JSON.stringify(body)} stays on the main thread`);
  }
  assert.ok(mayShowImage('<IMG src="x.png">'), 'raw <img> stays on the main thread too');
});

pool('the worker takes a chunk only while its blocks left would not outlast the main thread’s bodies', () => {
  const choice = { blocksLeft: 100, msPerBlock: 1, msPerBody: 0.5, bodiesLeft: 1000, chunkBodies: 100 };
  // 100 blocks and a chunk: 150 ms on the worker, against 450 ms of bodies left to the main thread.
  assert.ok(takesChunk(choice), 'few blocks left: the worker helps with the bodies');
  // 1,000 blocks: 1,050 ms against 450 ms; the main thread would wait for the blocks at the end.
  assert.not.ok(takesChunk({ ...choice, blocksLeft: 1000 }), 'many blocks left: the worker highlights');
  assert.ok(takesChunk({ ...choice, blocksLeft: 0, msPerBlock: undefined }), 'no block: always');
  assert.not.ok(takesChunk({ ...choice, msPerBody: undefined }), 'blocks left and no rate known: it waits');
  assert.not.ok(takesChunk({ ...choice, msPerBlock: undefined }), 'before its first block: it waits');
});

pool(
  'the blocks highlighted ahead are the fences markdown-it finds, with the code and language it is asked for',
  () => {
    const text = '---\ntitle: T\n---\n\nText\n\n```ts {1}\nconst a = 1;\n\n```\n\n~~~~\nplain ``` here\n~~~~\n';
    const blocks = likelyBlocks(text);
    assert.equal(blocks, [
      ['const a = 1;\n\n', 'ts'],
      ['plain ``` here\n', ''],
    ]);
    const asked: Array<[string, string]> = [];
    renderParsed(
      parseMarkdown(text, {
        file: '/x.md',
        bodyLine: 1,
        readImage: () => {
          throw new Error('no image here');
        },
      }),
      {
        highlight: (code, lang) => {
          asked.push([code, lang]);
          return '';
        },
      },
    );
    assert.equal(blocks, asked, 'each as markdown-it asks the highlighter for it');
    assert.is(fenceCount(text), 2);
  },
);

pool('chunks cover every body once, big first and small last', () => {
  for (const count of [1, 17, 250, 4000]) {
    const bounds = chunkBounds(count);
    assert.is(bounds[0], 0);
    assert.is(bounds.at(-1), count);
    const sizes = bounds.slice(1).map((end, k) => end - bounds[k]!);
    assert.ok(
      sizes.every((size, k) => size <= 100 && (size >= 16 || k === sizes.length - 1)),
      `${count}: ${sizes.join(',')}`,
    );
    assert.ok(
      sizes.every((size, k) => k === 0 || size <= sizes[k - 1]!),
      `${count}: sizes never grow`,
    );
  }
});

pool('the compiled worker (lib/) loads without tsx, and the process ends once the bodies are rendered', () => {
  // lib/ current: bin rebuilds it in a checkout when a source changed.
  spawnSync(process.execPath, ['bin/site-gen.js', '--version'], { encoding: 'utf8' });
  const lib = (module: string) => JSON.stringify(pathToFileURL(resolve('lib/content', module)).href);
  const script = `
    import { createHash } from 'node:crypto';
    import { renderBodies } from ${lib('markdown-pool.js')};
    import { parseMarkdown, renderParsed } from ${lib('markdown.js')};
    const bodies = ${JSON.stringify(bodies(40).filter((item) => !mayShowImage(item.body)))};
    const renderHere = (i, h) => renderParsed(parseMarkdown(bodies[i].body, { ...bodies[i], readImage() { throw new Error('no images'); } }), h);
    const hash = (renders) => createHash('sha256').update(JSON.stringify(renders)).digest('hex');
    const alone = await renderBodies(bodies, { languages: ['ts', 'css'], renderHere, workerFrom: Infinity });
    const shared = await renderBodies(bodies, { languages: ['ts', 'css'], renderHere, workerFrom: 0 });
    console.log(JSON.stringify({ same: hash(alone.renders) === hash(shared.renders), onWorker: shared.onWorker }));
  `;
  // A file, as bin/site-gen.js is: a worker inherits the process's flags, and --input-type is refused for a file.
  const dir = mkdtempSync(join(tmpdir(), 'site-gen-pool-'));
  writeFileSync(join(dir, 'render.mjs'), script);
  const child = spawnSync(process.execPath, [join(dir, 'render.mjs')], { encoding: 'utf8', timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });
  assert.is(child.status, 0, `the process ends by itself:\n${child.stderr}`);
  const result = JSON.parse(child.stdout) as { same: boolean; onWorker: { bodies: number; blocks: number } };
  assert.ok(result.same, 'the same renders as the main thread alone');
  assert.ok(
    result.onWorker.blocks + result.onWorker.bodies > 0,
    `the compiled worker did part of the work: ${child.stdout}`,
  );
});

pool(
  "a build's load lets go of each file's text; watch's keeps it, to render only what changed next time",
  async () => {
    const entries = 30;
    const size = 1024 * 1024;
    // A frontmatter comment of 1 MB: the file's text is large, its entry (data, body, render) small.
    const copy = manyEntries(entries, (_i, text) => text.replace('---\n', `---\n# ${'x'.repeat(size)}\n`));
    try {
      const grows = async (reuse: boolean) => {
        const markdown = new MarkdownCollections(projectPaths(join(copy.root, 'site.config.ts')), new ImageSources(), {
          workerFrom: Number.POSITIVE_INFINITY,
          reuse,
        });
        collectNow();
        const before = process.memoryUsage().heapUsed;
        // What the pipeline keeps of a load: the entries (the rest, the inputs' fingerprint with it, goes with the
        // function that loaded them).
        const entriesOf = async () => (await markdown.load(collections)).content.posts;
        const posts = await entriesOf();
        collectNow();
        const grown = process.memoryUsage().heapUsed - before;
        assert.is(posts!.filter((entry) => entry.slug.startsWith('entry-')).length, entries);
        assert.match(posts!.find((entry) => entry.slug === slug(4))!.html, /<h2 id="part-4">Part 4<\/h2>/);
        return { grown, markdown, posts };
      };
      const build = await grows(false);
      assert.ok(
        build.grown < (entries * size) / 4,
        `a build: the heap grew by ${(build.grown / 1048576).toFixed(1)} MB`,
      );
      const watch = await grows(true);
      assert.ok(
        watch.grown > entries * size * 0.8,
        `watch keeps the ${entries} MB of text: the heap grew by ${(watch.grown / 1048576).toFixed(1)} MB`,
      );
    } finally {
      copy.remove();
    }
  },
);

pool.run();
