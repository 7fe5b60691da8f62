// What the dev server shows while the last rebuild is broken: the site's error screen (or site-gen's) with the message, the file and the stack.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { contentSecurityPolicy, fillTemplate } from '../pipeline/document.ts';
import { escapeAttribute } from '../pipeline/render.tsx';
import { DefaultErrorScreen, type ErrorScreenComponent } from '../error-screen.tsx';
import { describeError, SiteGenError } from '../core/errors.ts';

export interface BuildFailure {
  /** The error and its causes, one per line, as the CLI prints them. Names the file (and line) at fault. */
  message: string;
  /** The stack of the site's code that threw, in project-relative paths; absent when site-gen itself found the problem. */
  stack?: string;
}

export interface FailureContext {
  /** The project folder: paths under it are shown relative to it. */
  root: string;
  /** Where the server bundles of the site's code live: their source maps name files relative to the project folder. */
  cache: string;
}

/**
 * What to show of a failed rebuild. A mistake site-gen detects (a content field, a syntax error) is its message
 * alone; an exception thrown by the site's own code adds that code's stack, without the frames of React and Node.
 */
export function describeFailure(error: unknown, context: FailureContext): BuildFailure {
  const message = describeError(error);
  let thrown: unknown = error;
  while (thrown instanceof SiteGenError && thrown.cause !== undefined) thrown = thrown.cause;
  if (thrown instanceof SiteGenError || !(thrown instanceof Error) || !thrown.stack) return { message };
  return { message, stack: projectStack(thrown.stack, context) };
}

function projectStack(stack: string, context: FailureContext): string {
  const [head, ...frames] = stack.split('\n');
  // The cache first (it is inside the project), each also as Node names it: by its real path, when the site's
  // node_modules is a link to another folder's.
  const prefixes = [context.cache, context.root].flatMap((dir) => [...new Set([dir, realPath(dir)])]);
  const shown = frames
    .map((frame) =>
      prefixes.reduce((text, dir) => text.split(`${dir}${path.sep}`).join(''), frame.replace(/file:\/\//g, '')),
    )
    .filter((frame) => !/node_modules|node:internal|\(<anonymous>\)|\(native\)/.test(frame));
  return [head, ...shown].join('\n');
}

function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

export interface ErrorPageOptions {
  /** URL of the site's full stylesheet, which styles the error screen; none when the CSS never compiled. */
  stylesheet?: string;
  /** External scripts the page loads: the reload client, so that fixing the file brings the page back. */
  scripts: string[];
  lang: string;
  /** The site's document template, as last read: the error page is a page of the site. A bare document without it. */
  template?: string;
  /** The site's error screen (src/site/error.tsx) as last loaded; site-gen's neutral one without it. */
  errorScreen?: ErrorScreenComponent;
}

const BARE_TEMPLATE = [
  '<!doctype html>',
  '<html lang="{{lang}}">',
  '<head>',
  '<!--site-gen:head-->',
  '</head>',
  '<body>',
  '<!--site-gen:body-->',
  '</body>',
  '</html>',
  '',
].join('\n');

/** A whole HTML document around the error screen, under the same CSP as the pages (no inline script or style at all). */
export function errorPage(failure: BuildFailure, options: ErrorPageOptions): string {
  const error = Object.assign(new Error(failure.message), { stack: failure.stack ?? '' });
  const a = escapeAttribute;
  const head = [
    ...(options.template
      ? []
      : ['<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">']),
    `<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy([], []))}">`,
    '<meta name="robots" content="noindex">',
    '<title>Build failed | site-gen watch</title>',
    options.stylesheet ? `<link rel="stylesheet" href="${a(options.stylesheet)}">` : '',
    ...options.scripts.map((src) => `<script type="module" src="${a(src)}"></script>`),
  ].filter(Boolean);
  let body: string;
  try {
    body = renderToString(createElement(options.errorScreen ?? DefaultErrorScreen, { error }));
  } catch {
    // The site's screen is the site's code, which may be what is broken: the error must show all the same.
    body = renderToString(createElement(DefaultErrorScreen, { error }));
  }
  return fillTemplate(options.template ?? BARE_TEMPLATE, {
    lang: options.lang,
    base: '/',
    head: head.join('\n'),
    body,
  });
}
