// Behaviours the server markup opts into, none with markup of its own: tooltips (.tooltip-anchor), entrance
// animations (data-reveal), the pointer glow (data-glow) and the scroll-to-top link (a.to-top). Each lives in its own
// module under lib/; they share one island because they share one hydration need, and so one small chunk.
import { useEffect } from 'react';
import { island } from 'site-gen';
import { followPointerGlow } from '../lib/glow.ts';
import { revealOnScroll } from '../lib/reveal.ts';
import { enhanceScrollToTop } from '../lib/scroll-to-top.ts';
import { enhanceTooltips } from '../lib/tooltips.ts';

function Enhance() {
  useEffect(() => {
    const stops = [enhanceTooltips(document), revealOnScroll(document), followPointerGlow(document), enhanceScrollToTop(document)];
    return () => stops.forEach((stop) => stop());
  }, []);
  return null;
}

// idle: none is needed at first paint. A tooltip opens 700 ms after the pointer arrives, the scroll-to-top link only matters past 400 px, and the animated elements are below the fold (any already in view when this runs simply stay shown); until then the links, their CSS and every text work alone.
export default island('enhance', Enhance, { hydrate: 'idle' });
