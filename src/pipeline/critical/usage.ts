// What the kept rules use: the @font-face, @keyframes and @property rules reached through fonts, animations and var().
import type { Container, Declaration } from 'postcss';
import { unprefixed, type Selection } from './select.ts';

/** Decides which @font-face, @keyframes and @property rules the kept rules use. */
export function keepUsedDefinitions(selection: Selection): void {
  const usage = new Usage();
  for (const rule of selection.selectors.keys()) rule.walkDecls((declaration) => usage.add(declaration));
  const values = usage.resolve();

  const fontIsUsed = familyTest([...usage.fontValues, ...values]);
  for (const fontFace of selection.fontFaces) {
    const family = faceFamily(fontFace);
    // A swap face is not critical: the text paints in its fallback, and the face comes with the full stylesheet,
    // after the first paint, so its font never competes with the HTML (src/pipeline/document.ts STYLESHEET_LOADER).
    if (family && fontIsUsed(family) && !isSwapFace(fontFace.toString())) selection.definitions.add(fontFace);
  }

  const animationNames = new Set([...usage.animationValues, ...values].flatMap(identifiers));
  const inKeptKeyframes = new Usage();
  for (const keyframes of selection.keyframes) {
    if (!animationNames.has(unquote(keyframes.params.trim()))) continue;
    selection.definitions.add(keyframes);
    keyframes.walkDecls((declaration) => inKeptKeyframes.add(declaration));
  }

  inKeptKeyframes.resolve();
  const usedProperties = new Set([
    ...usage.referenced,
    ...usage.defined,
    ...inKeptKeyframes.referenced,
    ...inKeptKeyframes.defined,
  ]);
  for (const property of selection.properties) {
    if (usedProperties.has(property.params.trim())) selection.definitions.add(property);
  }
}

/**
 * Whether the declarations under `root` (a page's critical CSS, say) set a family, in font-family or font, directly
 * or through the custom properties they reference: the same test keepUsedDefinitions() applies to the kept rules.
 */
export function familiesUsedBy(root: Container): (family: string) => boolean {
  const usage = new Usage();
  root.walkDecls((declaration) => usage.add(declaration));
  const values = usage.resolve();
  return familyTest([...usage.fontValues, ...values]);
}

function familyTest(values: string[]): (family: string) => boolean {
  const used = values.flatMap(fontItems);
  return (family) => family !== '' && used.some((item) => item === family || item.endsWith(` ${family}`));
}

/** An @font-face rule's family, normalized as fontItems() gives the families a value names. */
export function faceFamily(fontFace: Container): string {
  let family = '';
  fontFace.walkDecls(/^font-family$/i, (declaration) => {
    family = normalizeFamily(declaration.value);
  });
  return family;
}

/** The woff2 files an @font-face rule's src names, in order. */
export function woff2Urls(fontFace: string): string[] {
  return [...fontFace.matchAll(/url\(\s*["']?([^"')]+\.woff2)["']?\s*\)/g)].map((match) => match[1]!);
}

/** `font-display: swap`: the face's text paints at once in its fallback and swaps when the font arrives. */
export function isSwapFace(fontFace: string): boolean {
  return /font-display\s*:\s*swap\b/i.test(fontFace);
}

/** What kept declarations use: custom properties (defined and referenced), font families, animation names. */
class Usage {
  private readonly definitions = new Map<string, string[]>();
  private readonly roots = new Set<string>();
  readonly fontValues: string[] = [];
  readonly animationValues: string[] = [];
  /** Custom properties reached through var(), directly or through other custom properties. Filled by resolve(). */
  readonly referenced = new Set<string>();

  get defined(): string[] {
    return [...this.definitions.keys()];
  }

  add(declaration: Declaration): void {
    const property = declaration.prop;
    if (property.startsWith('--')) {
      const values = this.definitions.get(property) ?? [];
      values.push(declaration.value);
      this.definitions.set(property, values);
      return;
    }
    for (const name of varReferences(declaration.value)) this.roots.add(name);
    const bare = unprefixed(property);
    if (bare === 'font-family' || bare === 'font') this.fontValues.push(declaration.value);
    if (bare === 'animation' || bare === 'animation-name') this.animationValues.push(declaration.value);
  }

  /** Follows var() from the declarations through the custom properties they reference; returns those values. */
  resolve(): string[] {
    const queue = [...this.roots];
    const values: string[] = [];
    while (queue.length > 0) {
      const name = queue.shift()!;
      if (this.referenced.has(name)) continue;
      this.referenced.add(name);
      for (const value of this.definitions.get(name) ?? []) {
        values.push(value);
        queue.push(...varReferences(value));
      }
    }
    return values;
  }
}

function varReferences(value: string): string[] {
  return [...value.matchAll(/var\(\s*(--[^\s,)]+)/g)].map((match) => match[1]!);
}

/** The comma-separated items of a font value, unquoted and lower-cased: `700 1rem/1.2 "Anton", serif` -> ['700 1rem/1.2 anton', 'serif']. */
function fontItems(value: string): string[] {
  return value.split(/[,()]/).map(normalizeFamily).filter(Boolean);
}

function normalizeFamily(value: string): string {
  return value.replace(/["']/g, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function identifiers(value: string): string[] {
  return value
    .split(/[\s,()]+/)
    .filter(Boolean)
    .map(unquote);
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
