// Browser entry of the client-only comparison: the same page components, rendered in the browser with createRoot,
// the way a client-side React app would show this site. No island registry is set, so islands render in place.
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { content, site } from 'bench:site-data';
import { routes } from '../../src/site/routes.tsx';

// "/contact/" and "/contact" are the same page; anything else gets the not-found route, as a SPA fallback would.
const path = location.pathname.replace(/\/+$/, '') || '/';
const route = routes.find((r) => r.path === path) ?? routes.find((r) => r.file === '404.html') ?? routes[0]!;
const root = document.getElementById('root');
if (!root) throw new Error('The client-only shell has no <div id="root">.');
createRoot(root).render(createElement(route.page, { site, content, path: route.path }));
