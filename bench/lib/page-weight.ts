// What a built page weighs, read from the output folder: the document (inline CSS included), its stylesheets, its
// JavaScript graph (followed with esbuild's parser), and the requests its HTML makes the browser send.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { parseHTML } from 'linkedom';
import { brotli, byteLength, gzip } from '../../src/pipeline/compress.ts';

export interface Bytes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface StaticRequest {
  url: string;
  kind: 'document' | 'stylesheet' | 'script' | 'modulepreload' | 'preload' | 'image' | 'import';
  /** Holds back first paint: a stylesheet for the screen, or a classic script without async/defer in <head>. */
  renderBlocking: boolean;
}

export interface PageWeight {
  path: string;
  file: string;
  /** The HTML document as sent, inline <style> and <script> included. */
  html: Bytes;
  inlineCss: Bytes;
  /** External stylesheets the page links (not those inside <noscript>). */
  stylesheets: Array<{ url: string; renderBlocking: boolean; bytes: Bytes }>;
  /** Output-relative paths of the JS the page fetches at load (scripts, module preloads, their static imports)... */
  jsAtLoad: string[];
  /** ...and of the JS it loads later without any interaction (dynamic imports: islands). */
  jsLazy: string[];
  /** What the HTML alone makes the browser fetch before the load event (fonts and CSS images are not in the HTML). */
  requests: StaticRequest[];
}

const weigh = (data: Uint8Array | string): Bytes =>
  byteLength(data) === 0 ? { raw: 0, gzip: 0, brotli: 0 } : { raw: byteLength(data), gzip: gzip(data).byteLength, brotli: brotli(data).byteLength };

