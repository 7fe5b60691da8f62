import { parseHTML } from 'linkedom';
import { useId } from 'react';
import { renderToString } from 'react-dom/server';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type PropsMemo, renderIsland, renderPage, serializeProps } from '../../src/pipeline/render.tsx';
import { IslandError } from '../../src/core/errors.ts';
import { behaviour, island } from '../../src/island.tsx';
import type { Route } from '../../src/core/routes.ts';

const site = {} as never;

function Greeting({ name }: { name: string }) {
  const id = useId();
  return <p id={id}>Hello {name}</p>;
}
const GreetingIsland = island('greeting', Greeting, { hydrate: 'idle' });

function Outer({ who }: { who: string }) {
  return (
    <div className="outer">
      <GreetingIsland name={who} />
    </div>
  );
}
const OuterIsland = island('outer', Outer, { hydrate: 'load' });

function route(page: Route['page']): Route {
  return { path: '/test', page, head: () => ({ title: 'Test' }) };
}

const render = suite('renderPage');

render('renders an island in place with its name, strategy and props', () => {
  const page = renderPage(
    route(() => (
      <main>
        <GreetingIsland name="Ada" />
      </main>
    )),
    { site, content: {}, path: '/test' },
  );
  const { document } = parseHTML(page.html);
  const el = document.querySelector('site-island')!;
  assert.ok(el, 'the island has a <site-island> wrapper');
  assert.is(el.getAttribute('data-island'), 'greeting');
  assert.is(el.getAttribute('data-hydrate'), 'idle');
  assert.equal(JSON.parse(el.getAttribute('data-props')!), { name: 'Ada' });
  assert.match(el.textContent!, /Hello.*Ada/);
  assert.equal(page.islands, [{ name: 'greeting', hydrate: 'idle' }]);
});

render('gives each island its own useId prefix, the one the browser hydrates with', () => {
  const page = renderPage(
    route(() => (
      <main>
        <GreetingIsland name="A" />
        <GreetingIsland name="B" />
      </main>
    )),
    { site, content: {}, path: '/test' },
  );
  const { document } = parseHTML(page.html);
  const islands = [...document.querySelectorAll('site-island')];
  assert.is(islands.length, 2);
  islands.forEach((el, i) => {
    assert.is(el.getAttribute('data-id'), `i${i}-`);
    assert.ok(el.querySelector('p')!.id.includes(`i${i}-`), `island ${i}'s ids start with its prefix`);
  });
});

render('renders an island inside another island in place, hydrated with its parent', () => {
  const page = renderPage(
    route(() => <OuterIsland who="Bo" />),
    { site, content: {}, path: '/test' },
  );
  const { document } = parseHTML(page.html);
  assert.is(document.querySelectorAll('site-island').length, 1);
  assert.equal(
    page.islands.map((i) => i.name),
    ['outer'],
  );
  assert.match(document.querySelector('.outer')!.textContent!, /Hello.*Bo/);
});

const Stamp = behaviour<{ text: string }>(
  'stamp',
  { hydrate: 'visible', targets: '.stamp-target' },
  (element, { text }) => {
    element.textContent = text;
  },
);

render(
  'renders a behaviour as its markup in a wrapper that says it runs without React, its props without the markup',
  () => {
    const page = renderPage(
      route(() => (
        <main>
          <Stamp text="stamped">
            <p className="mark">
              server <b>markup</b>
            </p>
          </Stamp>
        </main>
      )),
      { site, content: {}, path: '/test' },
    );
    const { document } = parseHTML(page.html);
    const el = document.querySelector('site-island')!;
    assert.is(el.getAttribute('data-island'), 'stamp');
    assert.is(el.getAttribute('data-hydrate'), 'visible');
    assert.ok(el.hasAttribute('data-behaviour'), 'marked as a behaviour: the runtime mounts it without React');
    assert.not.ok(el.hasAttribute('data-id'), 'no React ids to hydrate with');
    assert.is(el.getAttribute('data-targets'), '.stamp-target');
    assert.equal(JSON.parse(el.getAttribute('data-props')!), { text: 'stamped' }, 'the children are markup, not props');
    assert.is(el.innerHTML, '<p class="mark">server <b>markup</b></p>');
    assert.equal(page.islands, [{ name: 'stamp', hydrate: 'visible', behaviour: true }]);
  },
);

render("an island inside a behaviour's markup is an island of its own", () => {
  const page = renderPage(
    route(() => (
      <Stamp text="x">
        <div className="inside">
          <GreetingIsland name="In" />
        </div>
      </Stamp>
    )),
    { site, content: {}, path: '/test' },
  );
  const { document } = parseHTML(page.html);
  const inner = document.querySelector('site-island[data-island="stamp"] .inside > site-island')!;
  assert.ok(inner, "the island is inside the behaviour's markup");
  assert.is(inner.getAttribute('data-island'), 'greeting');
  assert.match(inner.textContent!, /Hello.*In/);
  assert.equal(
    page.islands.map((i) => i.name),
    ['stamp', 'greeting'],
  );
});

