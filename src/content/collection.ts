// Markdown collections as a site declares them (`defineCollection`) and as its pages receive them (typed entries).
// Pure: no file system or Markdown parser here, since the public entry is also bundled for the browser.
import type { z, ZodType } from 'zod';
import type { ImageJob } from '../images/plan.ts';

/** A folder of Markdown files under content/, each with YAML frontmatter checked by `schema`. */
export interface MarkdownCollection<Schema extends ZodType = ZodType> {
  type: 'markdown';
  /** The folder under content/, e.g. "posts" for content/posts/*.md. */
  folder: string;
  /** The frontmatter's schema (zod): every entry's is checked, and its output is the entry's `data`. */
  schema: Schema;
}

/** Declares a Markdown collection in content/schema.ts: `posts: defineCollection({ folder: 'posts', schema })`. */
export function defineCollection<Schema extends ZodType>(collection: {
  folder: string;
  schema: Schema;
}): MarkdownCollection<Schema> {
  return { type: 'markdown', folder: collection.folder, schema: collection.schema };
}

export function isMarkdownCollection(value: unknown): value is MarkdownCollection {
  return (value as { type?: unknown } | null)?.type === 'markdown';
}

export interface Heading {
  /** 1 to 6. */
  depth: number;
  /** The heading's id: GitHub's slug of its text, "-1", "-2" added to repeats (stable while the text is). */
  id: string;
  text: string;
}

/** One Markdown file of a collection, as pages receive it. */
export interface Entry<Data = unknown> {
  /** The file's name without ".md": "first-post". Unique within its collection; a route path can use it. */
  slug: string;
  /** The file, relative to the project: "content/posts/first-post.md". */
  file: string;
  /** The frontmatter, as the collection's schema outputs it. */
  data: Data;
  /** The body as HTML: heading ids, highlighted code, responsive images. Render it with <Markdown entry={entry} />. */
  html: string;
  headings: Heading[];
  /** The internal links of the body (for the link check's messages). */
  links: string[];
  /** The image files the body's pictures need (encoded after rendering). */
  images: ImageJob[];
}

/** What a page gets for one collection: the entries of a Markdown collection, the parsed file of a TypeScript one. */
export type CollectionContent<C> =
  C extends MarkdownCollection<infer S>
    ? Entry<z.output<S>>[]
    : C extends { schema: infer S extends ZodType }
      ? z.output<S>
      : never;

/** The `content` prop of every page, from content/schema.ts: `export type Content = ContentOf<typeof collections>`. */
export type ContentOf<Collections> = { [K in keyof Collections]: CollectionContent<Collections[K]> };
