// Which files gain from compression: the build writes .br/.gz siblings of them, deploy --gzip stores them gzip-encoded.
import { contentTypeFor } from './policy.ts';

// Besides every text/* type. Fonts, images and archives are compressed formats already: gzip gains them nothing.
const COMPRESSIBLE_TYPES = new Set([
  'application/javascript',
  'application/json',
  'application/manifest+json',
  'application/xml',
  'application/wasm',
  'image/svg+xml',
  'image/vnd.microsoft.icon',
]);

/** Whether a Content-Type ("text/css; charset=utf-8") is worth compressing. */
export function isCompressibleType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || COMPRESSIBLE_TYPES.has(type);
}

/** Whether an output file is worth compressing, judged by the Content-Type it is served with. */
export function isCompressible(path: string): boolean {
  return isCompressibleType(contentTypeFor(path));
}
