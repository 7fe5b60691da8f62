// The types of site.config.ts and `defineConfig`, for the public entry; the schema that checks it is src/core/config-schema.ts.
import type { z } from 'zod';
import type { configSchema } from './config-schema.ts';

/** What site.config.ts may say (defaults filled in later). */
export type SiteConfigInput = z.input<typeof configSchema>;
/** The validated configuration, defaults applied. */
export type SiteConfig = z.output<typeof configSchema>;
export type SiteInfo = SiteConfig['site'];

/** Gives site.config.ts its types; the build validates the object at load time. */
export function defineConfig(config: SiteConfigInput): SiteConfigInput {
  return config;
}
