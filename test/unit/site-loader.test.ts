// Loading the site's code with its content files compiled apart: each compiled once while it stays the same, one
// module shared by the entry and the routes, the site's hash following every change, errors naming the file at fault.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BundleError, ContentError } from '../../src/core/errors.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { DevBuilder } from '../../src/dev/builder.ts';
import { stagesForAll } from '../../src/dev/invalidate.ts';
import { ParsedContent, SiteLoader, validateContent, type LoadedSite } from '../../src/pipeline/site-module.ts';
import { ContentModules, jsonBody } from '../../src/pipeline/content-modules.ts';
import { copyFixture, type FixtureCopy } from '../helpers/fixture.ts';

interface Context {
  fixture: FixtureCopy;
  loader: SiteLoader;
}

/** How many times content/items.ts was evaluated in this process (the fixture copy's file counts itself). */
const evaluations = () => (globalThis as { __itemsEvaluated?: number }).__itemsEvaluated ?? 0;

/**
 * The basic fixture, with content/items.ts counting its evaluations and the routes importing it themselves for a page
 * of their own (as a site does that makes one page per item).
 */
function fixtureWithImportedContent(): FixtureCopy {
  const fixture = copyFixture();
  fixture.edit(
    'content/items.ts',
    (text) =>
      `(globalThis as { __itemsEvaluated?: number }).__itemsEvaluated = ((globalThis as { __itemsEvaluated?: number }).__itemsEvaluated ?? 0) + 1;\n${text}`,
  );
  fixture.edit(
    'src/site/routes.tsx',
    (text) =>
      `import items from '../../content/items.ts';\n${text.replace(
        "  { path: '/static'",
        "  { path: '/items', page: () => <main id=\"main\"><h1>{items.map((item) => item.title).join(', ')}</h1></main>, head: () => ({ title: 'Items' }) },\n  { path: '/static'",
      )}`,
  );
  return fixture;
}

const loading = suite<Context>('SiteLoader');

loading.before.each((context) => {
  context.fixture = fixtureWithImportedContent();
  context.loader = new SiteLoader(projectPaths(context.fixture.config), { keepContext: true });
});

loading.after.each(async (context) => {
  await context.loader.dispose();
  context.fixture.remove();
});

loading('compiles each content file once, and again only the file that changed', async (context) => {
  const first = await context.loader.load();
  assert.is(context.loader.contentCompiles, 2, 'content/copy.ts and content/items.ts, each compiled once');
  const again = await context.loader.load();
  assert.is(context.loader.contentCompiles, 2, 'nothing changed: nothing compiled again');
  assert.is(again.contentModules['items.ts'], first.contentModules['items.ts'], 'the very same module');

  context.fixture.edit('content/copy.ts', (text) => text.replace("heading: 'Fixture home'", "heading: 'Edited'"));
  const edited = await context.loader.load();
  assert.is(context.loader.contentCompiles, 3, 'content/copy.ts alone compiled again');
  assert.is(edited.contentModules['items.ts'], first.contentModules['items.ts'], 'content/items.ts kept as it was');
  assert.is((edited.contentModules['copy.ts']!.default as { heading: string }).heading, 'Edited');
});

loading('a content edit loads the site code bundled before; a code edit bundles it again', async (context) => {
  // Files written a while before the session (a fresh copy's are not: their first bundle is not known to match them).
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const entry of readdirSync(context.fixture.root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), hourAgo, hourAgo);
  await context.loader.load();
  assert.is(context.loader.codeBundles, 1);
  context.fixture.edit('content/items.ts', (text) => text.replace("title: 'Alpha'", "title: 'Alpha 2'"));
  const edited = await context.loader.load();
  assert.is(context.loader.codeBundles, 1, 'no code changed: not bundled again');
  const routes = edited.routes as unknown as Array<{ path: string; page: () => { props: { children: unknown } } }>;
  assert.match(JSON.stringify(routes.find((route) => route.path === '/items')!.page()), 'Alpha 2, Beta');

  context.fixture.edit('src/site/pages/static.tsx', (text) => text.replace('No islands here', 'Still none'));
  const coded = await context.loader.load();
  assert.is(context.loader.codeBundles, 2, 'a code edit bundles the code again');
  const statics = coded.routes as unknown as Array<{ path: string; page: () => unknown }>;
  assert.ok(statics.some((route) => route.path === '/static'));
});

