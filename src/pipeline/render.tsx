// Renders one route's page to HTML with renderToString, each island rendered on its own so the browser can hydrate it alone.
import { createElement, type ReactElement, type ReactNode } from 'react';
import type { BehaviourDefinition } from '../behaviour.ts';
import { renderToString } from 'react-dom/server';
import { BaseContext } from '../base.ts';
import { IslandError, RenderError } from '../core/errors.ts';
import {
  HYDRATE_STRATEGIES,
  IslandBoundary,
  IslandRegistryContext,
  type HydrateStrategy,
  type IslandDefinition,
  type IslandRegistry,
} from '../island.tsx';
import type { PageHead, PageProps, Route } from '../core/routes.ts';
import { detached } from '../core/strings.ts';
import { ImageContext, type ImageRenderer } from '../images/context.ts';
import { type HtmlReader, scanHtml } from './html-scan.ts';
import { type ImageJob, settlePriority } from '../images/plan.ts';

export interface IslandUse {
  name: string;
  hydrate: HydrateStrategy;
  media?: string;
  /** A behaviour (src/site/behaviours/): plain DOM code, no React. */
  behaviour?: true;
}

type Definition = IslandDefinition | BehaviourDefinition;
const isBehaviour = (definition: Definition): definition is BehaviourDefinition => 'mount' in definition;

export interface RenderedPage {
  /** The page's <body> content. */
  html: string;
  head: PageHead;
  /** Every href of an <a> or <area>, in document order. */
  links: string[];
  /** Every id in the page. */
  ids: string[];
  /** The islands on the page, in document order. */
  islands: IslandUse[];
  /** The image files the page's pictures need (<Image>, Markdown), encoded after rendering. */
  images: ImageJob[];
}

export interface RenderOptions {
  /** URL base the site is built for; components read it with `useBase()`. Default "/". */
  base?: string;
  /** How <Image> reads its files (see src/images/); without it, a page with an image fails to render. */
  images?: Omit<ImageRenderer, 'use'>;
  /**
   * The links and ids of the page's HTML (default collectLinks): a build gives those it read from the same HTML in the
   * last build, reading them being a large part of a render.
   */
  collect?: (html: string) => { links: string[]; ids: string[] };
  /**
   * What a build gives to make a content object's JSON once for every page whose island props hold it (see
   * ContentReads.memo); without it, made each time.
   */
  memo?: PropsMemo;
}

/** Makes what `compute` makes of `value` (a value of an island's props), or gives what it made before. */
export type PropsMemo = <T>(value: object, compute: () => T) => T;

export function renderPage(route: Route, props: PageProps, options: RenderOptions = {}): RenderedPage {
  const base = options.base ?? '/';
  const uses: Array<{ definition: Definition; props: unknown; children?: ReactNode }> = [];
  const registry: IslandRegistry = {
    add: (definition: Definition, islandProps: unknown, children?: ReactNode) =>
      uses.push({ definition, props: islandProps, children }) - 1,
  };
  const images: ImageJob[] = [];
  const imageRenderer = options.images && {
    ...options.images,
    use: (jobs: readonly ImageJob[]) => images.push(...jobs),
  };
  let html: string;
  let head: PageHead;
  try {
    head = route.head(props);
    html = renderToString(
      withContext(
        base,
        createElement(
          ImageContext.Provider,
          { value: imageRenderer ?? null },
          createElement(IslandRegistryContext.Provider, { value: registry }, createElement(route.page, props)),
        ),
      ),
    );
  } catch (error) {
    throw new RenderError(`Could not render ${route.path}: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
  // A behaviour's markup may hold islands: they join `uses` as it is rendered, and are filled in after it.
  for (let index = 0; index < uses.length; index++) {
    const { definition, props: islandProps, children } = uses[index]!;
    const placeholder = `<site-island data-island-slot="${index}"></site-island>`;
    html = html.replace(placeholder, () =>
      renderIsland(route.path, definition, islandProps, index, base, { registry, children }, options.memo),
    );
  }
  if (images.length > 0) html = settlePriority(html);
  const { links, ids } = (options.collect ?? collectLinks)(html);
  return {
    html,
    head,
    links,
    ids,
    islands: uses.map(({ definition }) => ({
      name: definition.name,
      hydrate: definition.hydrate,
      ...(definition.media ? { media: definition.media } : {}),
      ...(isBehaviour(definition) ? { behaviour: true as const } : {}),
    })),
    images,
  };
}

/** What a behaviour renders: its server markup, and the registry for the islands inside that markup. */
export interface BehaviourMarkup {
  registry: IslandRegistry;
  children?: ReactNode;
}

/**
 * The island's markup: its own render (ids prefixed so they match the browser's), wrapped with what the runtime needs.
 * A behaviour's markup is the children it was given on the page, and the wrapper says it runs without React.
 */
export function renderIsland(
  path: string,
  definition: Definition,
  props: unknown,
  index: number,
  base = '/',
  markup?: BehaviourMarkup,
  memo?: PropsMemo,
): string {
  const { name, hydrate, media, targets } = definition;
  const behaviour = isBehaviour(definition);
  const kind = behaviour ? 'Behaviour' : 'Island';
  const folder = behaviour ? 'src/site/behaviours/' : 'src/site/islands/';
  if (!/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new IslandError(
      `${kind} "${name}" on ${path}: ${kind.toLowerCase()} names are lower-case words joined by "-", the file name of its module in ${folder}.`,
    );
  }
  if (!(HYDRATE_STRATEGIES as readonly string[]).includes(hydrate)) {
    const names = HYDRATE_STRATEGIES.map((s) => `"${s}"`);
    throw new IslandError(
      `${kind} "${name}" on ${path}: hydrate must be ${names.slice(0, -1).join(', ')} or ${names.at(-1)}, not "${hydrate}".`,
    );
  }
  if (hydrate === 'media' && !media) {
    throw new IslandError(
      `${kind} "${name}" on ${path}: hydrate "media" needs a media query, e.g. { hydrate: 'media', media: '(min-width: 768px)' }.`,
    );
  }
  const json = serializeProps(name, path, props, kind, memo);
  const id = `i${index}-`;
  let inner: string;
  try {
    const content = behaviour
      ? createElement(IslandRegistryContext.Provider, { value: markup?.registry ?? null }, markup?.children)
      : createElement(IslandBoundary, { name }, createElement(definition.component, props as object));
    inner = renderToString(withContext(base, content), { identifierPrefix: id });
  } catch (error) {
    throw new RenderError(
      `Could not render ${kind.toLowerCase()} "${name}" on ${path}: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    );
  }
  // React islands hydrate with their ids' prefix; a behaviour is never rendered again in the browser.
  const attrs = behaviour
    ? [`data-island="${name}"`, `data-hydrate="${hydrate}"`, 'data-behaviour']
    : [`data-island="${name}"`, `data-hydrate="${hydrate}"`, `data-id="${id}"`];
  if (media) attrs.push(`data-media="${escapeAttribute(media)}"`);
  if (targets) attrs.push(`data-targets="${escapeAttribute(targets)}"`);
  // Single-quoted: JSON is full of `"`, each of which would cost six bytes as `&quot;` (about 80 B gzip on the home page).
  if (json !== '{}') attrs.push(`data-props='${escapeSingleQuotedAttribute(json)}'`);
  return `<site-island ${attrs.join(' ')}>${inner}</site-island>`;
}

