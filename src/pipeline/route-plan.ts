// What a route becomes, decided once when the routes are loaded: its output file and its script entry. The one place
// for route -> file and route -> entry; every stage, the build and the dev server read them from the plan.
import { pageFile, pagePathOf } from '../core/http/paths.ts';
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
  return { route, path: route.path, file, entry: entryName(route) };
}
