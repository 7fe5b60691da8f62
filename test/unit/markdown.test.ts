import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { join, resolve } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { highlighterFor } from '../../src/content/highlight.ts';
import { widthsFor } from '../../src/images/plan.ts';
import { DevBuilder } from '../../src/dev/builder.ts';
import { stagesFor, stagesForAll } from '../../src/dev/invalidate.ts';
import { BrokenLinkError, ContentError, RenderError } from '../../src/core/errors.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { copyFixture, failure, outputText as text, tempOut } from '../helpers/fixture.ts';

const fixture = resolve('test/fixtures/markdown');
const config = join(fixture, 'site.config.ts');
const imageCache = join(projectPaths(config).cache, 'images');
type Files = Map<string, Uint8Array | string>;
const body = (html: string) => html.slice(html.indexOf('<body>'));

const built = suite('Markdown collections: the build');
let files: Files;
let first: Awaited<ReturnType<typeof buildSite>>;
/** The first build's progress of its image step (see BuildProgress). */
const imageProgress: Array<[number, number]> = [];
built.before(async () => {
  // Without the encoded files of earlier runs, so that this build encodes and the next finds them all.
  rmSync(imageCache, { recursive: true, force: true });
  first = await buildSite({
    config,
    out: tempOut(),
    write: false,
    onProgress: ({ step, done, total }) => step === 'images' && imageProgress.push([done, total]),
  });
  files = first.files;
});

built('makes one page per entry and an index sorted and filtered from the typed data', () => {
  for (const slug of ['first-note', 'second-note', 'draft-note'])
    assert.ok(files.has(`notes/${slug}/index.html`), slug);
  const index = body(text(files, 'notes/index.html'));
  assert.ok(index.indexOf('Second note') < index.indexOf('First note'), 'newest first');
  assert.not.match(index, /Draft note/, 'drafts are filtered out of the index');
});

built('renders GFM: tables, task lists, footnotes, autolinks; headings get stable, unique ids', () => {
  const html = body(text(files, 'notes/first-note/index.html'));
  assert.match(html, /<table>/);
  assert.match(html, /<input type="checkbox"[^>]*checked/);
  assert.match(html, /<li id="fn1" class="footnote-item">/);
  assert.match(html, /<a href="https:\/\/example.com">https:\/\/example.com<\/a>/);
  assert.match(html, /<h2 id="a-table">A table<\/h2>/);
  assert.match(html, /<h2 id="a-table-1">A table<\/h2>/, 'a repeated heading gets a suffix');
  assert.match(html, /<a href="#a-table-1">A table<\/a>/, 'entry.headings lists the ids');
});

