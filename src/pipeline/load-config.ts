// Loads site.config.ts and validates it against the config schema.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { SiteConfig } from '../core/config.ts';
import { configSchema } from '../core/config-schema.ts';
import { ConfigError } from '../core/errors.ts';
import { projectPaths } from '../core/paths.ts';
import { loadServerModule, ServerBundleFailure } from './server-bundle.ts';
import { describeIssue } from '../core/validate.ts';

export async function loadConfig(configFile: string): Promise<SiteConfig> {
  const paths = projectPaths(configFile);
  const shown = relative(process.cwd(), paths.config) || paths.config;
  if (!existsSync(paths.config)) {
    throw new ConfigError(
      `${shown} does not exist. Create it (see docs/reference.md, "Configuration") or pass --config <file>.`,
    );
  }
  let loaded: { default?: unknown };
  try {
    ({ exports: loaded } = await loadServerModule<{ default?: unknown }>({
      entry: { file: paths.config },
      root: paths.root,
      cacheDir: paths.cache,
    }));
  } catch (error) {
    const detail = error instanceof ServerBundleFailure ? error.message : (error as Error).message;
    throw new ConfigError(`${shown} could not be loaded: ${detail}`, {
      cause: error instanceof ServerBundleFailure ? undefined : error,
    });
  }
  return validateConfig(loaded.default, shown);
}

export function validateConfig(value: unknown, shown = 'site.config.ts'): SiteConfig {
  if (value === undefined)
    throw new ConfigError(`${shown}: has no default export. End it with \`export default defineConfig({ ... })\`.`);
  const parsed = configSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(describeIssue(shown, parsed.error));
  const config = parsed.data;
  if (!config.site.url.endsWith('/')) config.site.url += '/';
  return config;
}
