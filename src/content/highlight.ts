// Highlights fenced code at build time with Shiki: one highlighter per process, loaded with only the languages used,
// and tokens written as classes (the strict CSP forbids style="" attributes; code.css colours them, light and dark).
import type { Highlighter, HighlighterGeneric } from 'shiki';

const THEME = 'site-gen';
/** Languages and the theme are named at run time (a fence's info string), not from Shiki's list of literals. */
type AnyHighlighter = HighlighterGeneric<string, string>;
let highlighter: Promise<AnyHighlighter> | undefined;

async function load(): Promise<AnyHighlighter> {
  const { createHighlighter, createCssVariablesTheme } = await import('shiki');
  // A theme whose colours are CSS variables by token kind: each token's kind becomes its class.
  const theme = createCssVariablesTheme({ name: THEME, variablePrefix: '--code-', fontStyle: true });
  return (await createHighlighter({ themes: [theme], langs: [] })) as unknown as AnyHighlighter;
}

/** Resolves a fence's language to one Shiki knows ("ts", "shell"), or undefined for none or an unknown one. */
export async function knownLanguage(lang: string): Promise<string | undefined> {
  if (!lang) return undefined;
  const { bundledLanguages } = await import('shiki');
  return lang in bundledLanguages ? lang : undefined;
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
  if (wanted.length > 0)
    await (shiki as unknown as Highlighter).loadLanguage(...(wanted as Parameters<Highlighter['loadLanguage']>));
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
