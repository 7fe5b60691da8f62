// The shape of the site's content: one zod schema per file in content/, checked by every build.
import { z } from 'zod';

const copy = z.strictObject({
  heading: z.string().min(1, { error: 'is empty; write the page heading.' }),
  intro: z.string().min(1, { error: 'is empty; write a sentence or two under the heading.' }),
  button: z.string().min(1, { error: 'is empty; write the label of the counter button.' }),
});

export const collections = {
  copy: { file: 'copy.ts', schema: copy },
};

export type Content = { [K in keyof typeof collections]: z.output<(typeof collections)[K]['schema']> };
