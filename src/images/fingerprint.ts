// The image files a site's pages may show, each by its size and modification time: a page that showed one is rendered
// again when it is replaced, and only such a page.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const IMAGE = /\.(jpe?g|png|webp|avif)$/i;

/**
 * Every image file under `dirs`, by its path relative to `root`, with its size and modification time (no bytes read:
 * this runs on every build). A plain object without prototype: a build's renders read it through the content tracker,
 * one file each (see Pipeline#imageReader), so a replaced file renders again the pages that showed it.
 */
export function imageFingerprints(root: string, dirs: string[]): Record<string, string> {
  const found: Record<string, string> = Object.create(null);
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const name of names.filter((file) => IMAGE.test(file)).sort()) {
      const info = statSync(join(dir, name), { throwIfNoEntry: false });
      if (info) found[relative(root, join(dir, name))] = `${info.size}:${info.mtimeMs}`;
    }
  }
  return found;
}
