// The URL base the site is served under ("/" or "/sub/"): handed to every render through a React context.
import { createContext, useContext } from 'react';

/** Provided by the page renderer and by the browser runtime around each island; "/" when nothing provides it. */
export const BaseContext = createContext('/');

/** The base of the page being rendered, e.g. "/" or "/my-site/". */
export function useBase(): string {
  return useContext(BaseContext);
}

/** Prefixes a root-relative URL ("/contact", "/#faq") with the base; leaves "#x", "mailto:", "https://..." alone. */
export function withBase(href: string, base: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  return base + href.slice(1);
}

/** `withBase` bound to the base of the page being rendered: `const href = useWithBase(); <a href={href('/contact')}>`. */
export function useWithBase(): (href: string) => string {
  const base = useBase();
  return (href) => withBase(href, base);
}
