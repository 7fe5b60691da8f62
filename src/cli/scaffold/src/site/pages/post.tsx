// One post: its title and date from the frontmatter, then its Markdown body.
import { Markdown, type PageProps } from 'site-gen';
import type { Content } from '../../../content/schema.ts';

export function PostPage({ content, path }: PageProps<Content>) {
  const post = content.posts.find((entry) => `/posts/${entry.slug}` === path)!;
  return (
    <main>
      <p>
        <a href="/posts">All posts</a>
      </p>
      <h1>{post.data.title}</h1>
      <p>
        <time dateTime={post.data.date.toISOString().slice(0, 10)}>{post.data.date.toDateString()}</time>
      </p>
      <Markdown entry={post} as="article" />
    </main>
  );
}
