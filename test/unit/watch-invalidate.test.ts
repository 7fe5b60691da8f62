// `site-gen watch`: which build stages a changed file invalidates, which paths are watched at all.
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { projectPaths } from '../../src/core/paths.ts';
import { isWatchable, stagesFor, stagesForAll, type InputIndex, type Stage } from '../../src/dev/invalidate.ts';
import { watchTargets } from '../../src/dev/watch.ts';

const root = '/project';
const at = (file: string) => path.join(root, file);

/** What a build of a small site read: pages and components (server), islands (server and browser), CSS. */
const index: InputIndex = {
  config: at('site.config.ts'),
  template: at('templates/document.html'),
  publicDir: at('public'),
  contentDir: at('content'),
  islandsDir: at('src/site/islands'),
  behavioursDir: at('src/site/behaviours'),
  site: new Set([
    at('content/schema.ts'),
    at('content/copy.ts'),
    at('src/site/routes.tsx'),
    at('src/site/pages/HomePage.tsx'),
    at('src/site/components/Hero.tsx'),
    at('src/site/lib/text.ts'),
    at('src/site/islands/faq.tsx'),
  ]),
  css: new Set([at('src/site/styles/main.css'), at('src/site/styles/hero.css')]),
  client: new Set([at('src/site/islands/faq.tsx'), at('src/site/lib/text.ts'), '/tool/src/runtime/start.ts']),
};

const stages = (file: string, aliases?: string[]) => [...stagesFor(at(file), index, aliases)].sort();
const sorted = (list: Stage[]) => [...list].sort();

const mapping = suite('stagesFor');

mapping('a content file re-runs the site code only: no CSS, no browser bundle', () => {
  assert.equal(stages('content/copy.ts'), ['content']);
});

mapping('a component only the server renders re-runs the site code, not the browser bundle', () => {
  assert.equal(stages('src/site/components/Hero.tsx'), ['content']);
});

mapping('an island re-runs both the site code (it is server-rendered) and the browser bundle', () => {
  assert.equal(stages('src/site/islands/faq.tsx'), sorted(['content', 'bundle']));
});

mapping('a module shared by pages and islands re-runs both', () => {
  assert.equal(stages('src/site/lib/text.ts'), sorted(['content', 'bundle']));
});

mapping('a stylesheet the entry imports re-runs the CSS stage alone', () => {
  assert.equal(stages('src/site/styles/hero.css'), ['stylesheet']);
  assert.equal(stages('src/site/styles/main.css'), ['stylesheet']);
});

mapping('a stylesheet nothing imports changes nothing', () => {
  assert.equal(stages('src/site/styles/draft.css'), []);
});

mapping('site.config.ts re-runs the config stage (which the builder widens to everything it feeds)', () => {
  assert.equal(stages('site.config.ts'), ['config']);
});

mapping('the document template re-runs the template stage', () => {
  assert.equal(stages('templates/document.html'), ['template']);
});

mapping('any file in public/, at any depth, re-runs the public stage', () => {
  assert.equal(stages('public/favicon.svg'), ['public']);
  assert.equal(stages('public/partners/new-logo.svg'), ['public']);
});

mapping('a new content file re-runs the site code, which lists content/ to find it', () => {
  assert.equal(stages('content/team.ts'), ['content']);
});

mapping('a new island module re-runs the site code and the browser bundle: a page may already name it', () => {
  assert.equal(stages('src/site/islands/newsletter.tsx'), sorted(['content', 'bundle']));
});

mapping('a new behaviour module re-runs the site code and the browser bundle, like an island', () => {
  assert.equal(stages('src/site/behaviours/stamp.ts'), sorted(['content', 'bundle']));
});

mapping('a file the build never read (tool code, notes) changes nothing', () => {
  assert.equal(stages('src/pipeline/render.tsx'), []);
  assert.equal(stages('notes.md'), []);
  assert.equal(stages('content/README.md'), [], 'only scripts in content/ are content files');
});

mapping('a file reached through a symlink matches by its real path', () => {
  assert.equal([...stagesFor(at('src/runtime/start.ts'), index)], [], 'the project path alone is unknown');
  assert.equal([...stagesFor(at('src/runtime/start.ts'), index, ['/tool/src/runtime/start.ts'])], ['bundle']);
});

mapping('the stages of a batch are the union of each change', () => {
  const union = stagesForAll(
    [{ file: at('content/copy.ts') }, { file: at('src/site/styles/hero.css') }, { file: at('notes.md') }],
    index,
  );
  assert.equal([...union].sort(), sorted(['content', 'stylesheet']));
  assert.equal([...stagesForAll([], index)], []);
});

mapping.run();

const watchable = suite('isWatchable');

watchable('reports source files', () => {
  for (const file of [
    'content/copy.ts',
    'src/site/styles/hero.css',
    'public/.well-known/security.txt',
    'site.config.ts',
  ]) {
    assert.ok(isWatchable(file), file);
  }
});

watchable('ignores dependencies, hidden folders and editor droppings', () => {
  for (const file of [
    'node_modules/react/index.js',
    'src/.cache/x.ts',
    '.git/index',
    'src/site/.Hero.tsx.swp',
    'src/site/Hero.tsx~',
    'content/#copy.ts#',
    'content/4913',
  ]) {
    assert.not.ok(isWatchable(file), file);
  }
});

watchable.run();

const targets = suite('watchTargets');

targets('watches the config file and the top-level folders the build reads, never node_modules', () => {
  const paths = projectPaths('/project/site.config.ts');
  const found = watchTargets(paths);
  assert.is(found[0], '/project/site.config.ts');
  // The folders exist only on disk: a fictitious project has none, so only the config is left.
  assert.equal(found.slice(1), []);
  const real = watchTargets(projectPaths(path.resolve('site.config.ts')));
  const names = real.slice(1).map((dir) => path.basename(dir));
  assert.equal(names, ['content', 'public', 'src', 'templates']);
});

targets.run();
