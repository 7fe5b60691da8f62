// Selects a page's critical CSS: the rules of the compiled stylesheet that match its server-rendered HTML, and what they use.
// Split by job: critical/select.ts (which rules), critical/match.ts and selectors.ts (does a selector match the page),
// critical/deferred.ts (what first paint skips), critical/usage.ts (what the kept rules use), critical/serialize.ts (the CSS text), critical/shape.ts (pages alike).
import { parse, type AtRule, type Root, type Rule } from 'postcss';
import { CssError } from '../core/errors.ts';
import { skippedAtFirstPaint } from './critical/deferred.ts';
import { PageMatcher } from './critical/match.ts';
import { isKeyframes, select, type PreparedSheet, type Selection } from './critical/select.ts';
import { splitTopLevel, stripDynamic } from './critical/selectors.ts';
import { serialize } from './critical/serialize.ts';
import { faceFamily, familiesUsedBy, isSwapFace, keepUsedDefinitions, woff2Urls } from './critical/usage.ts';

export { stripDynamic };

export interface CriticalCssOptions {
  /**
   * Class sets <html> is given in turn when matching, so that the rules of every theme a visitor may switch to
   * before the full stylesheet arrives are critical too. Default [['dark'], ['light']].
   */
  rootClassVariants?: string[][];
}

/**
 * The subset of `css` that the page `html` needs for its first paint, compacted.
 *
 * `html` is the whole document or only what goes inside its <body> (renderToString's output), which is then
 * matched as if inside `<html><body>`, so rules for `:root`, `html` and `body` apply.
 *
 * `css` is expected to be compileStylesheet()'s output (nesting lowered); nested rules, if any, are kept or dropped
 * with their parent. The compaction keeps every value as lightningcss printed it, so the fallbacks it generated for
 * older browsers survive (re-minifying without targets would merge them away). The parsed stylesheet is reused
 * while successive calls pass the same CSS, as a build does for each of its pages.
 */
export function criticalCss(css: string, html: string, options: CriticalCssOptions = {}): string {
  const sheet = prepare(css);
  const matcher = new PageMatcher(html, options.rootClassVariants ?? [['dark'], ['light']]);
  // What the browser skips at first paint (content-visibility: auto) needs no critical CSS: the full stylesheet,
  // added at first contentful paint, styles it before it comes into view.
  matcher.skipInside(skippedAtFirstPaint(sheet, matcher));
  matcher.evaluate(sheet.queries);

  const selection: Selection = {
    selectors: new Map(),
    fontFaces: [],
    keyframes: [],
    properties: [],
    definitions: new Set(),
  };
  select(sheet.root, sheet, matcher, selection);
  keepUsedDefinitions(selection);
  return serialize(sheet.root.nodes, selection);
}

/**
 * The woff2 files of the stylesheet's swap faces whose family the page's critical CSS uses: the fonts its first
 * screen swaps to, which the stylesheet loader fetches with the stylesheet after the first paint and applies with it
 * (src/pipeline/document.ts STYLESHEET_LOADER). Faces of families only used further down are left to the browser, which
 * fetches them when it lays that text out. Kept per critical CSS while the stylesheet stays the same: pages of one
 * shape share theirs.
 */
export function fontsAfterPaint(css: string, critical: string): string[] {
  if (afterPaint.css !== css) afterPaint = { css, byCritical: new Map() };
  let urls = afterPaint.byCritical.get(critical);
  if (urls) return urls;
  const swapFaces: AtRule[] = [];
  prepare(css).root.walkAtRules(/^font-face$/i, (face) => {
    if (isSwapFace(face.toString())) swapFaces.push(face);
  });
  const isUsed = swapFaces.length > 0 ? familiesUsedBy(parse(critical)) : () => false;
  urls = [
    ...new Set(swapFaces.filter((face) => isUsed(faceFamily(face))).flatMap((face) => woff2Urls(face.toString()))),
  ];
  afterPaint.byCritical.set(critical, urls);
  return urls;
}

let afterPaint: { css: string; byCritical: Map<string, string[]> } = { css: '', byCritical: new Map() };

let lastSheet: PreparedSheet | undefined;

function prepare(css: string): PreparedSheet {
  if (lastSheet?.css === css) return lastSheet;
  let root: Root;
  try {
    root = parse(css);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CssError(
      `Could not parse the compiled stylesheet to select a page's critical CSS: ${reason}. ` +
        'The stylesheet comes from compileStylesheet(); check its output and report this as a site-gen bug.',
      { cause: error },
    );
  }
  const rules = new Map<Rule, { selectors: string[]; queries: string[] }>();
  root.walkRules((rule) => {
    // Rules nested in a style rule (or the frames of @keyframes) are decided with their parent.
    if (rule.parent?.type === 'rule' || isKeyframes(rule.parent)) return;
    const selectors = splitTopLevel(rule.selector, ',');
    rules.set(rule, { selectors, queries: selectors.map(stripDynamic) });
  });
  const queries = [...new Set([...rules.values()].flatMap((rule) => rule.queries))];
  lastSheet = { css, root, rules, queries };
  return lastSheet;
}
