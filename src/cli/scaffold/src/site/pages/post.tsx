// One post: its title and date from the frontmatter, then its Markdown body.
import { Markdown, type PageProps } from 'site-gen-ssg';
import type { Content, Post } from '../../../content/schema.ts';

export function PostPage({ post }: PageProps<Content> & { post: Post }) {
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
