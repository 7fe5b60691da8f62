// The site's pages: which component renders at which path, and the title and description of each. A function of the
// content, so that each post in content/posts/ gets its page, and a new post a new page.
import type { Routes } from 'site-gen';
import type { Content } from '../../content/schema.ts';
import { HomePage } from './pages/home.tsx';
import { PostPage } from './pages/post.tsx';
import { PostsPage } from './pages/posts.tsx';

export const routes: Routes<Content> = (content) => [
  { path: '/', page: HomePage, head: ({ site }) => ({ title: site.name }) },
  { path: '/posts', page: PostsPage, head: ({ site }) => ({ title: `Posts | ${site.name}` }) },
  ...content.posts.map((post) => ({
    path: `/posts/${post.slug}`,
    page: PostPage,
    head: () => ({ title: post.data.title, description: post.data.description }),
  })),
];
