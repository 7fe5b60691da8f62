// What the dev server shows while the last rebuild is broken: the site's error screen with the message, the file and the stack.
import path from 'node:path';
import { renderToString } from 'react-dom/server';
import { contentSecurityPolicy } from '../build/document.ts';
import { escapeAttribute } from '../build/render.tsx';
import { SiteGenError } from '../errors.ts';
import { ErrorScreen } from '../site/components/ErrorScreen.tsx';

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
  const message = messageChain(error);
  let thrown: unknown = error;
  while (thrown instanceof SiteGenError && thrown.cause !== undefined) thrown = thrown.cause;
  if (thrown instanceof SiteGenError || !(thrown instanceof Error) || !thrown.stack) return { message };
  return { message, stack: projectStack(thrown.stack, context) };
}

/** The error's message, then each cause's that it does not already quote ("Could not render /: boom" needs no "caused by: boom"). */
function messageChain(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 8; depth += 1) {
    const text = current instanceof SiteGenError ? current.message : current instanceof Error ? `${current.name}: ${current.message}` : String(current);
    const quoted = current instanceof Error ? current.message : text;
    if (!lines.some((line) => line.includes(quoted))) lines.push(depth === 0 ? text : `caused by: ${text}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}

function projectStack(stack: string, context: FailureContext): string {
  const [head, ...frames] = stack.split('\n');
  const shown = frames
    .map((frame) => frame.replace(/file:\/\//g, '').split(`${context.cache}${path.sep}`).join('').split(`${context.root}${path.sep}`).join(''))
    .filter((frame) => !/node_modules|node:internal|\(<anonymous>\)|\(native\)/.test(frame));
  return [head, ...shown].join('\n');
}

export interface ErrorPageOptions {
  /** URL of the site's full stylesheet, which styles the error screen; none when the CSS never compiled. */
  stylesheet?: string;
  /** External scripts the page loads: the reload client, so that fixing the file brings the page back. */
  scripts: string[];
  theme: 'light' | 'dark';
  lang: string;
}

/** A whole HTML document around the site's ErrorScreen, under the same CSP as the pages (no inline script or style at all). */
export function errorPage(failure: BuildFailure, options: ErrorPageOptions): string {
  const error = Object.assign(new Error(failure.message), { stack: failure.stack ?? '' });
  const a = escapeAttribute;
  return [
    '<!doctype html>',
    `<html lang="${a(options.lang)}" class="${options.theme}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy([], []))}">`,
    '<meta name="robots" content="noindex">',
    '<title>Build failed | site-gen watch</title>',
    options.stylesheet ? `<link rel="stylesheet" href="${a(options.stylesheet)}">` : '',
    ...options.scripts.map((src) => `<script type="module" src="${a(src)}"></script>`),
    '</head>',
    '<body>',
    renderToString(<ErrorScreen error={error} />),
    '</body>',
    '</html>',
    '',
  ]
    .filter(Boolean)
    .join('\n');
}
