// Render-and-query for the site's unit tests: server-render a React element, query it with linkedom; plus the real site data.
import { parseHTML } from 'linkedom';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { collections, type Content } from '../../content/schema.ts';
import config from '../../site.config.ts';
import { configSchema } from '../../src/core/config-schema.ts';
import type { SiteInfo } from '../../src/core/config.ts';

export interface Rendered {
  html: string;
  document: Document;
  /** First element matching the selector, or a failure naming the selector. */
  $(selector: string): Element;
  $$(selector: string): Element[];
  /** Whitespace-normalised text of the whole render, or of the first match. */
  text(selector?: string): string;
}

/** Renders as the build does (renderToString, islands in place since no registry is set) and parses the HTML. */
export function render(element: ReactElement): Rendered {
  const html = renderToString(element);
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const doc = document as unknown as Document;
  const $$ = (selector: string) => [...doc.querySelectorAll(selector)];
  return {
    html,
    document: doc,
    $(selector) {
      const found = doc.querySelector(selector);
      if (!found) throw new Error(`Nothing matches ${selector} in:\n${html.slice(0, 600)}...`);
      return found;
    },
    $$,
    text(selector) {
      return textOf(selector ? this.$(selector) : doc.body);
    },
  };
}

/** Text of an element with runs of whitespace collapsed, as a reader sees it. */
export function textOf(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** The links of a render (or part of it) as [text, href] pairs, in document order. */
export function linksOf(root: ParentNode): Array<[string, string | null]> {
  return [...root.querySelectorAll('a')].map((a) => [
    textOf(a) || a.getAttribute('aria-label') || '',
    a.getAttribute('href'),
  ]);
}

/** The site's content, each file validated by its schema exactly as the build does. */
export async function loadContent(): Promise<Content> {
  const entries = await Promise.all(
    Object.entries(collections).map(async ([name, { file, schema }]) => {
      const module = (await import(`../../content/${file}`)) as { default: unknown };
      return [name, schema.parse(module.default)] as const;
    }),
  );
  return Object.fromEntries(entries) as Content;
}

/** The site section of site.config.ts, defaults applied. */
export function loadSite(): SiteInfo {
  return configSchema.parse(config).site;
}