/** Output-relative path of a same-site URL ("/assets/x.js" -> "assets/x.js"); null for other origins. */
function localPath(url: string, base: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) return null;
  const path = url.split(/[?#]/)[0]!;
  return path.startsWith(base) ? path.slice(base.length) : path.replace(/^\//, '');
}

function isScreenMedia(media: string | null): boolean {
  const m = (media ?? '').trim().toLowerCase();
  return m === '' || !/^(print|not all|none)$/.test(m);
}

export async function weighPage(outDir: string, page: { path: string; file: string }, base = '/'): Promise<PageWeight> {
  const html = await readFile(join(outDir, page.file), 'utf8');
  const { document } = parseHTML(html);
  const outside = (el: Element) => !el.closest('noscript');
  const all = (selector: string) => [...document.querySelectorAll(selector)].filter(outside);
  const requests: StaticRequest[] = [{ url: page.path, kind: 'document', renderBlocking: false }];

  const inlineCss = all('style').map((s) => s.textContent ?? '').join('');
  const stylesheets = [];
  for (const link of all('link[rel~="stylesheet"][href]')) {
    const url = link.getAttribute('href')!;
    const renderBlocking = isScreenMedia(link.getAttribute('media'));
    requests.push({ url, kind: 'stylesheet', renderBlocking });
    const local = localPath(url, base);
    const data = local ? await readFile(join(outDir, local)).catch(() => undefined) : undefined;
    stylesheets.push({ url, renderBlocking, bytes: data ? weigh(data) : { raw: 0, gzip: 0, brotli: 0 } });
  }

  const entries: string[] = [];
  for (const script of all('script[src]')) {
    const url = script.getAttribute('src')!;
    const module = script.getAttribute('type') === 'module';
    const deferred = module || script.hasAttribute('async') || script.hasAttribute('defer');
    requests.push({ url, kind: 'script', renderBlocking: !deferred && !!script.closest('head') });
    const local = localPath(url, base);
    if (local) entries.push(local);
  }
  // site-gen's runtime entry: imported by the inline capture script after the load event (src/runtime/capture.ts).
  for (const script of all('script[data-entry]')) {
    const url = script.getAttribute('data-entry')!;
    requests.push({ url, kind: 'script', renderBlocking: false });
    const local = localPath(url, base);
    if (local) entries.push(local);
  }
  for (const link of all('link[rel~="modulepreload"][href], link[rel~="preload"][href]')) {
    const url = link.getAttribute('href')!;
    const modulepreload = link.getAttribute('rel')!.includes('modulepreload');
    requests.push({ url, kind: modulepreload ? 'modulepreload' : 'preload', renderBlocking: false });
    const local = localPath(url, base);
    // A preloaded module is fetched at load even when only a dynamic import uses it (a `load` island).
    if (modulepreload && local) entries.push(local);
  }
  for (const img of all('img[src]')) {
    if (img.getAttribute('loading') !== 'lazy') requests.push({ url: img.getAttribute('src')!, kind: 'image', renderBlocking: false });
  }

  const graph = await jsGraph(outDir, [...new Set(entries)], base);
  const requested = new Set(requests.map((r) => localPath(r.url, base)));
  for (const file of graph.atLoad) if (!requested.has(file)) requests.push({ url: base + file, kind: 'import', renderBlocking: false });
  // The browser fetches a URL once however often the page names it (an image repeated in a marquee).
  const unique = [...new Map(requests.map((r) => [r.url, r])).values()];

  return {
    path: page.path,
    file: page.file,
    html: weigh(html),
    inlineCss: weigh(inlineCss),
    stylesheets,
    jsAtLoad: graph.atLoad,
    jsLazy: graph.lazy,
    requests: unique,
  };
}

/** The JS files reachable from the entries: by static imports (fetched at load) and through dynamic imports (later). */
export async function jsGraph(outDir: string, entries: string[], base = '/'): Promise<{ atLoad: string[]; lazy: string[] }> {
  if (entries.length === 0) return { atLoad: [], lazy: [] };
  // Built files import each other by URL ("/assets/chunks/x.js"): map those onto the output folder.
  const urls: Plugin = {
    name: 'bench-output-urls',
    setup(b) {
      // Registered first, so it wins for "//host/x.js" (esbuild's Go regexps have no lookahead).
      b.onResolve({ filter: /^[a-z][a-z0-9+.-]*:|^\/\// }, (args) => ({ path: args.path, external: true }));
      b.onResolve({ filter: /^\// }, (args) => (args.kind === 'entry-point' ? undefined : { path: join(outDir, localPath(args.path, base)!) }));
    },
  };
  const result = await build({
    entryPoints: entries.map((e) => join(outDir, e)),
    bundle: true,
    splitting: true,
    format: 'esm',
    write: false,
    metafile: true,
    outdir: join(outDir, '.bench-graph'),
    absWorkingDir: outDir,
    logLevel: 'silent',
    plugins: [urls],
  });
  const imports = new Map(Object.entries(result.metafile.inputs).map(([file, input]) => [file, input.imports]));
  const atLoad = new Set<string>();
  const lazyRoots = new Set<string>();
  const walk = (file: string, into: Set<string>) => {
    if (into.has(file)) return;
    into.add(file);
    for (const imp of imports.get(file) ?? []) {
      if (imp.external) continue;
      if (imp.kind === 'dynamic-import') lazyRoots.add(imp.path);
      else walk(imp.path, into);
    }
  };
  for (const entry of entries) walk(entry, atLoad);
  const lazy = new Set<string>();
  // A Set's iterator also visits what the walk adds: dynamic imports found inside lazy chunks.
  for (const root of lazyRoots) walk(root, lazy);
  return { atLoad: [...atLoad].sort(), lazy: [...lazy].filter((f) => !atLoad.has(f)).sort() };
}

export interface JsSplit {
  /** Every file the page loads without interaction (at load and lazily). */
  total: Bytes & { files: number };
  atLoad: Bytes & { files: number };
  /** Files no other measured page loads. */
  pageOnly: Bytes & { files: number };
  /** Files at least one other measured page loads too (cached after the first page). */
  shared: Bytes & { files: number };
}

/** Splits each page's JS into what only it loads and what it shares with the other pages of the same site. */
export async function splitJs(outDir: string, pages: PageWeight[]): Promise<Map<string, JsSplit>> {
  const users = new Map<string, number>();
  for (const page of pages) for (const file of new Set([...page.jsAtLoad, ...page.jsLazy])) users.set(file, (users.get(file) ?? 0) + 1);
  const sizes = new Map<string, Bytes>();
  for (const file of users.keys()) sizes.set(file, weigh(await readFile(join(outDir, file))));
  const sum = (files: string[]) =>
    files.reduce((acc, f) => ({ raw: acc.raw + sizes.get(f)!.raw, gzip: acc.gzip + sizes.get(f)!.gzip, brotli: acc.brotli + sizes.get(f)!.brotli, files: acc.files + 1 }), { raw: 0, gzip: 0, brotli: 0, files: 0 });
  return new Map(
    pages.map((page) => {
      const all = [...new Set([...page.jsAtLoad, ...page.jsLazy])];
      return [
        page.path,
        {
          total: sum(all),
          atLoad: sum(page.jsAtLoad),
          pageOnly: sum(all.filter((f) => users.get(f) === 1)),
          shared: sum(all.filter((f) => users.get(f)! > 1)),
        },
      ];
    }),
  );
}
