// Names the Markdown file a broken link is written in, so the build's message points at the .md to fix.
import type { Entry } from './collection.ts';

/** `broken` with each link found in a Markdown entry's body marked with that file (the entry on that page first). */
export function markdownSources<Link extends { page: string; href: string; source?: string }>(
  broken: Link[],
  content: Record<string, unknown>,
): Link[] {
  if (broken.length === 0) return broken;
  const entries = Object.values(content)
    .filter(Array.isArray)
    .flat()
    .filter(
      (item): item is Entry => typeof (item as Entry | null)?.file === 'string' && Array.isArray((item as Entry).links),
    );
  return broken.map((link) => {
    const written = entries.filter((entry) => entry.links.includes(link.href));
    if (written.length === 0) return link;
    const own = written.find((entry) => link.page.split('/').includes(entry.slug)) ?? written[0]!;
    return { ...link, source: own.file };
  });
}
