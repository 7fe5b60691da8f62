// The site's pages: which component renders at which path, and what goes in each page's <head>.
import type { Content } from '../../content/schema.ts';
import type { Route } from 'site-gen-ssg';
import { fill } from './lib/text.ts';
import { ContactPage } from './pages/ContactPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

type Meta = Content['copy']['meta'][keyof Content['copy']['meta']];

function head(meta: Meta, company: string) {
  return { title: fill(meta.title, { company }), description: fill(meta.description, { company }) };
}

export const routes: Route<Content>[] = [
  { path: '/', page: HomePage, head: ({ site, content }) => head(content.copy.meta.home, site.name) },
  { path: '/contact', page: ContactPage, head: ({ site, content }) => head(content.copy.meta.contact, site.name) },
  {
    path: '/404',
    file: '404.html',
    page: NotFoundPage,
    head: ({ site, content }) => ({ ...head(content.copy.meta.notFound, site.name), noindex: true }),
  },
];
