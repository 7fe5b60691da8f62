// Build step: adds dist/_headers, the security headers of site.config.ts in the format static hosts read.
import type { SiteConfig } from '../config.ts';
import { SiteGenError } from '../errors.ts';
import { HEADERS_FILE, serializeHeadersFile } from '../http/headers-file.ts';
import { securityHeaders } from '../http/security.ts';
import type { OutputFiles } from './write.ts';

export function addHeadersFile(files: OutputFiles, headers: SiteConfig['headers']): void {
  if (files.has(HEADERS_FILE)) {
    throw new SiteGenError(
      `public/${HEADERS_FILE} has the same path as the file the build writes from the headers section of site.config.ts. ` +
        'Remove it and set the headers in site.config.ts (headers.extra for your own).',
    );
  }
  files.set(HEADERS_FILE, serializeHeadersFile(securityHeaders(headers)));
}
