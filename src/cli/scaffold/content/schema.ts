// The shape of the site's content: one zod schema per file in content/, and the Markdown collections, checked by every build.
import { type ContentOf, defineCollection } from 'site-gen-ssg';
import { z } from 'zod';

const copy = z.strictObject({
  heading: z.string().min(1, { error: 'is empty; write the page heading.' }),
  intro: z.string().min(1, { error: 'is empty; write a sentence or two under the heading.' }),
  button: z.string().min(1, { error: 'is empty; write the label of the counter button.' }),
});

// Each .md file in content/posts/ is a post: its frontmatter must match this schema.
const post = z.strictObject({
  title: z.string().min(1, { error: 'is empty; give the post a title.' }),
  date: z.coerce.date({ error: 'must be a date, such as 2026-01-31.' }),
  description: z.string().min(1, { error: 'is empty; write one sentence about the post.' }),
  tags: z.array(z.string()).default([]),
});

export const collections = {
  copy: { file: 'copy.ts', schema: copy },
  posts: defineCollection({ folder: 'posts', schema: post }),
};

export type Content = ContentOf<typeof collections>;
/** One post, as the pages receive it: its slug, its frontmatter as `data`, its body as HTML. */
export type Post = Content['posts'][number];
