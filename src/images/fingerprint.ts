// A fingerprint of the image files a site's pages may show: part of each kept page's key, so replacing one renders again.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const IMAGE = /\.(jpe?g|png|webp|avif)$/i;

/** Every image file under `dirs` with its size and modification time (no bytes read: this runs on every build). */
export function imagesFingerprint(dirs: string[]): string {
  const parts: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
    } catch {
      continue;
    }
    for (const name of names.filter((file) => IMAGE.test(file)).sort()) {
      const info = statSync(join(dir, name), { throwIfNoEntry: false });
      if (info) parts.push(`${join(dir, name)}:${info.size}:${info.mtimeMs}`);
    }
  }
  return parts.join('\n');
}
