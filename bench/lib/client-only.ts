// Builds the client-only comparison: per route an empty HTML shell, one esbuild bundle that renders the same
// components with createRoot, and the same stylesheet as a plain (render-blocking) <link>.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { routeFile } from '../../src/pipeline/route-plan.ts';
import { Compressor } from '../../src/pipeline/compress.ts';
import { loadConfig } from '../../src/pipeline/load-config.ts';
import { compileStylesheet } from '../../src/pipeline/css.ts';
import { browserBuildOptions } from '../../src/pipeline/bundle.ts';
import { projectPaths } from '../../src/core/paths.ts';
import { escapeAttribute } from '../../src/pipeline/render.tsx';
import { loadSite, validateContent } from '../../src/pipeline/site-module.ts';
import { esbuildTargets, resolveBrowsers } from '../../src/pipeline/targets.ts';
import { readTree, withPrecompressed, writeOutput, type OutputFiles } from '../../src/pipeline/write.ts';
import type { SiteInfo } from '../../src/core/config.ts';
import type { PageHead } from '../../src/core/routes.ts';
import { resolveRoutes } from '../../src/content/routes.ts';
import type { Theme } from '../../content/schema.ts';

const entry = join(dirname(fileURLToPath(import.meta.url)), '../client/entry.tsx');

export interface ClientOnlyBuild {
  pages: Array<{ path: string; file: string }>;
  bundle: string;
  stylesheet: string;
}

function hashOf(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 8);
}

/** The shell every route gets: head tags a client-side app ships in its index.html, and an empty root. */
export function shell(site: SiteInfo, theme: Theme, head: PageHead, stylesheet: string, script: string): string {
  const title = head.title === site.name ? site.name : `${head.title} | ${site.name}`;
  const a = escapeAttribute;
  return [
    '<!doctype html>',
    `<html lang="${a(site.lang)}" class="${theme.default === 'light' ? 'light' : 'dark'}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${a(title)}</title>`,
    `<meta name="description" content="${a(head.description ?? site.description)}">`,
    `<meta name="theme-color" content="${a(theme.colors[theme.default === 'light' ? 'light' : 'dark'])}">`,
    `<link rel="icon" href="${a(site.favicon)}"${site.favicon.endsWith('.svg') ? ' type="image/svg+xml"' : ''}>`,
    `<link rel="stylesheet" href="/${a(stylesheet)}">`,
    `<script type="module" src="/${a(script)}"></script>`,
    '</head>',
    '<body>',
    '<div id="root"></div>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

export async function buildClientOnly(options: { config: string; out: string }): Promise<ClientOnlyBuild> {
  const paths = projectPaths(options.config);
  const config = await loadConfig(paths.config);
  const site = await loadSite(paths);
  // Validated exactly as the build does, then shipped as data: a client-side app bundles its content, not its schemas.
  const content = validateContent(paths, site);
  const data: Plugin = {
    name: 'bench-site-data',
    setup(b) {
      b.onResolve({ filter: /^bench:site-data$/ }, () => ({ path: 'site-data', namespace: 'bench' }));
      b.onLoad({ filter: /.*/, namespace: 'bench' }, () => ({ contents: JSON.stringify({ site: config.site, content }), loader: 'json' }));
    },
  };

  const browser = browserBuildOptions(paths.root, esbuildTargets(resolveBrowsers(config.build.browserslist)));
  const result = await build({
    ...browser,
    entryPoints: [entry],
    outdir: 'out',
    plugins: [data, ...browser.plugins],
  });
  const code = result.outputFiles.find((f) => f.path.endsWith('.js'))!.contents;
  const bundle = `assets/app-${hashOf(code)}.js`;

  const css = await compileStylesheet({ entry: paths.stylesheet, browserslist: config.build.browserslist, base: '/' });
  const stylesheet = `assets/site-${hashOf(css.css)}.css`;

  const files: OutputFiles = await readTree(paths.public);
  files.set(bundle, code);
  files.set(stylesheet, css.css);
  for (const asset of css.assets) files.set(asset.fileName, asset.source);
  const pages = resolveRoutes(site.routes, content, paths.routes).map((route) => {
    const file = routeFile(route);
    const head = route.head({ site: config.site, content, path: route.path });
    files.set(file, shell(config.site, (content as { theme: Theme }).theme, head, stylesheet, bundle));
    return { path: route.path, file };
  });
  await writeOutput(options.out, await withPrecompressed(files, new Compressor()));
  return { pages, bundle, stylesheet };
}
