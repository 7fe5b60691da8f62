// The data the client-only bundle renders: the validated config and content, injected by bench/lib/client-only.ts.
declare module 'bench:site-data' {
  export const site: import('../../src/core/config.ts').SiteInfo;
  export const content: import('../../content/schema.ts').Content;
}
