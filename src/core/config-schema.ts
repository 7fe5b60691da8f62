// The shape of site.config.ts: what a generator needs to know about a site, with the defaults the tool applies.
import { z } from 'zod';
import { DEFAULT_MAX_PATHS, DISTRIBUTION_ID, MAX_PATHS_LIMIT } from './cloudfront-limits.ts';
import {
  DEFAULT_HSTS,
  DENIED_FEATURES,
  MANAGED_HEADERS,
  REFERRER_POLICIES,
  type SecurityHeadersConfig,
} from './http/policy.ts';
import { unlessMissing } from './validate.ts';

const url = z.url({ error: unlessMissing('must be an absolute URL such as "https://example.com"') });

// Only what site-gen itself writes into every page: a site's own facts (address, socials, theme) are the site's content.
export const siteSchema = z.strictObject({
  /** Site name: the end of every <title> and og:site_name. */
  name: z.string().min(1),
  /** Absolute URL the site is served from; canonical URLs and the sitemap start with it. */
  url,
  /** Default meta description, used where a page has none of its own. */
  description: z.string().min(1),
  /** BCP 47 language tag of the pages. */
  lang: z.string().min(2).default('en'),
  /** Path of the favicon inside public/. */
  favicon: z.string().startsWith('/').default('/favicon.svg'),
  /** Path of the Open Graph image inside public/. */
  ogImage: z.string().startsWith('/').optional(),
});

export const buildSchema = z
  .object({
    /** Browsers the CSS and JavaScript are lowered for (browserslist queries). */
    browserslist: z.array(z.string().min(1)).min(1).default(['defaults', 'not dead']),
    /** Budgets, in bytes after brotli: a page over budget fails the build. */
    budgets: z
      .object({
        html: z
          .number()
          .int()
          .positive()
          .default(14 * 1024),
        js: z
          .number()
          .int()
          .positive()
          .default(90 * 1024),
      })
      .default({ html: 14 * 1024, js: 90 * 1024 }),
  })
  .default({ browserslist: ['defaults', 'not dead'], budgets: { html: 14 * 1024, js: 90 * 1024 } });

export const deploySchema = z
  .object({
    bucket: z.string().min(3).optional(),
    prefix: z.string().default(''),
    region: z.string().min(1).optional(),
    endpoint: url.optional(),
    maxDeletes: z.number().int().nonnegative().default(256),
    concurrency: z.number().int().positive().max(64).default(8),
    gzip: z.boolean().default(false),
    /** Releases kept in the bucket for `site-gen rollback` (the live one always among them). */
    keepReleases: z.number().int().min(1).max(1000).default(5),
    /** The CloudFront distribution in front of the bucket: invalidated after each deploy that changes a page. */
    cloudfront: z
      .strictObject({
        distribution: z
          .string()
          .regex(DISTRIBUTION_ID, 'must be a CloudFront distribution ID such as "E2QWRUHAPOMQZL"'),
        /** More changed paths than this are invalidated as one wildcard. */
        maxPaths: z.number().int().min(1).max(MAX_PATHS_LIMIT).default(DEFAULT_MAX_PATHS),
      })
      .optional(),
  })
  .default({ prefix: '', maxDeletes: 256, concurrency: 8, gzip: false, keepReleases: 5 });

const ONE_LINE = /^[^\r\n]+$/;
const managed = new Set(MANAGED_HEADERS.map((name) => name.toLowerCase()));

/** The security headers of every response: written to dist/_headers, sent by `site-gen serve` and `site-gen watch`. */
export const headersSchema = z
  .strictObject({
    /** CSP frame-ancestors: who may show the pages in a frame. "'none'": nobody (no clickjacking). */
    frameAncestors: z
      .string()
      .regex(/^[^\r\n;]+$/, 'must be a CSP source list such as "\'none\'" or "\'self\'"')
      .default("'none'"),
    /** Strict-Transport-Security, or false to send none (a site not yet on HTTPS everywhere). */
    hsts: z.union([z.string().regex(ONE_LINE), z.literal(false)]).default(DEFAULT_HSTS),
    referrerPolicy: z.enum(REFERRER_POLICIES).default('strict-origin-when-cross-origin'),
    /** Browser features switched off on every page (Permissions-Policy `feature=()`). */
    denyFeatures: z
      .array(z.string().regex(/^[a-z][a-z-]*$/, 'must be a feature name such as "camera"'))
      .default([...DENIED_FEATURES]),
    /** More headers for every response, e.g. { 'Cross-Origin-Opener-Policy': 'same-origin' }. */
    extra: z
      .record(z.string(), z.string().regex(ONE_LINE, 'must be one line'))
      .superRefine((extra, context) => {
        for (const name of Object.keys(extra)) {
          if (!/^[A-Za-z0-9-]+$/.test(name))
            context.addIssue({
              code: 'custom',
              path: [name],
              message: 'is not a header name such as "Cross-Origin-Opener-Policy"',
            });
          else if (managed.has(name.toLowerCase())) {
            context.addIssue({
              code: 'custom',
              path: [name],
              message:
                'comes from the other fields of headers (frameAncestors, hsts, referrerPolicy, denyFeatures); set it there',
            });
          }
        }
      })
      .default({}),
  })
  .prefault({}) satisfies z.ZodType<SecurityHeadersConfig>;

/** Markdown bodies: how their pictures are shown (see content-and-images.md). */
export const markdownSchema = z
  .strictObject({
    images: z
      .strictObject({
        /** The width of the column pictures sit in, in CSS px; default the file's own, up to 1,200. */
        width: z.number().int().min(16).max(4000).optional(),
        /** The `sizes` of their `<img>`; default "(min-width: Wpx) Wpx, 100vw" for a shown width W. */
        sizes: z.string().regex(ONE_LINE, 'must be one line').optional(),
      })
      .prefault({}),
  })
  .prefault({});

export const configSchema = z.strictObject({
  site: siteSchema,
  build: buildSchema,
  markdown: markdownSchema,
  deploy: deploySchema,
  headers: headersSchema,
});
