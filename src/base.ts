// The URL base the site is served under ("/" or "/sub/"), shared by the server renderer and the browser runtime.

let current = '/';

export function setBase(base: string): void {
  current = base;
}

export function getBase(): string {
  return current;
}

/** Prefixes a root-relative URL ("/contact", "/#faq") with the base; leaves "#x", "mailto:", "https://..." alone. */
export function withBase(href: string): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  return current + href.slice(1);
}
