// Routes planned once when loaded: each route's output file and script entry, checked, and kept across a watch
// session's loads while its path stays the same.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RoutesError } from '../../src/core/errors.ts';
import type { Route } from '../../src/core/routes.ts';
import { planRoutes } from '../../src/pipeline/route-plan.ts';

const paths = { root: '/site', routes: '/site/src/site/routes.tsx' };
const route = (path: string, file?: string): Route => ({
  path,
  ...(file && { file }),
  page: () => null,
  head: () => ({ title: path }),
});

const plan = suite('planRoutes');

plan('gives each route its output file and script entry, in the routes order', () => {
  const { routes: planned } = planRoutes(paths, [route('/'), route('/releases/one'), route('/404', '404.html')]);
  assert.equal(
    planned.map(({ path, file, entry }) => [path, file, entry]),
    [
      ['/', 'index.html', 'index'],
      ['/releases/one', 'releases/one/index.html', 'releases-one'],
      ['/404', '404.html', '404'],
    ],
  );
});

plan('a load with the same routes keeps their plans but carries the new route objects', () => {
  const { routes: first } = planRoutes(paths, [route('/'), route('/a')]);
  const again = [route('/'), route('/a')];
  const { routes: second } = planRoutes(paths, again, first);
  assert.equal(
    second.map(({ file, entry }) => [file, entry]),
    first.map(({ file, entry }) => [file, entry]),
  );
  assert.ok(second[1]!.route === again[1], 'the page and head are the new load');
});

plan('a changed route is planned again, and two routes writing one file are refused', () => {
  const { routes: first } = planRoutes(paths, [route('/'), route('/a'), route('/b')]);
  const { routes: moved } = planRoutes(paths, [route('/'), route('/a'), route('/c')], first);
  assert.is(moved[2]!.file, 'c/index.html');
  assert.throws(
    () => planRoutes(paths, [route('/'), route('/a'), route('/a/')], first),
    (error: unknown) =>
      error instanceof RoutesError &&
      error.message === 'src/site/routes.tsx: routes /a and /a/ both write a/index.html. Give each route its own path.',
  );
});

plan('a route without a path, page or head is refused, naming it', () => {
  const messages = [
    [{ ...route('/'), path: 'x' }, 'routes[0].path must be a path starting with "/"'],
    [{ ...route('/x'), page: undefined }, 'routes[0] (/x) has no page component'],
    [{ ...route('/x'), head: undefined }, 'routes[0] (/x) has no head() function giving its title'],
  ] as const;
  for (const [bad, message] of messages)
    assert.throws(
      () => planRoutes(paths, [bad as unknown as Route]),
      (error: unknown) => (error as Error).message.includes(message),
    );
});

plan.run();
