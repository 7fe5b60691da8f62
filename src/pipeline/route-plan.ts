// What a route becomes, decided once when the routes are loaded: its output file and its script entry. The one place
// for route -> file and route -> entry; every stage, the build and the dev server read them from the plan.
import { relative } from 'node:path';
import { RoutesError } from '../core/errors.ts';
import { pageFile, pagePathOf } from '../core/http/paths.ts';
import type { ProjectPaths } from '../core/paths.ts';
import type { Route } from '../core/routes.ts';

export interface PlannedRoute {
  route: Route;
  path: string;
  /** Output file: "index.html", "contact/index.html", "404.html". */
  file: string;
  /** Name of its script entry: "index", "contact", "404". */
  entry: string;
}

/** Output file of a route: "/" -> index.html, "/contact" -> contact/index.html, or the route's own `file`. */
export function routeFile(route: Pick<Route, 'path' | 'file'>): string {
  return route.file || pageFile(route.path);
}

/** Name of the page's script entry: "index", "contact", "404". */
export function entryName(route: Pick<Route, 'path' | 'file'>): string {
  const file = routeFile(route);
  const name = pagePathOf(file)?.slice(1) ?? file.replace(/\.html$/, '');
  return name.replace(/\//g, '-') || 'index';
}

export function planRoute(route: Route): PlannedRoute {
  const file = routeFile(route);
  return { route, path: flat(route.path), file: flat(file), entry: flat(entryName(route)) };
}

/**
 * `text`, made one run of characters: a string joined from parts (a template literal, `+`) is a tree of them in V8, and
 * a route's path, file and entry are kept for the whole build. Asking for its number flattens it in place: the tree's
 * pieces are let go, and a tree made here (the file, the entry) is replaced by its flat string at the next young
 * collection. At 20,000 routes of the form `/releases/${id}/`, the heap as the first page renders held 1,473 B a
 * route, and 1,332 B with these flattened.
 */
function flat(text: string): string {
  Number(text);
  return text;
}

/**
 * The routes as the site gives them, checked (a path, a page, a head; no two writing one file) and planned, in their
 * order. `paths.routes` names the file in the errors. `previous`: the last plan of the same site (a watch session
 * loads the site again after each save): routes at the same place with the same path and file keep their file and
 * entry, and when every route does (`unchanged`), the files are those already found distinct.
 */
export function planRoutes(
  paths: Pick<ProjectPaths, 'root' | 'routes'>,
  routes: Route[],
  previous: readonly PlannedRoute[] = [],
): { routes: PlannedRoute[]; unchanged: boolean } {
  const shown = relative(paths.root, paths.routes);
  let same = routes.length === previous.length;
  const planned = routes.map((route, i) => {
    if (!route || typeof route.path !== 'string' || !route.path.startsWith('/'))
      throw new RoutesError(`${shown}: routes[${i}].path must be a path starting with "/".`);
    if (typeof route.page !== 'function')
      throw new RoutesError(`${shown}: routes[${i}] (${route.path}) has no page component.`);
    if (typeof route.head !== 'function')
      throw new RoutesError(`${shown}: routes[${i}] (${route.path}) has no head() function giving its title.`);
    const last = previous[i];
    if (last && last.path === route.path && last.route.file === route.file)
      return { route, path: last.path, file: last.file, entry: last.entry };
    same = false;
    return planRoute(route);
  });
  if (same) return { routes: planned, unchanged: true };
  const seen = new Map<string, string>();
  for (const plan of planned) {
    if (seen.has(plan.file))
      throw new RoutesError(
        `${shown}: routes ${seen.get(plan.file)} and ${plan.path} both write ${plan.file}. Give each route its own path.`,
      );
    seen.set(plan.file, plan.path);
  }
  return { routes: planned, unchanged: false };
}
