// Behaviours the server markup opts into, none with markup of its own: entrance animations (data-reveal), the pointer
// glow (data-glow), the scroll-to-top link (a.to-top) and the header's scrolled state. Each lives in its own module
// under lib/; they share one island because they share one hydration need, and so one small chunk.
import { useEffect } from 'react';
import { island } from 'site-gen';
import { followPointerGlow } from '../lib/glow.ts';
import { revealOnScroll } from '../lib/reveal.ts';
import { followHeaderScroll } from '../lib/header-scroll.ts';
import { enhanceScrollToTop } from '../lib/scroll-to-top.ts';

function Enhance() {
  useEffect(() => {
    const stops = [revealOnScroll(document), followPointerGlow(document), enhanceScrollToTop(document), followHeaderScroll(document)];
    return () => stops.forEach((stop) => stop());
  }, []);
  return null;
}

// idle (after the load event): none is needed at first paint. The scroll-to-top link only matters past 400 px, the
// header's scrolled look is a nicety, and the animated elements are below the fold (any already in view when this
// runs simply stay shown); until then the links, their CSS and every text work alone.
export default island('enhance', Enhance, { hydrate: 'idle' });
