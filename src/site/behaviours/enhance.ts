// Behaviours the server markup opts into, none with markup of its own: entrance animations (data-reveal), the pointer
// glow (data-glow), the scroll-to-top link (a.to-top), the header's scrolled state and the FAQ's arrow keys. Each
// lives in its own module under lib/; they share one behaviour because they share one need (plain DOM code at idle),
// and so one small chunk.
import { behaviour } from 'site-gen-ssg';
import { enhanceAccordionKeys } from '../lib/accordion-keys.ts';
import { followPointerGlow } from '../lib/glow.ts';
import { followHeaderScroll } from '../lib/header-scroll.ts';
import { revealOnScroll } from '../lib/reveal.ts';
import { enhanceScrollToTop } from '../lib/scroll-to-top.ts';

// idle (after the load event): none is needed at first paint. The scroll-to-top link only matters past 400 px, the
// header's scrolled look is a nicety, the animated elements are below the fold (any already in view when this runs
// simply stay shown), and the FAQ far down the page opens without it (<details>); until then the links, their CSS
// and every text work alone. No React: a page nobody touches never loads it.
export default behaviour('enhance', { hydrate: 'idle' }, () => {
  revealOnScroll(document);
  followPointerGlow(document);
  enhanceScrollToTop(document);
  followHeaderScroll(document);
  enhanceAccordionKeys(document);
});
