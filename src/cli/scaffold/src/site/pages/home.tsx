// The home page: a heading, a photo, an introduction, the counter island and a link to the posts.
import { Image, type PageProps } from 'site-gen-ssg';
import type { Content } from '../../../content/schema.ts';
import Counter from '../islands/counter.tsx';

export function HomePage({ content }: PageProps<Content>) {
  return (
    <main>
      <h1>{content.copy.heading}</h1>
      <Image
        src="content/posts/harbour.jpg"
        alt="A harbour at dusk, boats moored under a pink sky"
        width={640}
        priority
      />
      <p>{content.copy.intro}</p>
      <Counter label={content.copy.button} />
      <p>
        <a href="/posts">Read the posts</a>
      </p>
    </main>
  );
}
