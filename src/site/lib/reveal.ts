// Entrance animations: elements marked with revealProps() fade in, after their own delay, once 10 % of them is in view.
import { ANIMATED_TEXT_THRESHOLD } from '../constants.ts';
import { prefersReducedMotion } from './motion.ts';

/** The attribute to spread on an element to animate it; the value is its delay in milliseconds. */
export function revealProps(delayMs: number): { 'data-reveal': string } {
  return { 'data-reveal': String(delayMs) };
}

/**
 * The server HTML shows everything (readable without JavaScript). This hides, when it runs, only the marked
 * elements out of view at that moment, so nothing on screen disappears and comes back (no flash); each fades in
 * (styles/reveal.css, --reveal-delay) when it scrolls into view. Nothing moves under reduced motion.
 * Returns the function that stops observing.
 */
export function revealOnScroll(doc: Document): () => void {
  if (prefersReducedMotion() || !('IntersectionObserver' in window)) return () => {};
  // Where each element is comes from the observer's first report, never from reading its box: a read lays the page
  // out there and then, every section the stylesheet leaves unrendered until it nears the viewport
  // (content-visibility: auto) included, which is a long task on a phone. The report comes after the next frame
  // with no layout of its own; an element in view then is left as it is, one out of view is hidden until it shows.
  const placed = new WeakSet<Element>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const element = entry.target as HTMLElement;
        if (!placed.has(element)) {
          placed.add(element);
          if (inView(entry)) {
            observer.unobserve(element);
            continue;
          }
          element.style.setProperty('--reveal-delay', `${Number(element.dataset.reveal) || 0}ms`);
          element.setAttribute('data-reveal-state', 'hidden');
          continue;
        }
        if (!entry.isIntersecting) continue;
        element.setAttribute('data-reveal-state', 'shown');
        observer.unobserve(element);
      }
    },
    { threshold: ANIMATED_TEXT_THRESHOLD },
  );
  for (const element of doc.querySelectorAll('[data-reveal]')) observer.observe(element);
  return () => observer.disconnect();
}

/** Whether any part of the entry's element is inside the window (rootBounds), as the observer measured it. */
function inView(entry: IntersectionObserverEntry): boolean {
  const { top, bottom } = entry.boundingClientRect;
  const root = entry.rootBounds;
  return root ? bottom > root.top && top < root.bottom : entry.isIntersecting;
}
