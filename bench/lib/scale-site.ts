// A copy of this project grown to N pages from data: a typed list of releases, one route per item, each page laid out
// like /contact (the site's header, footer and contact form island) with the release's own title and text.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { copyProject, type ProjectCopy } from '../../test/helpers/watch-project.ts';

const SCHEMA = `
const release = obj({ id, title: text('Night Drive'), artist: text('Nova Lane'), summary: text('A synth-pop record about late trains.') });
const releasesSchema = z.array(release).min(1, { error: 'is empty; list at least one release.' });
`;

const PAGE = `// One release: its title, artist and summary, then the contact form, as the contact page lays them out.
import type { Content } from '../../../content/schema.ts';
import type { PageProps } from 'site-gen-ssg';
import { Layout } from '../components/Layout.tsx';
import ContactFormIsland from '../islands/contact-form.tsx';

type Release = Content['releases'][number];

// The route hands the page its release: looking it up by path would cost every page a scan of the whole list.
export function ReleasePage({ site, content, path, release }: PageProps<Content> & { release: Release }) {
  return (
    <Layout site={site} content={content} path={path}>
      <section className="page-hero" aria-labelledby="release-title">
        <div className="container narrow">
          <h1 id="release-title">{release.title}</h1>
          <p className="page-intro">{release.artist}: {release.summary}</p>
        </div>
      </section>
      <section className="section contact" aria-label={content.copy.contact.formLabel}>
        <div className="container narrow">
          <div className="form-card">
            <ContactFormIsland copy={content.copy.contact} />
          </div>
        </div>
      </section>
    </Layout>
  );
}
`;

const ROUTES = `
import releases from '../../content/releases.ts';
import { ReleasePage } from './pages/ReleasePage.tsx';

// One page per release: the list is the site's data, so adding an item adds a page.
routes.push(
  ...releases.map((release): Route<Content> => ({
    path: \`/releases/\${release.id}\`,
    page: (props) => <ReleasePage {...props} release={release} />,
    head: () => ({ title: \`\${release.title} by \${release.artist}\`, description: release.summary }),
  })),
);
`;

const WORDS = ['night', 'drive', 'echo', 'river', 'neon', 'paper', 'glass', 'summer', 'static', 'velvet', 'harbor', 'signal'];

/** The release list: `count` items, each with different text (so no two pages are the same bytes). */
export function releases(count: number): Array<{ id: string; title: string; artist: string; summary: string }> {
  return Array.from({ length: count }, (_, i) => {
    const word = (k: number) => WORDS[(i * 7 + k * 5) % WORDS.length]!;
    return {
      id: `release-${String(i + 1).padStart(4, '0')}`,
      title: `${word(0)} ${word(1)} ${i + 1}`.replace(/^./, (c) => c.toUpperCase()),
      artist: `The ${word(2)} ${word(3)}s`,
      summary: `Release ${i + 1}: ${word(4)} and ${word(5)} songs, recorded live in ${2000 + (i % 25)}.`,
    };
  });
}

/** A copy of the project with `count` release pages added to its three. */
export async function scaleSite(count: number): Promise<ProjectCopy> {
  const project = await copyProject();
  await writeFile(path.join(project.root, 'content/releases.ts'), `// ${count} releases: one page each.\nexport default ${JSON.stringify(releases(count), null, 2)};\n`);
  await project.edit('content/schema.ts', (text) =>
    text.replace('export const collections = {', `${SCHEMA}\nexport const collections = {\n  releases: { file: 'releases.ts', schema: releasesSchema },`),
  );
  await writeFile(path.join(project.root, 'src/site/pages/ReleasePage.tsx'), PAGE);
  await project.edit('src/site/routes.tsx', (text) => `${text}${ROUTES}`);
  return project;
}

/** Routes the contact page `count` more times, at /contact-1 and on, each page titled with its number. */
const contactRoutes = (count: number) => `
// ${count} more routes: the contact page, each with its own path and title.
for (let i = 1; i <= ${count}; i += 1)
  routes.push({ path: \`/contact-\${i}\`, page: ContactPage, head: () => ({ title: \`Contact \${i}\` }) });
`;

/**
 * A copy of the project with `count` more routes rendering the contact page: the site's own data is a route object a
 * page, so the memory a build takes as its pages grow is the tool's (the first table measured site-gen and
 * Astro on this shape of site).
 */
export async function contactPagesSite(count: number): Promise<ProjectCopy> {
  const project = await copyProject();
  await project.edit('src/site/routes.tsx', (text) => `${text}${contactRoutes(count)}`);
  return project;
}
