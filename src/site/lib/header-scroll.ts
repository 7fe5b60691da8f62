// The header's scrolled state: compact and bordered once the page is scrolled past the threshold (styles/header.css).
import { HEADER_SCROLL_THRESHOLD_PX } from '../constants.ts';

/** Keeps `data-scrolled` on the page's .site-header in step with the scroll; returns the function that stops it. */
export function followHeaderScroll(doc: Document): () => void {
  const header = doc.querySelector<HTMLElement>('.site-header');
  if (!header) return () => {};
  const update = () => header.setAttribute('data-scrolled', String(window.scrollY > HEADER_SCROLL_THRESHOLD_PX));
  update();
  window.addEventListener('scroll', update, { passive: true });
  return () => window.removeEventListener('scroll', update);
}
