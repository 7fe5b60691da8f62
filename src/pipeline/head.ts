// Calls the site's head hook (src/site/head.ts) for one page and checks what it gives before the document uses it.
import { RenderError } from '../core/errors.ts';
import type { HeadContent, HeadContext, HeadHook } from '../core/head.ts';

const SHOWN = 'src/site/head.ts';

/** The site's head content for the page in `context`; nothing when the site has no head hook. */
export function siteHead(hook: HeadHook | undefined, context: HeadContext): HeadContent {
  if (!hook) return {};
  let content: HeadContent;
  try {
    content = hook(context);
  } catch (error) {
    throw new RenderError(`${SHOWN}: head() threw for ${context.path}: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
  const problem = findProblem(content);
  if (problem)
    throw new RenderError(
      `${SHOWN}: head() for ${context.path} returned ${problem}. Return { meta?: [{ name, content }], scripts?: [string], jsonLd?: [object] }.`,
    );
  return content;
}

function findProblem(content: unknown): string | undefined {
  if (!content || typeof content !== 'object')
    return `${content === undefined ? 'nothing' : String(content)} instead of an object`;
  const { meta, scripts, jsonLd } = content as Record<string, unknown>;
  if (
    meta !== undefined &&
    !(Array.isArray(meta) && meta.every((m) => typeof m?.name === 'string' && typeof m?.content === 'string'))
  )
    return 'a `meta` that is not a list of { name, content } strings';
  if (scripts !== undefined && !(Array.isArray(scripts) && scripts.every((s) => typeof s === 'string')))
    return 'a `scripts` that is not a list of strings';
  // An inline script cannot contain "</script": the element would end there and the rest would show as text.
  if (Array.isArray(scripts) && scripts.some((s: string) => /<\/script/i.test(s)))
    return 'a script containing "</script"';
  if (jsonLd !== undefined && !Array.isArray(jsonLd)) return 'a `jsonLd` that is not a list';
  return undefined;
}