render('outside a page render (a unit test, inside an island) a behaviour is only its markup', () => {
  assert.is(
    renderToString(
      <Stamp text="x">
        <p>just markup</p>
      </Stamp>,
    ),
    '<p>just markup</p>',
  );
  assert.is(Stamp.behaviour.name, 'stamp');
});

render('a behaviour with props JSON cannot carry is an IslandError naming it and where to move the value', () => {
  const Bad = behaviour<{ onDone: () => void }>('bad', { hydrate: 'idle' }, () => {});
  assert.throws(
    () =>
      renderPage(
        route(() => <Bad onDone={() => {}} />),
        { site, content: {}, path: '/test' },
      ),
    /Behaviour "bad" on \/test: props\.onDone is a function; behaviour props must be JSON data .* Move it inside the behaviour's mount function\./,
  );
});

render('collects links and ids for the link checker', () => {
  const page = renderPage(
    route(() => (
      <main id="main">
        <a href="/contact">c</a>
        <a href="#main">m</a>
      </main>
    )),
    { site, content: {}, path: '/test' },
  );
  assert.equal(page.links, ['/contact', '#main']);
  assert.equal(page.ids, ['main']);
});

render('a page that throws becomes a RenderError naming the route', () => {
  const Boom = () => {
    throw new Error('kaput');
  };
  assert.throws(() => renderPage(route(Boom), { site, content: {}, path: '/test' }), /Could not render \/test: kaput/);
});

render.run();

const props = suite('island props');

props('a prop containing </script> or <!-- cannot break out of the page', () => {
  const tricky = '</script><script>alert(1)</script><!-- "x" & \'y\'';
  const html = renderIsland('/t', GreetingIsland.island, { name: tricky }, 0);
  // React's own text separators (<!-- -->) aside, no raw markup from the prop reaches the HTML.
  assert.not.match(html.replace(/<!-- -->/g, ''), /<\/script>|<script>|<!--/, 'the prop is escaped everywhere');
  const { document } = parseHTML(`<body>${html}</body>`);
  assert.equal(
    JSON.parse(document.querySelector('site-island')!.getAttribute('data-props')!),
    { name: tricky },
    'the prop round-trips exactly',
  );
});

props('a function prop is an IslandError naming the island, page and prop', () => {
  try {
    serializeProps('menu', '/contact', { items: [{ onClick: () => 1 }] });
    assert.unreachable('should throw');
  } catch (error) {
    assert.instance(error, IslandError);
    assert.match(
      (error as Error).message,
      /Island "menu" on \/contact: props\.items\[0\]\.onClick is a function; island props must be JSON data/,
    );
  }
});

props('a React element or class instance is refused, undefined fields are dropped', () => {
  assert.throws(() => serializeProps('x', '/', { child: <b /> }), /a React element/);
  assert.throws(() => serializeProps('x', '/', { when: new Date(0) }), /a Date instance/);
  assert.is(serializeProps('x', '/', { a: undefined, b: 1 }), '{"b":1}');
});

props('made value by value with a memo, the JSON and every refusal are the same as without', () => {
  const made: unknown[] = [];
  const memo: PropsMemo = (value, compute) => {
    made.push(value);
    return compute();
  };
  const copy = { title: 'Stay', toast: { title: 'Thanks', lines: ['a', 'b'] } };
  const cases: unknown[] = [
    { copy, labelledBy: 'x', count: 3, none: null, skipped: undefined },
    {},
    undefined,
    { 'quoted "key"': [1, 'two', { three: true }], '2': 'numeric keys first' },
  ];
  for (const props of cases)
    assert.is(serializeProps('x', '/', props, 'Island', memo), serializeProps('x', '/', props), JSON.stringify(props));
  assert.ok(made.includes(copy), 'each object among the props is given to the memo');
  for (const props of [
    { items: [{ onClick: () => 1 }] },
    { child: <b /> },
    { when: new Date(0) },
    { n: Number.NaN },
    { list: [1, undefined] },
  ]) {
    const message = (memo?: PropsMemo) => {
      try {
        serializeProps('menu', '/contact', props, 'Island', memo);
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    assert.is(message(memo), message(), JSON.stringify(Object.keys(props)));
    assert.match(message(memo), /^Island "menu" on \/contact: props\./);
  }
});

props('a media island without a query is refused', () => {
  const Wide = island('wide', () => <p>wide</p>, { hydrate: 'media' });
  assert.throws(() => renderIsland('/', Wide.island, {}, 0), /hydrate "media" needs a media query/);
});

props.run();
