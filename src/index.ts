// The public API of site-gen: all that site.config.ts and a site's own code may import, as `from 'site-gen-ssg'`.
export { defineConfig } from './core/config.ts';
export type { SiteConfig, SiteConfigInput, SiteInfo } from './core/config.ts';
export { behaviour, island } from './island.tsx';
export type {
  BehaviourComponent,
  HydrateStrategy,
  IslandOptions,
  IslandDefinition,
  IslandComponent,
} from './island.tsx';
export type { BehaviourDefinition, Mount } from './behaviour.ts';
export type { Route, PageProps, PageHead } from './core/routes.ts';
export { useBase, useWithBase, withBase } from './base.ts';
export type { HeadContext, HeadContent, HeadHook } from './core/head.ts';
export { DefaultErrorScreen } from './error-screen.tsx';
export type { ErrorScreenProps, ErrorScreenComponent } from './error-screen.tsx';
export { defineCollection } from './content/collection.ts';
export type { CollectionContent, ContentOf, Entry, Heading, MarkdownCollection } from './content/collection.ts';
export type { Routes } from './content/routes.ts';
export { Markdown } from './content/MarkdownBody.tsx';
export type { MarkdownProps } from './content/MarkdownBody.tsx';
export { Image } from './images/Image.tsx';
export type { ImageProps } from './images/Image.tsx';