loading(
  'the entry and the routes share one instance of a content module, evaluated once across loads',
  async (context) => {
    const before = evaluations();
    const site = await context.loader.load();
    assert.is(evaluations(), before + 1, 'imported by the entry and by routes.tsx, evaluated once');
    const items = site.contentModules['items.ts']!.default as Array<{ title: string }>;
    const routes = site.routes as unknown as Array<{
      path: string;
      page: () => { props: { children: { props: object } } };
    }>;
    const page = routes.find((route) => route.path === '/items')!.page();
    assert.equal(page.props.children.props, { children: items.map((item) => item.title).join(', ') });

    context.fixture.edit('src/site/pages/static.tsx', (text) => text.replace('No islands here', 'Still none'));
    await context.loader.load();
    assert.is(
      evaluations(),
      before + 1,
      'the site code loaded again, the unchanged content module not evaluated again',
    );
    context.fixture.edit('content/items.ts', (text) => text.replace("title: 'Alpha'", "title: 'Alpha 2'"));
    await context.loader.load();
    assert.is(evaluations(), before + 2, 'an edit of the file evaluates its new module');
  },
);

loading('the site hash changes with any content or code change, and only then', async (context) => {
  const hashes: string[] = [];
  const load = async () => hashes.push((await context.loader.load()).hash);
  await load();
  await load();
  assert.is(hashes[1], hashes[0], 'nothing changed, the same hash');
  context.fixture.edit('content/items.ts', (text) => text.replace("title: 'Beta'", "title: 'Beta 2'"));
  await load();
  assert.is.not(hashes[2], hashes[1], 'a content edit changes it');
  context.fixture.edit('src/site/pages/static.tsx', (text) => text.replace('No islands here', 'Still none'));
  await load();
  assert.is.not(hashes[3], hashes[2], 'a code edit changes it');

  const fresh = new SiteLoader(projectPaths(context.fixture.config));
  try {
    assert.is(
      (await fresh.load()).hash,
      hashes[3],
      'another loader (a later build) finds the same hash for the same files',
    );
  } finally {
    await fresh.dispose();
  }
});

loading('its inputs list every content file, which the code bundle no longer reads', async (context) => {
  const site = await context.loader.load();
  for (const file of ['content/copy.ts', 'content/items.ts', 'content/schema.ts', 'src/site/routes.tsx'])
    assert.ok(site.inputs.includes(join(context.fixture.root, file)), `${file} is an input`);
});

loading('a content file that fails to compile is a ContentError naming file, line and column', async (context) => {
  context.fixture.edit('content/items.ts', (text) => text.replace("title: 'Beta',", "title: 'Beta',,"));
  const error = await context.loader.load().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  assert.instance(error, ContentError);
  assert.match((error as Error).message, /content\/items\.ts:\d+:\d+: /, 'names the file, line and column');
});

loading('a code file that fails to compile is a BundleError naming the file', async (context) => {
  await context.loader.load();
  context.fixture.edit('src/site/pages/static.tsx', (text) => text.replace('<main id="main">', '<main id="main">{'));
  const error = await context.loader.load().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  assert.instance(error, BundleError);
  assert.match((error as Error).message, /src\/site\/pages\/static\.tsx:\d+:\d+: /);
});

loading(
  'a content file that is `export default` and JSON is read by JSON.parse; one that only starts so is compiled',
  async (context) => {
    const items = [
      { id: 'alpha', title: 'Alpha', bullets: ['one', 'two', 'three'] },
      { id: 'beta', title: 'Beta "quoted" \\ \u2028', bullets: [] },
    ];
    const cache = projectPaths(context.fixture.config).cache;
    const moduleText = () =>
      readdirSync(cache)
        .filter((name) => name.startsWith('content-items-'))
        .map((name) => readFileSync(join(cache, name), 'utf8'));

    context.fixture.write(
      'content/items.ts',
      `// Made by a script.\nexport default ${JSON.stringify(items, null, 2)};\n`,
    );
    const read = await context.loader.load();
    assert.equal(read.contentModules['items.ts']!.default, items);
    assert.equal(
      moduleText().map((text) => text.includes('export default JSON.parse(takeJsonBody(')),
      [true],
      'the module is the JSON, parsed',
    );
    assert.not.match(moduleText()[0]!, 'Alpha', 'its text handed over as the module loads, not held in its code');

    context.fixture.write('content/items.ts', `export default ${JSON.stringify(items)} satisfies unknown[];\n`);
    const compiled = await context.loader.load();
    assert.equal(compiled.contentModules['items.ts']!.default, items, 'the same data, compiled by esbuild');
    assert.equal(
      moduleText().map((text) => text.includes('JSON.parse(takeJsonBody(')),
      [false],
      "esbuild's module, and no other left",
    );
    assert.is(context.loader.contentCompiles, 3, 'copy.ts once, items.ts once each way');
  },
);

loading('dispose removes the content modules it wrote to the cache folder', async (context) => {
  await context.loader.load();
  const cache = projectPaths(context.fixture.config).cache;
  const written = () => readdirSync(cache).filter((name) => name.startsWith('content-'));
  assert.is(written().length, 2, 'one file per content module while loaded');
  await context.loader.dispose();
  assert.equal(written(), [], 'none left');
  assert.ok(existsSync(cache));
});

loading.run();

const parsing = suite<Context & { parsed: ParsedContent }>('validateContent with ParsedContent');

