// What deploy adds to the HTTP policy (src/core/http/policy.ts) for S3: whether --gzip suits a file, and a page's extra key.

// Already-compressed formats gain nothing from gzip.
const COMPRESSIBLE_TYPES = new Set([
  'application/javascript',
  'application/json',
  'application/manifest+json',
  'application/xml',
  'image/svg+xml',
  'image/vnd.microsoft.icon',
  'application/wasm',
]);

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
