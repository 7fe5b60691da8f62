// The public API of site-gen, for site.config.ts and the site's own code.
export { defineConfig } from './config.ts';
export type { SiteConfig, SiteConfigInput, SiteInfo } from './config.ts';
export { island } from './island.tsx';
export type { HydrateStrategy, IslandOptions, IslandDefinition, IslandComponent } from './island.tsx';
export type { Route, PageProps, PageHead } from './routes.ts';
