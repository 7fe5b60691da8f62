// `site-gen watch`'s incremental build on a copy of the fixture project: each change reruns only what it reaches.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectPaths } from '../../src/core/paths.ts';
import { changedFiles, changeOf, DevBuilder, type RebuildOutcome } from '../../src/dev/builder.ts';
import { stagesForAll } from '../../src/dev/invalidate.ts';
import { ContentError } from '../../src/core/errors.ts';
import { copyFixture, type FixtureCopy } from '../helpers/fixture.ts';

interface Context {
  fixture: FixtureCopy;
  builder: DevBuilder;
}

/** Rebuilds after the files were changed, with the stages the watcher would ask for. */
async function saved(context: Context, ...files: string[]): Promise<RebuildOutcome> {
  const stages = stagesForAll(
    files.map((file) => ({ file: `${context.fixture.root}/${file}` })),
    context.builder.inputs(),
  );
  return context.builder.rebuild(stages);
}

function html(context: Context, file: string): string {
  return String(context.builder.output!.files.get(file));
}

function ok(outcome: RebuildOutcome): Extract<RebuildOutcome, { ok: true }> {
  if (!outcome.ok) throw new Error(`The rebuild failed: ${(outcome.error as Error).message}`);
  return outcome;
}

const builder = suite<Context>('DevBuilder');

builder.before(async (context) => {
  context.fixture = copyFixture();
  context.builder = new DevBuilder({
    paths: projectPaths(context.fixture.config),
    extraScripts: ['/__site-gen/reload.js'],
  });
});

builder.after(async (context) => {
  await context.builder.dispose();
  context.fixture.remove();
});

builder('the first build runs every stage and puts the reload client on every page', async (context) => {
  const first = ok(await context.builder.rebuild());
  assert.equal(first.stages, ['config', 'template', 'public', 'stylesheet', 'content', 'render', 'bundle']);
  assert.is(first.change, 'page');
  for (const page of ['index.html', 'contact/index.html', 'static/index.html', '404.html']) {
    assert.match(html(context, page), '<script type="module" src="/__site-gen/reload.js"></script>', page);
  }
  assert.not.ok(
    [...context.builder.output!.files.keys()].some((file) => /\.(br|gz)$/.test(file)),
    'nothing is precompressed in dev',
  );
});

builder(
  'renders a page when it is first read, and a rebuild renders again only the pages read before it',
  async (context) => {
    const outcome = ok(await saved(context, 'content/copy.ts'));
    assert.is(outcome.change, 'none', 'nothing changed');
    const made = [...context.builder.output!.files.made().keys()].filter((file) => file.endsWith('.html'));
    assert.equal(
      made.sort(),
      ['404.html', 'contact/index.html', 'index.html', 'static/index.html'],
      'the pages the first test read',
    );

    const fresh = new DevBuilder({ paths: projectPaths(context.fixture.config), extraScripts: [] });
    try {
      ok(await fresh.rebuild());
      const files = fresh.output!.files;
      assert.ok(files.has('contact/index.html'), 'every page is known');
      assert.not.ok(files.made().has('contact/index.html'), 'but none is rendered before it is read');
      assert.match(String(files.get('static/index.html')), 'No islands here');
      assert.equal(
        [...files.made().keys()].filter((file) => file.endsWith('.html')),
        ['static/index.html'],
      );
    } finally {
      await fresh.dispose();
    }
  },
);

builder(
  'a content edit re-renders the pages without re-bundling the islands, and only the pages that changed differ',
  async (context) => {
    const scripts = [...context.builder.output!.files].filter(([file]) => file.endsWith('.js'));
    context.fixture.edit('content/copy.ts', (text) =>
      text.replace("heading: 'Fixture home'", "heading: 'Edited home'"),
    );
    const outcome = ok(await saved(context, 'content/copy.ts'));
    assert.equal(outcome.stages, ['content', 'render']);
    assert.is(outcome.change, 'page');
    assert.equal(outcome.changed, ['index.html'], 'the heading is on the home page alone');
    assert.match(html(context, 'index.html'), 'Edited home');
    for (const [file, data] of scripts)
      assert.is(context.builder.output!.files.get(file), data, `${file} is the very same bundle`);
  },
);

