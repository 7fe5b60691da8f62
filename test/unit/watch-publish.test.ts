// `site-gen watch`: what each rebuild makes the server answer, tells the open pages and prints.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PagesOnRequest } from '../../src/pipeline/pages-on-request.ts';
import type { DevBuilder, RebuildOutcome } from '../../src/dev/builder.ts';
import { Publisher } from '../../src/dev/publish.ts';
import type { ReloadEvent } from '../../src/dev/reload.ts';
import { ContentError } from '../../src/core/errors.ts';

/** An output whose files are all made already (no page waits for a request). */
const made = (entries: Array<[string, string]> = []) => new PagesOnRequest(new Map(entries), [], () => '');

/** The parts of a builder the publisher reads, with the output a test sets. */
function fakeBuilder() {
  const state = {
    output: undefined as { files: PagesOnRequest; stylesheet: string } | undefined,
    stylesheet: undefined as { url: string; files: Map<string, string> } | undefined,
  };
  const builder = {
    paths: { root: '/project', cache: '/tool/node_modules/.cache/site-gen' },
    config: { site: { lang: 'en' } },
    errorParts: {
      template:
        '<!doctype html>\n<html lang="{{lang}}" class="light">\n<head>\n<!--site-gen:head-->\n</head>\n<body>\n<!--site-gen:body-->\n</body>\n</html>\n',
    },
    get output() {
      return state.output;
    },
    stylesheetFiles: () => state.stylesheet,
  };
  return { state, builder: builder as unknown as DevBuilder };
}

function setup() {
  const { state, builder } = fakeBuilder();
  const events: ReloadEvent[] = [];
  const lines: string[] = [];
  const errors: string[] = [];
  const publisher = new Publisher({
    builder,
    hub: { send: (event) => events.push(event) },
    scripts: ['/__site-gen/reload-1.js'],
    info: (line) => lines.push(line),
    error: (text) => errors.push(text),
  });
  return { state, publisher, events, lines, errors };
}

const ok = (change: 'none' | 'css' | 'page', changed: string[]): RebuildOutcome => ({
  ok: true,
  change,
  changed,
  stages: ['content', 'render'],
  rebuilt: ['site code', '3 pages'],
  ms: 42,
});
const failed = (message: string): RebuildOutcome => ({
  ok: false,
  error: new ContentError(message),
  stages: [],
  rebuilt: [],
  ms: 7,
});

const publish = suite('Publisher');

publish(
  'the first build is served and printed, with nothing to tell pages that are not open yet beyond a reload',
  () => {
    const { state, publisher, events, lines } = setup();
    state.output = { files: made([['index.html', 'v1']]), stylesheet: '/assets/site-1.css' };
    publisher.publish(ok('page', ['index.html']), undefined);
    assert.is(publisher.served.files.get('index.html'), 'v1');
    assert.is(publisher.served.errorPage, undefined);
    assert.match(lines[0]!, /^\d\d:\d\d:\d\d first build: site code, 3 pages in 42 ms$/);
    assert.is(events.length, 1);
  },
);

publish('a change to some pages reloads only those pages; the build id moves on', () => {
  const { state, publisher, events, lines } = setup();
  state.output = { files: made([['index.html', 'v1']]), stylesheet: '/assets/site-1.css' };
  publisher.publish(ok('page', ['index.html']), undefined);
  const first = publisher.served.build;
  state.output = { files: made([['index.html', 'v2']]), stylesheet: '/assets/site-1.css' };
  publisher.publish(ok('page', ['contact/index.html']), 'content/copy.ts');
  assert.is.not(publisher.served.build, first);
  assert.equal(events[1], { type: 'reload', build: publisher.served.build, pages: ['contact/index.html'] });
  assert.match(lines[1]!, 'content/copy.ts: site code, 3 pages in 42 ms; pages reloaded');
});

