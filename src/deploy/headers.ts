// What deploy adds to the HTTP policy (src/core/http/) for S3: a page's extra key. Whether --gzip suits a file is
// src/core/http/compressible.ts's, the build's too.
import { pagePathOf } from '../core/http/paths.ts';

/**
 * The extra key a folder's page may also be stored under, so that /contact answers without a redirect:
 * contact/index.html -> contact. The home page has none (S3 serves index.html at the root itself).
 */
export function pageAlias(path: string): string | undefined {
  return pagePathOf(path)?.slice(1) || undefined;
}
