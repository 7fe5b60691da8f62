// The HTTP policy of the built site: which output file is a hashed asset, the headers each file is served with, and
// the security headers every response carries. `site-gen serve`, `site-gen watch` and `site-gen deploy` all ask this
// module, so a preview caches, and is protected, as production is.
import mime from 'mime';

export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
export const CACHE_REVALIDATE = 'public, max-age=0, must-revalidate';

const HTML_TYPE = 'text/html; charset=utf-8';
const FALLBACK_TYPE = 'application/octet-stream';

// The build writes these as UTF-8; saying so spares browsers a guess.
const UTF8_TYPES = new Set([
  'application/javascript',
  'application/json',
  'application/manifest+json',
  'application/xml',
]);

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
  /** The security headers of the build (its dist/_headers): every response carries them, whatever answers it. */
  security: Readonly<Record<string, string>>;
  /** Every header the local servers send with the file, as one record: its own and the security headers. */
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
 * the build knows, so it decides; without it (undefined), names are judged by looksHashed(). `security` is what the
 * build wrote to _headers (see headers-file.ts); none for a build without it.
 */
export function createHttpPolicy(
  hashed?: ReadonlySet<string>,
  security: Readonly<Record<string, string>> = {},
): HttpPolicy {
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
    return { ...security, 'Content-Type': contentType, 'Cache-Control': cacheControl };
  };
  return { isHashed, fileHeaders, security, responseHeaders, textHeaders: () => responseHeaders('answer.txt') };
}

/**
 * The CSP directives that hold on every page whatever it inlines. The per-page <meta> CSP lists them too, beside the
 * page's own script and style hashes; the header carries them with what only a header can say (frame-ancestors). A
 * browser enforces both policies, so the header never names script-src or style-src: it would have to list every
 * page's hashes, change with each build, and the meta already restricts them.
 */
export const PAGE_INDEPENDENT_CSP = ["object-src 'none'", "base-uri 'self'", "form-action 'self'"] as const;

export const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
] as const;

/**
 * Browser features the site never uses, switched off for it and every frame it might embed: a script injected by a
 * compromised dependency cannot ask for the camera or the location. Only names Chromium knows: an unknown one is a
 * console error on every page.
 */
export const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;

/** Two years, subdomains included: what hstspreload.org asks for. */
export const DEFAULT_HSTS = 'max-age=63072000; includeSubDomains';

/**
 * The `headers` section of site.config.ts, defaults applied. Written out rather than derived from the config's type:
 * the schema (config-schema.ts) reads this module's lists, so deriving it would make the two import each other.
 * config-schema.ts checks that what it produces is this type.
 */
export interface SecurityHeadersConfig {
  frameAncestors: string;
  hsts: string | false;
  referrerPolicy: (typeof REFERRER_POLICIES)[number];
  denyFeatures: readonly string[];
  extra: Readonly<Record<string, string>>;
}

/** The headers securityHeaders() derives from the fields of the config; `headers.extra` may not name them. */
export const MANAGED_HEADERS = [
  'Content-Security-Policy',
  'Strict-Transport-Security',
  'X-Content-Type-Options',
  'Referrer-Policy',
  'Permissions-Policy',
] as const;

/** The security headers every response carries, in a stable order: what the build writes to dist/_headers. */
export function securityHeaders(config: SecurityHeadersConfig): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': [`frame-ancestors ${config.frameAncestors}`, ...PAGE_INDEPENDENT_CSP].join('; '),
  };
  if (config.hsts) headers['Strict-Transport-Security'] = config.hsts;
  headers['X-Content-Type-Options'] = 'nosniff';
  headers['Referrer-Policy'] = config.referrerPolicy;
  if (config.denyFeatures.length > 0)
    headers['Permissions-Policy'] = config.denyFeatures.map((feature) => `${feature}=()`).join(', ');
  return { ...headers, ...config.extra };
}