builder(
  'a CSS edit recompiles the stylesheet and derives the critical CSS again, for a swap in place',
  async (context) => {
    const before = context.builder.output!.stylesheet;
    context.fixture.edit('src/site/styles/form.css', (text) => `${text}\n.form { padding: 3px; }\n`);
    const outcome = ok(await saved(context, 'src/site/styles/form.css'));
    assert.equal(outcome.stages, ['stylesheet']);
    assert.is(outcome.change, 'css');
    assert.ok(
      outcome.rebuilt.some((step) => step.startsWith('critical CSS')),
      'critical CSS derived again',
    );
    assert.is.not(context.builder.output!.stylesheet, before, 'a new stylesheet URL');
    assert.match(html(context, 'contact/index.html'), 'padding:3px', 'the contact form rule is in its critical CSS');
  },
);

builder('an island edit rebuilds the browser bundle as well as the pages', async (context) => {
  context.fixture.edit('src/site/islands/counter.tsx', (text) =>
    text.replace('className="counter"', 'className="counter counter-edited"'),
  );
  const outcome = ok(await saved(context, 'src/site/islands/counter.tsx'));
  assert.equal(outcome.stages, ['content', 'render', 'bundle']);
  assert.ok(
    outcome.changed.some((file) => file.endsWith('.js')),
    'a script changed',
  );
  assert.match(html(context, 'index.html'), 'counter-edited');
});

builder('saving a file without changing what it produces tells the pages nothing', async (context) => {
  context.fixture.edit('content/copy.ts', (text) => `${text}\n// a comment\n`);
  const outcome = ok(await saved(context, 'content/copy.ts'));
  assert.is(outcome.change, 'none');
  assert.equal(outcome.changed, []);
});

builder(
  'invalid content fails the rebuild, keeps the last good output, and the fix brings the pages back',
  async (context) => {
    const good = context.builder.output;
    context.fixture.edit('content/copy.ts', (text) => text.replace("heading: 'Edited home'", 'heading: 42'));
    const failed = await saved(context, 'content/copy.ts');
    assert.not.ok(failed.ok);
    assert.instance(!failed.ok && failed.error, ContentError);
    assert.match((context.builder.failure!.error as Error).message, 'content/copy.ts');
    assert.is(context.builder.output, good, 'the last good output is still served');

    context.fixture.edit('content/copy.ts', (text) => text.replace('heading: 42', "heading: 'Mended home'"));
    const mended = ok(await saved(context, 'content/copy.ts'));
    assert.is(mended.change, 'page', 'every page reloads after a failure');
    assert.is(context.builder.failure, undefined);
    assert.match(html(context, 'index.html'), 'Mended home');
  },
);

builder('a stage that failed is retried on the next rebuild, even one asked for no stage', async (context) => {
  context.fixture.edit('src/site/pages/static.tsx', (text) =>
    text.replace('export function Static', 'export function Static(('),
  );
  const failed = await saved(context, 'src/site/pages/static.tsx');
  assert.not.ok(failed.ok);
  assert.match((!failed.ok && (failed.error as Error).message) || '', 'static.tsx');
  // The fix may be a file the failed build never read: the watcher then asks for no stage at all.
  context.fixture.edit('src/site/pages/static.tsx', (text) =>
    text.replace('export function Static((', 'export function Static'),
  );
  const retried = ok(await context.builder.rebuild([]));
  assert.equal(retried.stages, ['content', 'render']);
});