parsing.before.each((context) => {
  context.fixture = fixtureWithImportedContent();
  context.loader = new SiteLoader(projectPaths(context.fixture.config), { keepContext: true });
  context.parsed = new ParsedContent();
});

parsing.after.each(async (context) => {
  await context.loader.dispose();
  context.fixture.remove();
});

parsing('parses again only the content files whose module or schema changed', async (context) => {
  const paths = projectPaths(context.fixture.config);
  const validate = (site: LoadedSite) => validateContent(paths, site, context.parsed);
  const first = validate(await context.loader.load());
  assert.is(context.parsed.parses, 2);
  const again = validate(await context.loader.load());
  assert.is(context.parsed.parses, 2, 'nothing changed: nothing parsed');
  assert.is(again.items, first.items, 'the data parsed before');

  context.fixture.edit('content/copy.ts', (text) => text.replace("heading: 'Fixture home'", "heading: 'Edited'"));
  const edited = validate(await context.loader.load());
  assert.is(context.parsed.parses, 3, 'content/copy.ts alone parsed again');
  assert.is((edited.copy as { heading: string }).heading, 'Edited');

  context.fixture.edit('content/schema.ts', (text) => text.replace('z.array(item).min(1)', 'z.array(item).min(2)'));
  validate(await context.loader.load());
  assert.is(context.parsed.parses, 5, 'a schema edit parses every file again');

  context.fixture.edit('content/schema.ts', (text) => text.replace('z.array(item).min(2)', 'z.array(item).min(3)'));
  const site = await context.loader.load();
  assert.throws(
    () => validate(site),
    (error: unknown) => error instanceof ContentError && /items/.test(error.message),
    'the new schema is the one applied: two items are too few now',
  );
});

parsing.run();

const watching = suite<{ fixture: FixtureCopy; builder: DevBuilder }>('watch with content modules');

watching.before((context) => {
  context.fixture = fixtureWithImportedContent();
  context.builder = new DevBuilder({ paths: projectPaths(context.fixture.config), extraScripts: [] });
});

watching.after(async (context) => {
  await context.builder.dispose();
  context.fixture.remove();
});

watching('an edit of a content file the routes import is followed and shows on the page', async (context) => {
  const first = await context.builder.rebuild();
  assert.ok(first.ok);
  assert.match(String(context.builder.output!.files.get('items/index.html')), 'Alpha, Beta');
  context.fixture.edit('content/items.ts', (text) => text.replace("title: 'Alpha'", "title: 'Gamma'"));
  const stages = stagesForAll([{ file: join(context.fixture.root, 'content/items.ts') }], context.builder.inputs());
  assert.equal([...stages], ['content'], 'the watcher maps the file to the site code');
  const outcome = await context.builder.rebuild(stages);
  assert.ok(outcome.ok, 'the rebuild succeeds');
  assert.is(outcome.ok && outcome.change, 'page');
  assert.match(String(context.builder.output!.files.get('items/index.html')), 'Gamma, Beta');
});

watching.run();

const json = suite('jsonBody');

json('takes comments, `export default`, a JSON array or object and a `;`, and nothing else', () => {
  assert.is(
    jsonBody('// Made by a script.\n/* 2 items */\nexport default [\n  {"id": "a", "n": -1.5e3, "ok": true}\n];\n'),
    '[\n  {"id": "a", "n": -1.5e3, "ok": true}\n]',
  );
  assert.is(jsonBody('export default {}'), '{}');
  for (const text of [
    "export default [{ id: 'a' }];",
    'export default [\n  {\n    id: "a"\n  }\n];',
    'import items from "./items.ts";\nexport default {"a": 1};',
    'export const a = {"a": 1};',
    'export default "text";',
    'export default {"__proto__": {"polluted": true}};',
  ])
    assert.is(jsonBody(text), undefined, text);
});

json('two stores importing the same JSON at once both read it as JSON', async () => {
  const root = mkdtempSync(join(tmpdir(), 'site-gen-json-'));
  try {
    const content = join(root, 'content');
    mkdirSync(content);
    const items = [{ id: 'alpha', title: 'Alpha' }];
    writeFileSync(join(content, 'items.ts'), `export default ${JSON.stringify(items)};\n`);
    const stores = [0, 1].map(() => new ContentModules({ root, content, cache: join(root, 'cache') }));
    const loaded = await Promise.all(stores.map((store) => store.load(['items.ts'])));
    for (const [module] of loaded) {
      assert.equal(module!.exports.default, items);
      assert.match(readFileSync(new URL(module!.url), 'utf8'), 'JSON.parse(takeJsonBody(', 'not compiled by esbuild');
    }
    assert.is.not(loaded[0]![0]!.url, loaded[1]![0]!.url, 'one module file per store');
    await Promise.all(stores.map((store) => store.dispose()));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

json('gives up at once on a long run of blanks that leads nowhere', () => {
  assert.is(jsonBody(`${' '.repeat(100_000)}const x = 1;`), undefined);
});

json.run();
