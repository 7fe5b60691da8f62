// The HTTP headers each deployed file is stored with: Content-Type, Cache-Control, and whether gzip suits it.
import mime from 'mime';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';

const HTML_TYPE = 'text/html; charset=utf-8';
const FALLBACK_TYPE = 'application/octet-stream';

// The build writes these as UTF-8; saying so spares browsers a guess.
const UTF8_TYPES = new Set(['application/javascript', 'application/json', 'application/manifest+json', 'application/xml']);
// Already-compressed formats gain nothing from gzip.
const COMPRESSIBLE_TYPES = new Set([...UTF8_TYPES, 'image/svg+xml', 'image/vnd.microsoft.icon', 'application/wasm']);

// esbuild names outputs `<name>-<HASH>` with 8 uppercase characters (base32: A-Z, 2-7); the CSS step uses 8 of lowercase hex.
// When unsure, say unhashed: a false "hashed" makes a file that can change under its name immutable in browsers for a
// year, a false "unhashed" only costs a revalidation.
const HASHED_NAME = /-([A-Z0-9]{8}|[a-f0-9]{8,64})(?:\.[A-Za-z0-9]+)+$/;

/**
 * A file under assets/ whose name carries a content hash (assets/home-3f9a1c2b.js, assets/chunks/react-AB12CD34.js):
 * its content never changes under that name.
 */
export function isHashedAsset(path: string): boolean {
  if (!path.startsWith('assets/')) return false;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const match = HASHED_NAME.exec(name);
  if (!match) return false;
  const hash = match[1]!;
  // Digits alone look like a date (photo-20240101.jpg), lowercase letters alone like a word (-facadeee).
  return /[A-Z]/.test(hash) || (/[a-f]/.test(hash) && /[0-9]/.test(hash));
}

export function contentTypeFor(path: string): string {
  const type = mime.getType(path);
  if (!type) return FALLBACK_TYPE;
  if (type === 'text/html') return HTML_TYPE;
  if (type.startsWith('text/') || UTF8_TYPES.has(type)) return `${type}; charset=utf-8`;
  return type;
}

export function cacheControlFor(path: string): string {
  return isHashedAsset(path) ? CACHE_IMMUTABLE : CACHE_REVALIDATE;
}

/** Whether --gzip stores this content type gzip-encoded. */
export function isCompressible(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim();
  return type.startsWith('text/') || COMPRESSIBLE_TYPES.has(type);
}

/** The extra key a page is also stored under, so that /contact answers without a redirect: contact/index.html -> contact. */
export function pageAlias(path: string): string | undefined {
  if (!path.endsWith('/index.html')) return undefined;
  return path.slice(0, -'/index.html'.length);
}
