// The Markdown bench's inputs: N generated entries that differ in their text (headings, paragraphs, lists, links, a
// fenced code block in every fourth), as a site-gen site (the scaffold, its posts replaced, its photo removed) and as an Eleventy 3 site
// with an equivalent minimal layout (a title, the entry's body; an index listing every entry).
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createSite } from '../../src/cli/new.ts';

const WORDS = ['harbour', 'signal', 'paper', 'river', 'glass', 'static', 'velvet', 'summer', 'engine', 'lantern', 'orbit', 'meadow'];

/** Entry `i` of `count`: frontmatter and a Markdown body, each different from the others. */
export function entry(i: number, count: number): { slug: string; frontmatter: string; body: string } {
  const word = (k: number) => WORDS[(i * 7 + k * 5) % WORDS.length]!;
  const slug = `post-${String(i + 1).padStart(5, '0')}`;
  const other = `post-${String(((i * 37) % count) + 1).padStart(5, '0')}`;
  const day = String((i % 28) + 1).padStart(2, '0');
  const frontmatter = `title: "${word(0)} ${word(1)} ${i + 1}"\ndate: 2025-${String((i % 12) + 1).padStart(2, '0')}-${day}\ndescription: "Entry ${i + 1} about ${word(2)} and ${word(3)}."\ntags: [${word(4)}, ${word(5)}]`;
  const code =
    i % 4 === 0
      ? `\n\`\`\`js\n// entry ${i + 1}\nexport function ${word(6)}${i}(items) {\n  return items.filter((item) => item.${word(7)} > ${i}).map((item) => item.name);\n}\n\`\`\`\n`
      : '';
  const body = `## The ${word(0)} of ${word(1)}

Entry ${i + 1} begins with a paragraph about the **${word(2)}** and the _${word(3)}_, written to differ from every other
entry: ${word(4)}, ${word(5)}, ${word(6)} and ${word(7)} in the order of its number, ${i * 13}.

- the first ${word(8)}, with \`inline code ${i}\`
- a second item about the ${word(9)}
- a link to [another entry](/posts/${other}) and to [its own list](#list-of-${word(10)})

### List of ${word(10)}

1. ${word(11)} one
2. ${word(0)} two
3. ${word(1)} three
${code}
A last paragraph of entry ${i + 1}, with [a link home](/) and a sentence about the ${word(2)} ${word(5)} ${word(8)}.
`;
  return { slug, frontmatter, body };
}

/** A site-gen site (the scaffold) whose posts are the `count` generated entries. */
export async function siteGenMarkdownSite(dir: string, count: number, toolRoot: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  createSite(dir);
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  // The scaffold imports the tool by its package name (its stylesheet imports site-gen-ssg/code.css).
  const name = JSON.parse(await readFile(path.join(toolRoot, 'package.json'), 'utf8')).name as string;
  await symlink(toolRoot, path.join(dir, 'node_modules', name));
  // The index lists every entry: thousands of links weigh more than the scaffold's page budget allows.
  const config = path.join(dir, 'site.config.ts');
  await writeFile(
    config,
    (await readFile(config, 'utf8')).replace('export default defineConfig({', 'export default defineConfig({\n  build: { budgets: { html: 4_000_000 } },'),
  );
  const posts = path.join(dir, 'content/posts');
  // No photo: the Eleventy site has none, and encoding one (AVIF above all) would be most of a small run's time.
  const home = path.join(dir, 'src/site/pages/home.tsx');
  await writeFile(home, (await readFile(home, 'utf8')).replace(/\n\s*<Image\b[\s\S]*?\/>/, '').replace('Image, ', ''));
  await rm(path.join(posts, 'harbour.jpg'));
  await rm(path.join(posts, 'hello-world.md'));
  await rm(path.join(posts, 'second-post.md'));
  await writeEntries(posts, count);
}

/** The entries' files in `folder`, a few hundred at a time: all at once, 20,000 entries ran out of file handles. */
async function writeEntries(folder: string, count: number): Promise<void> {
  const AT_ONCE = 256;
  for (let start = 0; start < count; start += AT_ONCE) {
    await Promise.all(
      Array.from({ length: Math.min(AT_ONCE, count - start) }, (_, k) => {
        const { slug, frontmatter, body } = entry(start + k, count);
        return writeFile(path.join(folder, `${slug}.md`), `---\n${frontmatter}\n---\n\n${body}`);
      }),
    );
  }
}

const LAYOUT = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<meta name="description" content="{{ description }}">
<link rel="stylesheet" href="/main.css">
</head>
<body>
<main><p><a href="/posts/">All posts</a></p><h1>{{ title }}</h1>
<article>{{ content | safe }}</article></main>
</body>
</html>
`;

const INDEX = `---
layout: base.njk
title: Posts
permalink: /posts/
---
<ul>
{%- for post in collections.posts | reverse %}
<li><a href="{{ post.url }}">{{ post.data.title }}</a> {{ post.data.description }}</li>
{%- endfor %}
</ul>
`;

/** An Eleventy 3 site of the same entries: one page each under /posts/<slug>/, and an index. */
export async function eleventyMarkdownSite(dir: string, count: number): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'src/posts'), { recursive: true });
  await mkdir(path.join(dir, 'src/_includes'), { recursive: true });
  await writeFile(path.join(dir, 'src/_includes/base.njk'), LAYOUT);
  await writeFile(path.join(dir, 'src/posts/posts.json'), JSON.stringify({ layout: 'base.njk', tags: ['posts'] }));
  await writeFile(path.join(dir, 'src/index.njk'), INDEX);
  await writeFile(path.join(dir, 'src/main.css'), 'body { font-family: system-ui, sans-serif; }\n');
  await writeFile(
    path.join(dir, 'eleventy.config.js'),
    "export default function (config) { config.addPassthroughCopy('src/main.css'); return { dir: { input: 'src' } }; }\n",
  );
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeEntries(path.join(dir, 'src/posts'), count);
}
