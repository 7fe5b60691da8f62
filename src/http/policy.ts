// The HTTP policy of the built site: which output file is a hashed asset, and the headers each file is served with.
// `site-gen serve`, `site-gen watch` and `site-gen deploy` all ask this module, so a preview caches what visitors cache.
import mime from 'mime';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';

const HTML_TYPE = 'text/html; charset=utf-8';
const FALLBACK_TYPE = 'application/octet-stream';

// The build writes these as UTF-8; saying so spares browsers a guess.
const UTF8_TYPES = new Set(['application/javascript', 'application/json', 'application/manifest+json', 'application/xml']);

// The fallback for a dist/ without the build's list (one written by hand, or by an older site-gen): a name under assets/
// whose last `-` or `.` segment before the extension is 8+ characters of esbuild's uppercase base32 or of lowercase hex.
// When unsure, say unhashed: a false "hashed" makes a file that can change under its name immutable in browsers for a
// year, a false "unhashed" only costs a revalidation.
const HASHED_NAME = /[-.]([A-Z0-9]{8,64}|[a-f0-9]{8,64})(?:\.[A-Za-z0-9]+)+$/;

/** The headers an output file is stored (S3) or served (serve, watch) with. */
export interface FileHeaders {
  contentType: string;
  cacheControl: string;
}

export interface HttpPolicy {
  /** Whether an output file's name carries a hash of its content, so browsers may keep it for good. */
  isHashed(path: string): boolean;
  /** What deploy stores on the object: S3 keeps only Content-Type and Cache-Control per object. */
  fileHeaders(path: string): FileHeaders;
  /**
   * Every header the local servers send with the file, as one record: the place for headers that apply to every
   * response (Content-Security-Policy, Strict-Transport-Security, X-Content-Type-Options...) when the policy gets them.
   */
  responseHeaders(path: string): Record<string, string>;
  /** The headers of a plain-text answer a server makes up itself (405, a 404 without a page, a 500). */
  textHeaders(): Record<string, string>;
}

/** A path inside the output folder, without a leading slash, decoded: "assets/home-3F9A1C2B.js". */
function outputPath(path: string): string {
  return path.replace(/^\/+/, '');
}

/** `x.js.br` and `x.js.gz` are encodings of `x.js`: cached as `x.js` is. */
function withoutEncoding(path: string): string {
  return path.replace(/\.(br|gz)$/, '');
}

/** The name-based guess, used only when the build's list of hashed files is missing. */
export function looksHashed(path: string): boolean {
  const file = outputPath(path);
  if (!file.startsWith('assets/')) return false;
  const match = HASHED_NAME.exec(file.slice(file.lastIndexOf('/') + 1));
  if (!match) return false;
  const hash = match[1]!;
  // Digits alone look like a date (photo-20240101.jpg), lowercase letters alone like a word (logo-facadeee.svg).
  return /[A-Z]/.test(hash) || (/[a-f]/.test(hash) && /[0-9]/.test(hash));
}

export function contentTypeFor(path: string): string {
  const type = mime.getType(outputPath(path));
  if (!type) return FALLBACK_TYPE;
  if (type === 'text/html') return HTML_TYPE;
  if (type.startsWith('text/') || UTF8_TYPES.has(type)) return `${type}; charset=utf-8`;
  return type;
}

/**
 * The policy for one build. `hashed` is the list of files the build named with a content hash (see hashed-files.ts):
 * the build knows, so it decides; without it (undefined), names are judged by looksHashed().
 */
export function createHttpPolicy(hashed?: ReadonlySet<string>): HttpPolicy {
  const isHashed = (path: string): boolean => {
    const file = withoutEncoding(outputPath(path));
    return hashed ? hashed.has(file) : looksHashed(file);
  };
  const fileHeaders = (path: string): FileHeaders => ({
    contentType: contentTypeFor(path),
    cacheControl: isHashed(path) ? CACHE_IMMUTABLE : CACHE_REVALIDATE,
  });
  const responseHeaders = (path: string): Record<string, string> => {
    const { contentType, cacheControl } = fileHeaders(path);
    return { 'Content-Type': contentType, 'Cache-Control': cacheControl };
  };
  return { isHashed, fileHeaders, responseHeaders, textHeaders: () => responseHeaders('answer.txt') };
}
