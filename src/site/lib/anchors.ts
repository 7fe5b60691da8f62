// In-page navigation from the menu dialog: which clicks stay on this page, and going to an anchor once it has closed.
import { scrollBehavior } from './motion.ts';

/**
 * The "#id" a click on `link` would go to on this very page, or null when the browser should handle the click:
 * another page, a modified or non-primary click, a new window, or no element with that id.
 */
export function inPageHash(event: MouseEvent, link: HTMLAnchorElement): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  if ((link.target && link.target !== '_self') || link.hasAttribute('download')) return null;
  const url = new URL(link.href, window.location.href);
  const here = window.location;
  if (url.origin !== here.origin || url.pathname !== here.pathname || url.search !== here.search || url.hash.length < 2) return null;
  return document.getElementById(decodeURIComponent(url.hash.slice(1))) ? url.hash : null;
}

/**
 * Does what following the link does (with the CSS scroll-behavior, for every other in-page link), after the fact:
 * scrolls to the element of `hash` (smoothly unless reduced motion; its scroll-margin clears the sticky header),
 * writes the hash through the history (setting location.hash would jump), and moves keyboard focus there.
 */
export function goToHash(hash: string): void {
  const target = document.getElementById(decodeURIComponent(hash.slice(1)));
  if (!target) return;
  target.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
  if (window.location.hash !== hash) window.history.pushState(null, '', hash);
  // A section is not focusable; tabindex -1 lets it take focus without joining the Tab order.
  if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}