/** What every render gets from site-gen, the same on the server as in the browser (src/runtime/hydrate.ts): the base. */
function withContext(base: string, element: ReactElement): ReactElement {
  return createElement(BaseContext.Provider, { value: base }, element);
}

/**
 * JSON of the island's props; anything JSON cannot carry faithfully is an error, not a silent loss. With `memo`, the
 * JSON of each object among the props is made once (see RenderOptions.memo).
 */
export function serializeProps(
  name: string,
  path: string,
  props: unknown,
  kind: 'Island' | 'Behaviour' = 'Island',
  memo?: PropsMemo,
): string {
  const json = memo ? propsJson(props, memo) : undefined;
  if (json !== undefined) return json;
  const problem = findUnserializable(props, 'props');
  if (problem) {
    const inside = kind === 'Island' ? 'the island component' : "the behaviour's mount function";
    throw new IslandError(
      `${kind} "${name}" on ${path}: ${problem.at} is ${problem.what}; ${kind.toLowerCase()} props must be JSON data (strings, numbers, booleans, null, arrays, plain objects). Move it inside ${inside}.`,
    );
  }
  return JSON.stringify(props ?? {});
}

/**
 * JSON.stringify(props) made value by value, each object's JSON by `memo`; undefined when the props are not a plain
 * object or a value is not JSON data (then serializeProps finds what, for its message).
 */
function propsJson(props: unknown, memo: PropsMemo): string | undefined {
  if (props === undefined || props === null) return '{}';
  if (typeof props !== 'object' || Array.isArray(props) || Object.getPrototypeOf(props) !== Object.prototype)
    return undefined;
  const parts: string[] = [];
  for (const key of Object.keys(props)) {
    const value = (props as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const made = () => (findUnserializable(value, `props.${key}`) ? undefined : JSON.stringify(value));
    const json = typeof value === 'object' && value !== null ? memo(value, made) : made();
    if (json === undefined) return undefined;
    parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
}

function findUnserializable(value: unknown, at: string): { at: string; what: string } | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : { at, what: `the number ${value}` };
  if (typeof value === 'function') return { at, what: 'a function' };
  if (typeof value === 'undefined') return at === 'props' ? null : { at, what: 'undefined' };
  if (typeof value !== 'object') return { at, what: `a ${typeof value}` };
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findUnserializable(item, `${at}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null)
    return {
      at,
      what: `a ${proto?.constructor?.name ?? 'class'} instance${'$$typeof' in (value as object) ? ' (a React element)' : ''}`,
    };
  if ('$$typeof' in (value as object)) return { at, what: 'a React element' };
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const found = findUnserializable(item, `${at}.${key}`);
    if (found) return found;
  }
  return null;
}

/** An attribute value safe in either quoting (a template may use `'` or `"`). */
export function escapeAttribute(text: string): string {
  // One pass, and none for the common text with nothing to escape: every page's head is made of these.
  return /[&"'<>]/.test(text) ? text.replace(/[&"'<>]/g, (char) => ATTRIBUTE_ESCAPES[char]!) : text;
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
};

/** The value of a single-quoted attribute: `"` stays as it is (JSON is full of them). */
export function escapeSingleQuotedAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Every link and id of the page, read in one scan of its HTML (see scanHtml): no document is built. */
export function collectLinks(html: string): { links: string[]; ids: string[] } {
  const { reader, found } = linkReader();
  scanHtml(html, [reader]);
  return found;
}

/**
 * What reads a page's links and ids as it is scanned (see scanHtml): `found` fills in as the scan goes. The one owner
 * of which of a page's attributes are its links and ids, whether the page is scanned for them alone or for more.
 */
export function linkReader(): { reader: HtmlReader; found: { links: string[]; ids: string[] } } {
  const links: string[] = [];
  const ids: string[] = [];
  return {
    reader: {
      open(name, attributes) {
        if (name === 'a' || name === 'area') {
          const href = attributes.get('href');
          if (href !== undefined) links.push(detached(href));
        }
        const id = attributes.get('id');
        if (id !== undefined) ids.push(detached(id));
      },
    },
    found: { links, ids },
  };
}
