// The site's pages: which component renders at which path, and the title and description of each. A function of the
// content, so that each post in content/posts/ gets its page, and a new post a new page.
import type { PageProps, Routes } from 'site-gen-ssg';
import type { Content } from '../../content/schema.ts';
import { HomePage } from './pages/home.tsx';
import { PostPage } from './pages/post.tsx';
import { PostsPage } from './pages/posts.tsx';

export const routes: Routes<Content> = (content) => [
  { path: '/', page: HomePage, head: ({ site }) => ({ title: site.name }) },
  { path: '/posts', page: PostsPage, head: () => ({ title: 'Posts' }) },
  ...content.posts.map((post) => ({
    path: `/posts/${post.slug}`,
    // The page gets its entry from here: no search of every post on each of them.
    page: (props: PageProps<Content>) => <PostPage {...props} post={post} />,
    head: () => ({ title: post.data.title, description: post.data.description }),
  })),
];
