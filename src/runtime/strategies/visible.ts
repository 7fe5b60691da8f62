// Hydrates when the island comes near the viewport.
import type { Strategy } from './types.ts';

export const visible: Strategy = (element, hydrate) => {
  // The island element is `display: contents` and has no box of its own, so observe its children.
  const targets = [...element.children];
  if (targets.length === 0 || !('IntersectionObserver' in window)) return hydrate();
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      hydrate();
    },
    { rootMargin: '200px' },
  );
  for (const target of targets) observer.observe(target);
};
