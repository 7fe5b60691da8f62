// Hydrates at once: for islands the visitor may use as soon as the page shows.
import type { Strategy } from './types.ts';

export const load: Strategy = (_element, hydrate) => hydrate();
