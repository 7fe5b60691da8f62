// The chunk graph an island needs on intent (src/pipeline/preload-graph.ts): its chunk, their static imports, and
// the runtime's hydrate and replay code; never what it only imports dynamically.
import type { Metafile } from 'esbuild';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { preloadGraph, staticClosure } from '../../src/pipeline/preload-graph.ts';
import { preloadUrlOf } from '../../src/runtime/preload-url.ts';

const output = (imports: Array<[string, 'import-statement' | 'dynamic-import']>) =>
  ({
    bytes: 1,
    inputs: {},
    exports: [],
    imports: imports.map(([path, kind]) => ({ path, kind })),
  }) as Metafile['outputs'][string];

const outputs: Metafile['outputs'] = {
  'assets/chunks/faq-1.js': output([
    ['assets/chunks/react-1.js', 'import-statement'],
    ['assets/chunks/lazy-1.js', 'dynamic-import'],
  ]),
  'assets/chunks/react-1.js': output([['assets/chunks/scheduler-1.js', 'import-statement']]),
  'assets/chunks/scheduler-1.js': output([]),
  'assets/chunks/lazy-1.js': output([]),
  'assets/chunks/hydrate-1.js': output([['assets/chunks/react-1.js', 'import-statement']]),
  'assets/chunks/replay-1.js': output([]),
  'assets/chunks/enhance-1.js': output([]),
};
const runtime = { hydrate: 'assets/chunks/hydrate-1.js', replay: 'assets/chunks/replay-1.js' };

const graph = suite('Preload graph');

graph('the static closure follows import statements to the bottom, once each, and no dynamic import', () => {
  assert.equal(staticClosure(outputs, 'assets/chunks/faq-1.js'), [
    'assets/chunks/faq-1.js',
    'assets/chunks/react-1.js',
    'assets/chunks/scheduler-1.js',
  ]);
});

graph('a React island needs hydrate and replay too; a behaviour only replay; URLs under the base', () => {
  const json = preloadGraph(
    outputs,
    [
      { name: 'faq', chunk: 'assets/chunks/faq-1.js', behaviour: false },
      { name: 'enhance', chunk: 'assets/chunks/enhance-1.js', behaviour: true },
      { name: 'faq', chunk: 'assets/chunks/faq-1.js', behaviour: false },
    ],
    runtime,
    '/base/',
  );
  assert.equal(JSON.parse(json), {
    faq: [
      '/base/assets/chunks/faq-1.js',
      '/base/assets/chunks/react-1.js',
      '/base/assets/chunks/scheduler-1.js',
      '/base/assets/chunks/hydrate-1.js',
      '/base/assets/chunks/replay-1.js',
    ],
    enhance: ['/base/assets/chunks/enhance-1.js', '/base/assets/chunks/replay-1.js'],
  });
});

graph('the graph lives beside the entry, named after it', () => {
  assert.is(preloadUrlOf('/assets/index-AB12.js'), '/assets/index-AB12.preload.json');
});

graph.run();
