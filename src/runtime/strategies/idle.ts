// Hydrates once the page has loaded and the main thread is idle: first paint, the load event and input never wait for it.
import type { Strategy } from './types.ts';

export const idle: Strategy = (_element, hydrate) => {
  const whenIdle = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(() => hydrate(), { timeout: 2000 });
    else setTimeout(hydrate, 200);
  };
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
};
