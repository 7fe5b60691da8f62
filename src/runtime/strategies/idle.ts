// Hydrates when the main thread is idle, so first paint and input never wait for it.
import type { Strategy } from './types.ts';

export const idle: Strategy = (_element, hydrate) => {
  if ('requestIdleCallback' in window) window.requestIdleCallback(() => hydrate(), { timeout: 2000 });
  else setTimeout(hydrate, 200);
};
