// Highlights fenced code at build time with Shiki: one highlighter per process, loaded with only the languages used,
// and tokens written as classes (the strict CSP forbids style="" attributes; code.css colours them, light and dark).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { HighlighterCore, LanguageInput } from 'shiki/core';

const THEME = 'site-gen';
let highlighter: Promise<HighlighterCore> | undefined;

/**
 * Shiki's core, its Oniguruma engine and its language list, rather than its full bundle: the bundle also loads the
 * JavaScript regular-expression engine, and its engine decodes the WebAssembly from base64 and looks up the global
 * `Response` (which loads Node's fetch). Each costs a worker thread's start (see markdown-pool.ts) tens of ms.
 */
async function load(): Promise<HighlighterCore> {
  const [{ createHighlighterCore, createCssVariablesTheme }, { createOnigurumaEngine }, wasm] = await Promise.all([
    import('shiki/core'),
    import('shiki/engine/oniguruma'),
    readFile(fileURLToPath(import.meta.resolve('shiki/onig.wasm'))),
  ]);
  // A theme whose colours are CSS variables by token kind: each token's kind becomes its class.
  const theme = createCssVariablesTheme({ name: THEME, variablePrefix: '--code-', fontStyle: true });
  const engine = createOnigurumaEngine({ instantiator: (imports) => WebAssembly.instantiate(wasm, imports) });
  return createHighlighterCore({ themes: [theme], langs: [], engine });
}

/** Shiki's languages by name and alias, each a function that imports its grammar. */
async function bundled(): Promise<Record<string, LanguageInput>> {
  return (await import('shiki/langs')).bundledLanguages;
}

/** Resolves a fence's language to one Shiki knows ("ts", "shell"), or undefined for none or an unknown one. */
export async function knownLanguage(lang: string): Promise<string | undefined> {
  if (!lang) return undefined;
  return Object.hasOwn(await bundled(), lang) ? lang : undefined;
}

/** The highlighter with every language of `langs` loaded (those Shiki knows); each grammar is loaded once. */
export async function highlighterFor(langs: Iterable<string>): Promise<CodeHighlighter> {
  highlighter ??= load();
  const shiki = await highlighter;
  const loaded = new Set(shiki.getLoadedLanguages());
  const wanted: string[] = [];
  for (const lang of langs) {
    const known = await knownLanguage(lang);
    if (known && !loaded.has(known)) wanted.push(known);
  }
  if (wanted.length > 0) {
    const languages = await bundled();
    await shiki.loadLanguage(...wanted.map((lang) => languages[lang]!));
  }
  const available = new Set(shiki.getLoadedLanguages());
  return {
    highlight(code, lang) {
      if (!available.has(lang)) return plainBlock(code, lang);
      // No time limit: on a busy machine a line would stop being tokenized halfway, and the same page build differently.
      const lines = shiki.codeToTokensBase(code.replace(/\n$/, ''), { lang, theme: THEME, tokenizeTimeLimit: 0 });
      const body = lines
        .map(
          (line) =>
            `<span class="line">${line
              .map((token) => {
                const classes = tokenClasses(token.color, token.fontStyle);
                const text = escapeHtml(token.content);
                return classes ? `<span class="${classes}">${text}</span>` : text;
              })
              .join('')}</span>`,
        )
        .join('\n');
      return `<pre class="code" data-lang="${escapeHtml(lang)}"><code>${body}</code></pre>`;
    },
  };
}

export interface CodeHighlighter {
  /** The block as HTML with classes only: `<pre class="code"><code>` of `.line` spans. */
  highlight(code: string, lang: string): string;
}

/** A block in no known language: escaped, in the same frame as highlighted code. */
export function plainBlock(code: string, lang = ''): string {
  const attribute = lang ? ` data-lang="${escapeHtml(lang)}"` : '';
  return `<pre class="code"${attribute}><code>${escapeHtml(code.replace(/\n$/, ''))}</code></pre>`;
}

/** "tk-keyword" from the theme's "var(--code-token-keyword)"; plus "ti", "tb", "tu" for italic, bold, underline. */
export function tokenClasses(color: string | undefined, fontStyle: number | undefined): string {
  const classes: string[] = [];
  const kind = /^var\(--code-token-([a-z-]+)\)$/.exec(color ?? '')?.[1];
  if (kind) classes.push(`tk-${kind}`);
  const style = fontStyle ?? 0;
  if (style > 0) {
    if (style & 1) classes.push('ti');
    if (style & 2) classes.push('tb');
    if (style & 4) classes.push('tu');
  }
  return classes.join(' ');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
