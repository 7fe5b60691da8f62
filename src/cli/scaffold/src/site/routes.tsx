// The site's pages: which component renders at which path, and the title and description of each.
import type { Route } from 'site-gen-ssg';
import type { Content } from '../../content/schema.ts';
import { HomePage } from './pages/home.tsx';

export const routes: Route<Content>[] = [{ path: '/', page: HomePage, head: ({ site }) => ({ title: site.name }) }];
