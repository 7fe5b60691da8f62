// The index of posts, newest first: made from the collection's data, so a new post is listed by the next build.
import type { PageProps } from 'site-gen-ssg';
import type { Content } from '../../../content/schema.ts';

export function PostsPage({ content }: PageProps<Content>) {
  const posts = [...content.posts].sort((a, b) => b.data.date.getTime() - a.data.date.getTime());
  return (
    <main>
      <h1>Posts</h1>
      <ul>
        {posts.map((post) => (
          <li key={post.slug}>
            <a href={`/posts/${post.slug}`}>{post.data.title}</a> <small>{post.data.date.toDateString()}</small>
            <br />
            {post.data.description}
          </li>
        ))}
      </ul>
    </main>
  );
}
