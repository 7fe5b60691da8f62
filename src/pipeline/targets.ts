// Turns the config's browserslist queries into esbuild targets and lightningcss targets.
import { browserslist } from './commonjs.ts';
import { ConfigError } from '../core/errors.ts';

const ESBUILD_NAMES: Record<string, string> = {
  chrome: 'chrome',
  and_chr: 'chrome',
  edge: 'edge',
  firefox: 'firefox',
  and_ff: 'firefox',
  safari: 'safari',
  ios_saf: 'ios',
  opera: 'opera',
};

/** The one check of the config's browserslist queries, for the CSS and the JavaScript alike. */
export function resolveBrowsers(queries: string[]): string[] {
  try {
    return browserslist(queries);
  } catch (error) {
    const reason = (error as Error).message.replace(/\.?$/, '.');
    throw new ConfigError(
      `site.config.ts: build.browserslist (${JSON.stringify(queries)}) is not a valid browserslist query: ${reason} ` +
        'Use queries such as "defaults" or "last 2 versions" (https://browsersl.ist).',
      { cause: error },
    );
  }
}

/** esbuild's target list: the oldest version of each engine it knows. */
export function esbuildTargets(browsers: string[]): string[] {
  const oldest = new Map<string, number[]>();
  for (const entry of browsers) {
    const [name, range] = entry.split(' ');
    const engine = ESBUILD_NAMES[name!];
    if (!engine || !range) continue;
    const version = range.split('-')[0]!.split('.').map(Number);
    if (version.some(Number.isNaN)) continue;
    const seen = oldest.get(engine);
    if (!seen || compare(version, seen) < 0) oldest.set(engine, version);
  }
  return [...oldest].map(([engine, v]) => `${engine}${v.join('.')}`).sort();
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
