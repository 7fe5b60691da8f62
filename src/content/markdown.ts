// Markdown to HTML with markdown-it (CommonMark, GFM tables, strikethrough, autolinks, task lists, footnotes): heading
// ids, code highlighted by classes, local images as responsive pictures, and raw HTML that would break the CSP refused.
import { dirname, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { Parser } from 'htmlparser2';
import MarkdownIt, { type PluginSimple } from 'markdown-it';
import footnote from 'markdown-it-footnote';
import { tasklist } from '@mdit/plugin-tasklist';
import type Token from 'markdown-it/lib/token.mjs';
import { SiteGenError } from '../core/errors.ts';
import { detached } from '../core/strings.ts';
import { pictureHtml, planImage, type ImageJob, type ImageSource } from '../images/plan.ts';
import type { Heading } from './collection.ts';
import { type CodeHighlighter, plainBlock } from './highlight.ts';

export interface MarkdownProblem {
  /** Line in the Markdown file (1-based). */
  line: number;
  message: string;
}

export interface RenderedMarkdown {
  html: string;
  headings: Heading[];
  links: string[];
  images: ImageJob[];
  problems: MarkdownProblem[];
}

export interface MarkdownFile {
  /** Absolute path: images are found relative to it. */
  file: string;
  /** The line the body starts on, so that problems name the file's own lines. */
  bodyLine: number;
  /** Reads an image file (absolute path); throws an error naming `shown` if it is missing or unreadable. */
  readImage(file: string, shown: string): ImageSource;
  /** How pictures are shown (site.config.ts's `markdown.images`): see MarkdownImages. */
  pictures?: MarkdownImages;
}

/**
 * How the pictures of Markdown bodies are shown: `width`, the CSS pixels of the column they sit in (a picture narrower
 * than that keeps its own width), and `sizes`; by default the file's width up to 1,200 and sizes made from it.
 */
export interface MarkdownImages {
  width?: number;
  sizes?: string;
}

interface Env extends MarkdownFile {
  slugger: GithubSlugger;
  headings: Heading[];
  links: string[];
  images: ImageJob[];
  problems: MarkdownProblem[];
  highlighter?: CodeHighlighter;
}

/** A URL that runs script when followed. */
const SCRIPT_URL = /^\s*(?:javascript|vbscript):/i;

const markdown = createMarkdown();

function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: true, typographer: false });
  // markdown-it-footnote's types are those of markdown-it 13: the plugin itself works with 14.
  md.use(footnote as unknown as PluginSimple).use(tasklist, { disabled: true });
  // markdown-it leaves [a link](javascript:…) as the text typed, which the page would show: made a link here, for the
  // rule below to fail the build on it, naming the line.
  const validLink = md.validateLink.bind(md);
  md.validateLink = (url) => SCRIPT_URL.test(url) || validLink(url);
  md.core.ruler.push('site_gen_lines', (state) => {
    const env = state.env as Env;
    state.tokens.forEach((token, index) => {
      if (token.type === 'heading_open') {
        const inline = state.tokens[index + 1]!;
        const text = (inline.children ?? [])
          .filter((child) => child.type === 'text' || child.type === 'code_inline')
          .map((child) => child.content)
          .join('');
        const id = env.slugger.slug(text);
        token.attrSet('id', id);
        // Kept with the entry to the build's end: a copy, not a slice of the body (see detached). The id is new already.
        env.headings.push({ depth: Number(token.tag.slice(1)), id, text: detached(text) });
      }
      if (token.type !== 'inline' || !token.children) return;
      // The body's first block: a picture there is on the page's first screen.
      const first = index === 1 && state.tokens[0]!.type === 'paragraph_open';
      for (const child of token.children) {
        // Only the rules of images and inline HTML read where their token is (a copy for each token costs much).
        if (child.type === 'image' || child.type === 'html_inline')
          child.meta = { ...child.meta, line: token.map?.[0] ?? 0, first };
        if (child.type === 'link_open') {
          const href = child.attrGet('href') ?? '';
          if (SCRIPT_URL.test(href))
            env.problems.push({
              line: env.bodyLine + (token.map?.[0] ?? 0),
              message: `the link to "${href}" runs script, which the site's CSP blocks; link to a page`,
            });
          if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) env.links.push(href);
        }
      }
    });
  });
  md.renderer.rules.fence = (tokens, index, _options, env: Env) => {
    const token = tokens[index]!;
    const lang = token.info.trim().split(/\s+/)[0] ?? '';
    return `${env.highlighter ? env.highlighter.highlight(token.content, lang) : plainBlock(token.content, lang)}\n`;
  };
  md.renderer.rules.image = (tokens, index, options, env: Env, self) => {
    const token = tokens[index]!;
    const src = token.attrGet('src') ?? '';
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const line = env.bodyLine + (token.meta?.line ?? 0);
    const problem = (message: string) => {
      env.problems.push({ line, message });
      return '';
    };
    if (!alt.trim())
      return problem(`the image "${src}" has no alt text; write what it shows: ![a red bicycle](${src})`);
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src) || src.startsWith('/'))
      return problem(
        `the image "${src}" is not a file beside the entry; save it next to the .md file and write ![…](./name.jpg)`,
      );
    let source: ImageSource;
    try {
      source = env.readImage(resolve(dirname(env.file), decodeURIComponent(src)), `image "${src}"`);
    } catch (error) {
      return problem(error instanceof SiteGenError ? error.message : String(error));
    }
    const { width, sizes } = env.pictures ?? {};
    const planned = planImage(source, { base: '/', width: width && Math.min(width, source.width), sizes });
    env.images.push(...planned.jobs);
    return pictureHtml(planned, { alt, firstScreen: token.meta?.first === true });
  };
  const checkHtml = (html: string, line: number, env: Env) => {
    for (const problem of unsafeHtml(html)) env.problems.push({ line: line + problem.line, message: problem.message });
    return html;
  };
  md.renderer.rules.html_block = (tokens, index, _options, env: Env) =>
    checkHtml(tokens[index]!.content, env.bodyLine + (tokens[index]!.map?.[0] ?? 0), env);
  md.renderer.rules.html_inline = (tokens, index, _options, env: Env) =>
    checkHtml(tokens[index]!.content, env.bodyLine + (tokens[index]!.meta?.line ?? 0), env);
  return md;
}

