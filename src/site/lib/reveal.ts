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
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        entry.target.setAttribute('data-reveal-state', 'shown');
        observer.unobserve(entry.target);
      }
    },
    { threshold: ANIMATED_TEXT_THRESHOLD },
  );
  // Every position is read before anything is written: one layout for all, not one per element (reading a box
  // after a write lays the page out again), so this stays one short task after the load event.
  const outOfView = [...doc.querySelectorAll<HTMLElement>('[data-reveal]')].filter((element) => {
    const { top, bottom } = element.getBoundingClientRect();
    return !(bottom > 0 && top < window.innerHeight);
  });
  for (const element of outOfView) {
    element.style.setProperty('--reveal-delay', `${Number(element.dataset.reveal) || 0}ms`);
    element.setAttribute('data-reveal-state', 'hidden');
    observer.observe(element);
  }
  return () => observer.disconnect();
}
