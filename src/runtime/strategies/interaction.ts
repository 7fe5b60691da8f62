// Hydrates at the first sign the visitor is about to use the island: the pointer over it, focus in it, a touch.
import { owns } from '../scope.ts';
import type { Strategy } from './types.ts';

const INTENTS = ['pointerover', 'focusin', 'pointerdown', 'touchstart'];

export const interaction: Strategy = (element, hydrate) => {
  const onIntent = (event: Event) => {
    if (!owns(element, event.target)) return;
    for (const type of INTENTS) document.removeEventListener(type, onIntent, true);
    hydrate();
  };
  // The pointer or the focus may have arrived before this script did.
  if (
    owns(element, document.activeElement) ||
    [...document.querySelectorAll(':hover')].some((node) => owns(element, node))
  )
    return hydrate();
  for (const type of INTENTS) document.addEventListener(type, onIntent, { capture: true, passive: true });
};
