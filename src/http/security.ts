// (to be folded into the HTTP policy module of issue 10) The security headers every response of the site carries.
import type { SiteConfig } from '../config.ts';

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

/** The `headers` section of site.config.ts, defaults applied. */
export type SecurityHeadersConfig = SiteConfig['headers'];

/** The headers securityHeaders() derives from the fields of the config; `headers.extra` may not name them. */
export const MANAGED_HEADERS = ['Content-Security-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options', 'Referrer-Policy', 'Permissions-Policy'] as const;

/** The headers every response carries, in a stable order: the same list for serve, watch and dist/_headers. */
export function securityHeaders(config: SecurityHeadersConfig): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': [`frame-ancestors ${config.frameAncestors}`, ...PAGE_INDEPENDENT_CSP].join('; '),
  };
  if (config.hsts) headers['Strict-Transport-Security'] = config.hsts;
  headers['X-Content-Type-Options'] = 'nosniff';
  headers['Referrer-Policy'] = config.referrerPolicy;
  if (config.denyFeatures.length > 0) headers['Permissions-Policy'] = config.denyFeatures.map((feature) => `${feature}=()`).join(', ');
  return { ...headers, ...config.extra };
}