/** Raw HTML the site's Content-Security-Policy would block or that runs script: each with its line within `html`. */
export function unsafeHtml(html: string): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  const parser: Parser = new Parser({
    onopentag(name, attributes) {
      const line = html.slice(0, parser.startIndex).split('\n').length - 1;
      const tag = `<${name}>`;
      if (name === 'script')
        problems.push({
          line,
          message: `${tag} runs script, which the site's CSP blocks; Markdown cannot carry scripts (use an island)`,
        });
      if (name === 'style')
        problems.push({
          line,
          message: `${tag} is inline CSS, which the site's CSP blocks; move the rules to the stylesheet`,
        });
      for (const [attribute, value] of Object.entries(attributes)) {
        if (/^on/i.test(attribute))
          problems.push({
            line,
            message: `${tag} has an ${attribute}= handler, which the site's CSP blocks; remove it (use an island for behaviour)`,
          });
        if (attribute.toLowerCase() === 'style')
          problems.push({
            line,
            message: `${tag} has a style= attribute, which the site's CSP blocks; use a class and the stylesheet`,
          });
        if ((attribute === 'href' || attribute === 'src') && SCRIPT_URL.test(value))
          problems.push({ line, message: `${tag} has a javascript: URL, which the site's CSP blocks; link to a page` });
      }
    },
  });
  parser.end(html);
  return problems;
}

/** The languages named by the body's code fences (a superset is harmless: it only loads a grammar more). */
export function fenceLanguages(body: string): string[] {
  return [...body.matchAll(/^[ \t]{0,3}(?:`{3,}|~{3,})[ \t]*([^\s`{]+)/gm)].map((match) => match[1]!);
}

/** The body parsed, before rendering. */
export function parseMarkdown(body: string, file: MarkdownFile): { tokens: Token[]; env: Env } {
  const env: Env = { ...file, slugger: new GithubSlugger(), headings: [], links: [], images: [], problems: [] };
  return { tokens: markdown.parse(body, env), env };
}

/** Renders what `parseMarkdown` parsed. */
export function renderParsed(parsed: { tokens: Token[]; env: Env }, highlighter?: CodeHighlighter): RenderedMarkdown {
  const { env } = parsed;
  env.highlighter = highlighter;
  // A string of its own: the renderer joins pieces cut from the body, each of which holds the whole body (see detached).
  const html = detached(markdown.renderer.render(parsed.tokens, markdown.options, env));
  return { html, headings: env.headings, links: env.links, images: env.images, problems: env.problems };
}