builder('a config edit rebuilds everything that reads the config', async (context) => {
  context.fixture.edit('site.config.ts', (text) => text.replace(/name: '([^']*)'/, "name: 'Renamed Fixture'"));
  const outcome = ok(await saved(context, 'site.config.ts'));
  assert.equal(
    outcome.stages,
    ['config', 'stylesheet', 'content', 'render', 'bundle'],
    'the browserslist sets the CSS and script targets; markdown.images, how Markdown bodies show their pictures',
  );
  assert.match(html(context, 'index.html'), 'Renamed Fixture');
});

builder(
  'the sitemap is made when first read, lists the indexed pages, and a rebuild leaves it to the next read',
  async (context) => {
    const files = context.builder.output!.files;
    assert.ok(files.has('sitemap.xml'), 'the sitemap is known');
    const sitemap = String(files.get('sitemap.xml'));
    for (const path of ['/', '/contact', '/static']) assert.match(sitemap, `${path}</loc>`);
    assert.not.match(sitemap, '/404', 'a noindex page is left out');

    context.fixture.edit('content/copy.ts', (text) => `${text}\n// another comment\n`);
    const outcome = ok(await saved(context, 'content/copy.ts'));
    assert.is(outcome.change, 'none', 'a sitemap read before is no change');
    assert.not.ok(context.builder.output!.files.made().has('sitemap.xml'), 'not made again until read');
    assert.is(String(context.builder.output!.files.get('sitemap.xml')), sitemap);
  },
);

builder(
  'a page is served only when its links lead to a page, a file or an id on the page they name',
  async (context) => {
    const link = (href: string) =>
      context.fixture.edit('src/site/pages/static.tsx', (text) =>
        text.replace(/<a href=\{withBase\('[^']*'\)\}>/, `<a href={withBase('${href}')}>`),
      );
    html(context, 'static/index.html'); // open, so the rebuild renders it again

    link('/contact#nowhere');
    const broken = await saved(context, 'src/site/pages/static.tsx');
    assert.not.ok(broken.ok, 'a link to an id the page lacks fails');
    assert.match(
      (broken as { error: Error }).error.message,
      '/static: link "/contact#nowhere": /contact has no element with id "nowhere"',
    );

    link('/nowhere');
    const missing = await saved(context, 'src/site/pages/static.tsx');
    assert.match((missing as { error: Error }).error.message, 'no page or file is served at /nowhere');

    for (const href of ['/contact#form', '/404.html', '/contact/', '/favicon.svg', '/']) {
      link(href);
      ok(await saved(context, 'src/site/pages/static.tsx'));
      assert.match(html(context, 'static/index.html'), `href="${href}"`);
    }
  },
);

builder.run();

const change = suite('changeOf');

change('after the first build or a failure every page reloads', () => {
  assert.is(changeOf([], ['stylesheet'], true), 'page');
});

change('no changed file means nothing to do', () => {
  assert.is(changeOf([], ['content', 'render'], false), 'none');
});

change('only the CSS stage ran: swap the stylesheet; anything else: reload', () => {
  assert.is(changeOf(['assets/site-1.css', 'index.html'], ['stylesheet'], false), 'css');
  assert.is(changeOf(['index.html'], ['content', 'render'], false), 'page');
  assert.is(changeOf(['index.html'], ['stylesheet', 'template'], false), 'page');
});

change('changedFiles lists added, removed and altered files, comparing bytes', () => {
  const before = new Map<string, string | Uint8Array>([
    ['a.html', 'A'],
    ['b.js', new Uint8Array([1, 2])],
    ['gone.txt', 'x'],
  ]);
  const after = new Map<string, string | Uint8Array>([
    ['a.html', 'A'],
    ['b.js', new Uint8Array([1, 2])],
    ['new.css', 'y'],
  ]);
  assert.equal(changedFiles(before, after), ['gone.txt', 'new.css']);
  after.set('b.js', new Uint8Array([1, 3]));
  after.set('a.html', 'A2');
  assert.equal(changedFiles(before, after), ['a.html', 'b.js', 'gone.txt', 'new.css']);
});

change.run();
