// The home page: a heading, an introduction and the counter island.
import type { PageProps } from 'site-gen-ssg';
import type { Content } from '../../../content/schema.ts';
import Counter from '../islands/counter.tsx';

export function HomePage({ content }: PageProps<Content>) {
  return (
    <main>
      <h1>{content.copy.heading}</h1>
      <p>{content.copy.intro}</p>
      <Counter label={content.copy.button} />
    </main>
  );
}
