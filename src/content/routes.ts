// Routes as a site exports them: a list, or a function of the content that makes one (a page per Markdown entry).
import { RoutesError } from '../core/errors.ts';
import type { Route } from '../core/routes.ts';

/** What src/site/routes.tsx may export as `routes`. */
export type Routes<Content = unknown> = Route<Content>[] | ((content: Content) => Route<Content>[]);

/** The routes for `content`; `shown` names the routes file in errors. */
export function resolveRoutes(routes: unknown, content: unknown, shown: string): Route[] {
  if (typeof routes !== 'function') return routes as Route[];
  let made: unknown;
  try {
    made = routes(content);
  } catch (error) {
    throw new RoutesError(`${shown}: \`routes(content)\` threw: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
  if (!Array.isArray(made) || made.length === 0)
    throw new RoutesError(`${shown}: \`routes(content)\` must return a non-empty array of routes.`);
  return made as Route[];
}