built('highlights fenced code with classes only, and the stylesheet colours them in light and dark', async () => {
  const html = body(text(files, 'notes/second-note/index.html'));
  assert.match(
    html,
    /<pre class="code" data-lang="ts"><code><span class="line"><span class="tk-keyword">const<\/span>/,
  );
  assert.match(html, /<pre class="code" data-lang="text"><code>plain text<\/code><\/pre>/);
  for (const [file, data] of files)
    if (file.endsWith('.html')) assert.not.match(String(data), / style=/, `${file} has no style attribute`);
  const css = [...files].find(([file]) => /^assets\/site-.*\.css$/.test(file))![1].toString();
  assert.match(css, /--code-token-keyword:#cf222e/);
  assert.match(css, /prefers-color-scheme:dark/);
  assert.match(css, /--code-token-keyword:#f97583/);
  // Every class the highlighter writes, in several languages, has a rule in code.css.
  const codeCss = readFileSync('src/content/code.css', 'utf8');
  const highlighter = await highlighterFor(['ts', 'css', 'html', 'bash', 'json', 'python']);
  const sample = [
    ['ts', 'export const f = (a: number): string => `${a}`; // c'],
    ['css', 'a:hover { color: red; } /* c */'],
    ['html', '<a href="x" class="y">z</a><!-- c -->'],
    ['bash', 'echo "hi $USER" | grep -v x # c'],
    ['json', '{ "a": [1, true, null] }'],
    ['python', 'def f(x):\n    return x * 2  # c'],
  ];
  for (const [lang, code] of sample)
    for (const [, classes] of highlighter.highlight(code!, lang!).matchAll(/<span class="([^"]+)">/g))
      for (const name of classes!.split(' ').filter((c) => c !== 'line'))
        assert.ok(codeCss.includes(`.${name} {`), `code.css styles .${name} (${lang})`);
});

built("code.css's colours read at 4.5:1 or more against the code's background, light and dark (WCAG AA)", () => {
  const css = readFileSync('src/content/code.css', 'utf8');
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const value = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (high! + 0.05) / (low! + 0.05);
  };
  const schemes = [css.slice(0, css.indexOf('@media')), css.slice(css.indexOf('@media'), css.indexOf('pre.code'))];
  for (const [index, block] of schemes.entries()) {
    const colours = new Map([...block.matchAll(/--code-([a-z-]+): (#[0-9a-f]{6});/g)].map((m) => [m[1]!, m[2]!]));
    const background = colours.get('background')!;
    assert.ok(background && colours.size > 5, `${index ? 'dark' : 'light'}: the palette is read`);
    for (const [name, colour] of colours)
      if (name !== 'background')
        assert.ok(
          contrast(colour, background) >= 4.5,
          `${index ? 'dark' : 'light'} --code-${name} ${colour} on ${background}: ${contrast(colour, background).toFixed(2)}:1`,
        );
  }
});

built(
  'makes <Image> and Markdown pictures AVIF, WebP and the source format at several widths, with their sizes',
  () => {
    const home = body(text(files, 'index.html'));
    const pictures = [...home.matchAll(/<picture>(.*?)<\/picture>/g)].map((m) => m[1]!);
    assert.is(pictures.length, 3);
    const [team, harbour, small] = pictures as [string, string, string];
    assert.match(
      team,
      /<source type="image\/avif" srcSet="\/assets\/img\/team-[0-9a-f]{10}-480q50\.avif 480w, \/assets\/img\/team-[0-9a-f]{10}-600q50\.avif 600w"/,
    );
    assert.match(team, /<source type="image\/webp" srcSet="[^"]*600q75\.webp 600w"/);
    assert.match(
      team,
      /<img src="\/assets\/img\/team-[0-9a-f]{10}-480q100\.png" srcSet="[^"]*\.png 480w, [^"]*\.png 600w"/,
      'PNG stays PNG',
    );
    assert.match(team, /sizes="\(min-width: 300px\) 300px, 100vw" width="300" height="188"/);
    assert.match(harbour, /\.jpg 800w/, 'JPEG falls back to JPEG; widths stop at the source (800)');
    assert.match(harbour, /width="400" height="250"/);
    // First-screen pictures load at once; the largest of them alone gets fetchpriority="high".
    assert.match(harbour, /loading="eager" fetchpriority="high"/);
    assert.match(team, /loading="eager"\/>/);
    assert.not.match(team, /fetchpriority/);
    assert.match(small, /loading="lazy" decoding="async"/);
    for (const [, url] of home.matchAll(/(\/assets\/img\/[^ "]+)/g))
      assert.ok(files.has(url!.slice(1)), `${url} is in the output`);
    assert.ok(
      [...files.keys()].includes('.site-gen/hashed-files.json') &&
        text(files, '.site-gen/hashed-files.json').includes('assets/img/team-'),
      'image files are listed as hashed (cached for a year)',
    );
    const firstNote = body(text(files, 'notes/first-note/index.html'));
    assert.match(
      firstNote,
      /alt="A harbour at dusk" loading="eager" fetchpriority="high"><\/picture>/,
      "an entry's opening picture is first-screen",
    );
    const second = body(text(files, 'notes/second-note/index.html'));
    assert.match(
      second,
      /width="800" height="500" alt="The harbour again, lower down" loading="lazy" decoding="async">/,
    );
  },
);

built(
  'widths: the breakpoints below the largest (twice the shown width, capped by the file), none within 15% of it',
  () => {
    const source = (width: number) => ({ width }) as Parameters<typeof widthsFor>[0];
    assert.equal(widthsFor(source(1280), 640), [480, 800, 1280], '1,200 is within 15% of 1,280');
    assert.equal(widthsFor(source(4000), 1200), [480, 800, 1200, 1600, 2400]);
    assert.equal(widthsFor(source(800), 400), [480, 800]);
    assert.equal(widthsFor(source(300), 300), [300], 'a small file: its own width alone');
  },
);

built("site.config.ts's markdown.images: the column Markdown pictures are shown in, and their sizes", async () => {
  const copy = copyFixture(fixture);
  try {
    const configure = (images: string) =>
      copy.edit('site.config.ts', (t) =>
        t.replace(
          /export default defineConfig\(\{(\n  markdown: .*,)?/,
          `export default defineConfig({\n  markdown: { images: ${images} },`,
        ),
      );
    configure('{ width: 640 }');
    let made = (await buildSite({ config: copy.config, out: tempOut(), write: false })).files;
    let second = body(text(made, 'notes/second-note/index.html'));
    // harbour.jpg is 800 px wide: shown at 640, made at 480 and 800 (640 at 2x, capped by the file).
    assert.match(second, /sizes="\(min-width: 640px\) 640px, 100vw" width="640" height="400" alt="The harbour again/);
    assert.match(second, /srcset="[^"]*480q80\.jpg 480w, [^"]*800q80\.jpg 800w"/);
    // A column wider than the file: the picture keeps its own width, never scaled up.
    configure("{ width: 1000, sizes: '(min-width: 1000px) 1000px, 90vw' }");
    made = (await buildSite({ config: copy.config, out: tempOut(), write: false })).files;
    second = body(text(made, 'notes/second-note/index.html'));
    assert.match(second, /sizes="\(min-width: 1000px\) 1000px, 90vw" width="800" height="500"/);
    configure('{ width: 0 }');
    const error = await failure(() => buildSite({ config: copy.config, out: tempOut(), write: false }));
    assert.match(error.message, /markdown\.images\.width/);
  } finally {
    copy.remove();
  }
});

built('encodes each image file once, showing its progress: a second build does no image work', async () => {
  assert.ok(first.images.encoded > 0, 'the first build encoded the images');
  assert.is(first.images.encoded, [...files.keys()].filter((f) => f.startsWith('assets/img/')).length);
  const count = first.images.encoded;
  assert.equal(
    imageProgress,
    Array.from({ length: count + 1 }, (_, done) => [done, count]),
    'the image step counts from 0 to every file it encodes',
  );
  const steps = new Set<string>();
  const again = await buildSite({ config, out: tempOut(), write: false, onProgress: ({ step }) => steps.add(step) });
  assert.equal(again.images, { encoded: 0, kept: first.images.encoded });
  // Every page read back from the cache: a render whose pictures came from the entries is kept like any other.
  assert.equal(again.rendered, { kept: first.pages.length, made: 0 }, 'no page rendered again');
  assert.not.ok(steps.has('images'), 'no image step when every file is in the cache');
  assert.ok(steps.has('render'));
});

built('an image file added or replaced renders again only the pages that show it', async () => {
  const copy = copyFixture(fixture);
  try {
    const build = () => buildSite({ config: copy.config, out: tempOut(), write: false });
    const pages = (await build()).pages.length;
    assert.equal((await build()).rendered, { kept: pages, made: 0 });
    // A file no page shows: every page is kept (every page was rendered again when any image file changed).
    const png = (width: number) =>
      sharp({ create: { width, height: 200, channels: 3, background: { r: 200, g: 40, b: 40 } } })
        .png()
        .toBuffer();
    writeFileSync(join(copy.root, 'content/posts/unused.png'), await png(320));
    assert.equal((await build()).rendered, { kept: pages, made: 0 }, 'an image no page shows renders nothing again');
    // team.png is shown by <Image> on the home page alone: that page is rendered again, showing the new file.
    writeFileSync(join(copy.root, 'src/site/images/team.png'), await png(360));
    const replaced = await build();
    assert.equal(replaced.rendered, { kept: pages - 1, made: 1 }, 'only the page showing it');
    assert.match(body(text(replaced.files, 'index.html')), /width="300" height="167" alt="The team"/);
    // harbour.jpg: shown by <Image> on the home page and in both notes' Markdown (read through their entries).
    writeFileSync(
      join(copy.root, 'content/posts/harbour.jpg'),
      await sharp(await png(640))
        .jpeg()
        .toBuffer(),
    );
    const harbour = await build();
    assert.equal(harbour.rendered, { kept: pages - 3, made: 3 }, 'the home page and the two notes');
    assert.match(body(text(harbour.files, 'notes/second-note/index.html')), /width="640" height="200"/);
  } finally {
    copy.remove();
  }
});

built.run();

const errors = suite('Markdown collections: what fails the build');

async function failingBuild(change: (copy: ReturnType<typeof copyFixture>) => void): Promise<Error> {
  const copy = copyFixture(fixture);
  try {
    change(copy);
    const error = await failure(() => buildSite({ config: copy.config, out: tempOut(), write: false }));
    if (process.env.SHOW_ERRORS) console.log(error.message);
    return error;
  } finally {
    copy.remove();
  }
}

errors('frontmatter that is not YAML names the file and line', async () => {
  const error = await failingBuild((c) =>
    c.edit('content/posts/first-note.md', (t) => t.replace('tags: [intro]', 'tags: [intro\nnext: 1')),
  );
  assert.instance(error, ContentError);
  assert.match(error.message, /content\/posts\/first-note\.md:6: the frontmatter is not valid YAML/);
});

errors('a schema failure names the file, the line and the field, and what was expected', async () => {
  const error = await failingBuild((c) =>
    c.edit('content/posts/second-note.md', (t) => t.replace('tags: [code]', 'tags: code')),
  );
  assert.instance(error, ContentError);
  assert.match(error.message, /content\/posts\/second-note\.md:5: tags: expected array, received string/);
});

errors("every entry's problems are listed in one run", async () => {
  const error = await failingBuild((c) => {
    c.edit('content/posts/first-note.md', (t) => t.replace('title: First note', 'title: ""\nauthor: me'));
    c.edit('content/posts/second-note.md', (t) => t.replace('date: 2026-02-20', 'date: soon'));
    c.edit('content/posts/draft-note.md', (t) => `${t}\n![](./harbour.jpg)\n`);
  });
  assert.match(error.message, /^4 problems in the Markdown content/);
  assert.match(error.message, /content\/posts\/first-note\.md:3: title: /);
  assert.match(error.message, /content\/posts\/first-note\.md:4: has unknown field "author"/);
  assert.match(error.message, /content\/posts\/second-note\.md:4: date: /);
  assert.match(error.message, /content\/posts\/draft-note\.md:\d+: the image "\.\/harbour\.jpg" has no alt text/);
});

errors('a broken link or #anchor in Markdown names the .md file', async () => {
  const page = await failingBuild((c) =>
    c.edit('content/posts/first-note.md', (t) => t.replace('/notes/second-note#code-sample', '/notes/third-note')),
  );
  assert.instance(page, BrokenLinkError);
  assert.match(
    page.message,
    /\/notes\/first-note: link "\/notes\/third-note" in content\/posts\/first-note\.md: no page or file is served at \/notes\/third-note/,
  );
  const anchor = await failingBuild((c) =>
    c.edit('content/posts/first-note.md', (t) => t.replace('#code-sample', '#no-such-heading')),
  );
  assert.instance(anchor, BrokenLinkError);
  assert.match(
    anchor.message,
    /in content\/posts\/first-note\.md: \/notes\/second-note has no element with id "no-such-heading"/,
  );
});

errors(
  'raw HTML with a script, an on…= handler or a style= attribute, and a javascript: link, name file and line',
  async () => {
    const error = await failingBuild((c) =>
      c.edit('content/posts/second-note.md', (t) =>
        t.replace(
          'Below the first screen.',
          'Below the first screen.\n\n<script>alert(1)</script>\n\n<div>\n<p onclick="go()">x</p>\n</div>\n\nSome <span style="color:red">red</span> text.\n\nA [link that runs](javascript:alert(1)) script.',
        ),
      ),
    );
    assert.instance(error, ContentError);
    assert.match(error.message, /^4 problems/);
    assert.match(error.message, /second-note\.md:18: the link to "javascript:alert\(1\)" runs script/);
    assert.match(error.message, /content\/posts\/second-note\.md:10: <script> runs script/);
    assert.match(error.message, /content\/posts\/second-note\.md:13: <p> has an onclick= handler/);
    assert.match(error.message, /content\/posts\/second-note\.md:16: <span> has a style= attribute/);
  },
);

errors('a missing or unreadable image names the file; so does <Image> without a file or alt', async () => {
  const missing = await failingBuild((c) =>
    c.edit('content/posts/second-note.md', (t) => t.replace('./harbour.jpg', './lighthouse.jpg')),
  );
  assert.match(
    missing.message,
    /content\/posts\/second-note\.md:20: image "\.\/lighthouse\.jpg": the image file does not exist/,
  );
  const unreadable = await failingBuild((c) => c.write('content/posts/harbour.jpg', 'not a JPEG at all'));
  assert.match(
    unreadable.message,
    /content\/posts\/first-note\.md:8: image "\.\/harbour\.jpg": the file is not a readable image \(no image format\)\. Replace it/,
  );
  assert.not.match(unreadable.message, /undefined/, "no library's placeholder in the message");
  // Its header reads well, its pixels do not: it fails as it is encoded, after the pages rendered, naming them.
  const truncated = await failingBuild((c) => {
    const file = join(c.root, 'content/posts/harbour.jpg');
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 3)));
  });
  assert.instance(truncated, ContentError);
  assert.match(
    truncated.message,
    /^content\/posts\/harbour\.jpg: sharp could not read the image \(.+\)\. Replace it with an intact JPEG, PNG, WebP or AVIF file\. It is shown on \/ and 2 more pages\.$/,
  );
  const component = await failingBuild((c) =>
    c.edit('src/site/pages/home.tsx', (t) => t.replace('team.png', 'crew.png')),
  );
  assert.instance(component, RenderError);
  assert.match(
    component.message,
    /Could not render \/: <Image src="src\/site\/images\/crew\.png">: the image file does not exist\. Check the path \(relative to the project folder\)/,
  );
  const alt = await failingBuild((c) =>
    c.edit('src/site/pages/home.tsx', (t) => t.replace('alt="The team" ', '{...({} as { alt: string })} ')),
  );
  assert.match(alt.message, /<Image src="src\/site\/images\/team\.png"> has no alt/);
});

errors.run();

const watch = suite('Markdown collections in watch');

watch('a Markdown file in content/ reruns the content stage (a new or deleted entry too)', () => {
  const root = '/site';
  const index = {
    config: `${root}/site.config.ts`,
    template: `${root}/templates/document.html`,
    publicDir: `${root}/public`,
    contentDir: `${root}/content`,
    islandsDir: `${root}/src/site/islands`,
    behavioursDir: `${root}/src/site/behaviours`,
    site: new Set<string>(),
    css: new Set<string>(),
    client: new Set<string>(),
  };
  assert.equal([...stagesFor(`${root}/content/posts/new.md`, index)], ['content']);
});

watch('adding, editing and deleting an entry and replacing an image, without a restart', async () => {
  const copy = copyFixture(fixture);
  const builder = new DevBuilder({ paths: projectPaths(copy.config), extraScripts: [] });
  // What `site-gen watch` does on a save: the stages the changed files reach, from what the last run read.
  const saved = async (...files: string[]) => {
    const outcome = await builder.rebuild(
      stagesForAll(
        files.map((file) => ({ file: join(copy.root, file) })),
        builder.inputs(),
      ),
    );
    if (!outcome.ok) throw outcome.error;
    return outcome;
  };
  const page = (file: string) => String(builder.output!.files.get(file));
  const has = (file: string) => builder.output!.files.has(file);
  try {
    const first = await builder.rebuild();
    if (!first.ok) throw first.error;
    assert.match(page('notes/second-note/index.html'), /Second note/);
    writeFileSync(
      join(copy.root, 'content/posts/third-note.md'),
      '---\ntitle: Third note\ndate: 2026-04-01\n---\n\nNew.\n',
    );
    await saved('content/posts/third-note.md');
    assert.match(page('notes/third-note/index.html'), /Third note/);
    assert.match(page('notes/index.html'), /Third note/, 'the index lists the new entry');
    copy.edit('content/posts/third-note.md', (t) => t.replace('New.', 'Edited.'));
    const edited = await saved('content/posts/third-note.md');
    assert.match(page('notes/third-note/index.html'), /Edited\./);
    console.log(`    (an edited entry: rebuilt in ${edited.ms} ms, the page rendered on request after it)`);
    rmSync(join(copy.root, 'content/posts/third-note.md'));
    await saved('content/posts/third-note.md');
    assert.not.ok(has('notes/third-note/index.html'), 'the deleted entry has no page');
    assert.not.match(page('notes/index.html'), /Third note/);
    // A column for Markdown pictures set in the config: the bodies with pictures show them for it at once.
    assert.match(page('notes/second-note/index.html'), /width="800" height="500" alt="The harbour again/);
    copy.edit('site.config.ts', (t) =>
      t.replace(
        'export default defineConfig({',
        'export default defineConfig({\n  markdown: { images: { width: 640 } },',
      ),
    );
    await saved('site.config.ts');
    assert.match(page('notes/second-note/index.html'), /width="640" height="400" alt="The harbour again/);
    // Replacing an image: its pages name new files, and only those are encoded (the others keep their names).
    // The copy is a site of its own: its encoded images live in its own cache folder.
    const copyCache = join(projectPaths(copy.config).cache, 'images');
    const encoded = () => new Set(existsSync(copyCache) ? readdirSync(copyCache) : []);
    const namesOn = (html: string) => new Set([...html.matchAll(/\/assets\/img\/([^ "]+)/g)].map((m) => m[1]!));
    const before = namesOn(page('index.html'));
    await waitFor(() => [...before].every((name) => has(`assets/img/${name}`)));
    const cached = encoded();
    writeFileSync(
      join(copy.root, 'src/site/images/team.png'),
      await sharp(join(fixture, 'src/site/images/team.png')).flop().png().toBuffer(),
    );
    await saved('src/site/images/team.png');
    const after = namesOn(page('index.html'));
    const made = [...after].filter((name) => !before.has(name));
    assert.ok(made.length > 0 && made.every((name) => name.startsWith('team-')), 'only the team photo has new files');
    await waitFor(() => made.every((name) => has(`assets/img/${name}`)));
    const prefix = (name: string) => name.split('-').slice(0, 2).join('-');
    const ours = new Set([...before, ...after].map(prefix));
    const added = [...encoded()].filter((name) => !cached.has(name) && ours.has(prefix(name)));
    assert.equal(added.sort(), made.sort(), 'the new files, and no others, were encoded');
  } finally {
    await builder.dispose();
    copy.remove();
  }
});

/** Waits until `ready()`: pictures of pages made on request are encoded in the background. */
async function waitFor(ready: () => boolean): Promise<void> {
  for (let tries = 0; tries < 600 && !ready(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.ok(ready(), 'done within 30 s');
}

watch.run();