publish('a changed script or public file reloads every page', () => {
  const { state, publisher, events } = setup();
  state.output = { files: made(), stylesheet: '/assets/site-1.css' };
  publisher.publish(ok('page', ['assets/index-ABCDEFGH.js', 'index.html']), 'src/site/islands/faq.tsx');
  assert.equal(events[0], { type: 'reload', build: publisher.served.build });
});

publish('a CSS-only change sends the new stylesheet to swap', () => {
  const { state, publisher, events, lines } = setup();
  state.output = { files: made(), stylesheet: '/assets/site-2.css' };
  publisher.publish(ok('css', ['assets/site-2.css', 'index.html']), 'src/site/styles/hero.css');
  assert.equal(events, [{ type: 'css', build: publisher.served.build, href: '/assets/site-2.css' }]);
  assert.match(lines[0]!, 'stylesheet swapped');
});

publish('an output that did not change tells the pages nothing and keeps the build id', () => {
  const { state, publisher, events, lines } = setup();
  state.output = { files: made(), stylesheet: '/assets/site-1.css' };
  publisher.publish(ok('page', []), undefined);
  const build = publisher.served.build;
  publisher.publish(ok('none', []), 'content/copy.ts');
  assert.is(publisher.served.build, build);
  assert.is(events.length, 1);
  assert.match(lines[1]!, 'output unchanged');
});

publish(
  'a failure serves the error page styled by the last stylesheet, reloads the pages and prints the error once',
  () => {
    const { state, publisher, events, lines, errors } = setup();
    state.output = { files: made([['index.html', 'good']]), stylesheet: '/assets/site-1.css' };
    publisher.publish(ok('page', ['index.html']), undefined);
    state.stylesheet = { url: '/assets/site-3.css', files: new Map([['assets/site-3.css', 'body{}']]) };
    publisher.publish(failed('content/copy.ts: hero.badge is missing.'), 'content/copy.ts');
    assert.match(publisher.served.errorPage!, 'content/copy.ts: hero.badge is missing.');
    assert.match(publisher.served.errorPage!, 'href="/assets/site-3.css"');
    assert.match(publisher.served.errorPage!, 'class="light"', "in the site's own template");
    assert.is(publisher.served.files.get('index.html'), 'good', 'the last good files stay');
    assert.is(publisher.served.files.get('assets/site-3.css'), 'body{}', 'with the stylesheet the error page links');
    assert.equal(events[1], { type: 'reload', build: publisher.served.build });
    assert.equal(errors, ['  content/copy.ts: hero.badge is missing.']);
    assert.match(lines[1]!, 'content/copy.ts: failed after 7 ms; the pages show the error');

    publisher.publish(failed('content/copy.ts: hero.badge is missing.'), 'content/copy.ts');
    assert.is(errors.length, 1, 'the same error is not printed again');
    assert.is(events.length, 2, 'nor are the pages reloaded again');
    assert.match(lines[2]!, '(the same error as above)');

    publisher.publish(failed('content/copy.ts: hero.title is missing.'), 'content/copy.ts');
    assert.is(errors.length, 2, 'a different error is printed');
    assert.is(events.length, 3, 'and shown');
  },
);

publish('the fix after a failure reloads every page, whatever changed', () => {
  const { state, publisher, events } = setup();
  state.output = { files: made([['index.html', 'good']]), stylesheet: '/assets/site-1.css' };
  publisher.publish(failed('broken'), 'content/copy.ts');
  publisher.publish(ok('page', ['index.html']), 'content/copy.ts');
  assert.is(publisher.served.errorPage, undefined);
  assert.equal(events.at(-1), { type: 'reload', build: publisher.served.build });
});

publish('a change no stage read is printed as such', () => {
  const { publisher, lines, events } = setup();
  publisher.unused('src/pipeline/render.tsx');
  assert.match(lines[0]!, 'src/pipeline/render.tsx: not used by the site, nothing to rebuild');
  assert.is(events.length, 0);
});

publish.run();
