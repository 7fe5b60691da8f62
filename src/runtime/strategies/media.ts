// Hydrates once a media query matches (e.g. only on wide screens).
import type { Strategy } from './types.ts';

export const media: Strategy = (element, hydrate) => {
  const query = window.matchMedia(element.dataset.media ?? 'all');
  if (query.matches) return hydrate();
  const onChange = () => {
    if (!query.matches) return;
    query.removeEventListener('change', onChange);
    hydrate();
  };
  query.addEventListener('change', onChange);
};
