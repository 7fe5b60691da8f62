// The shape of site.config.ts: what a generator needs to know about a site, with the defaults the tool applies.
import { z } from 'zod';
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
        html: z.number().int().positive().default(14 * 1024),
        js: z.number().int().positive().default(90 * 1024),
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
  })
  .default({ prefix: '', maxDeletes: 256, concurrency: 8, gzip: false });

export const configSchema = z.strictObject({
  site: siteSchema,
  build: buildSchema,
  deploy: deploySchema,
});
