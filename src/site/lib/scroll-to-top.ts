// The scroll-to-top link's behaviour: shown past 400 px in every browser, and a scroll up without "#" in the address.
import { SCROLL_TOP_THRESHOLD_PX } from '../constants.ts';
import { scrollBehavior } from './motion.ts';

/** Enhances the page's scroll-to-top link (components/ScrollToTop.tsx), if any; returns the function that removes its listeners. */
export function enhanceScrollToTop(doc: Document): () => void {
  const link = doc.querySelector<HTMLAnchorElement>('a.to-top');
  if (!link) return () => {};
  // data-state takes over from the CSS scroll timeline (styles/layout.css): "shown" strictly past 400 px.
  const update = () => link.setAttribute('data-state', window.scrollY > SCROLL_TOP_THRESHOLD_PX ? 'shown' : 'hidden');
  const onClick = (event: MouseEvent) => {
    event.preventDefault();
    window.scrollTo({ top: 0, behavior: scrollBehavior() });
    if (window.location.hash) window.history.pushState(null, '', window.location.pathname + window.location.search);
    // It hides at the top. From the keyboard (a click without pointer detail) carry on from the top of the page,
    // as after loading it: its first link is the skip link. From a pointer just let go of the focus.
    if (event.detail === 0) doc.querySelector<HTMLElement>('a[href]')?.focus({ preventScroll: true });
    else link.blur();
  };
  update();
  window.addEventListener('scroll', update, { passive: true });
  link.addEventListener('click', onClick);
  return () => {
    window.removeEventListener('scroll', update);
    link.removeEventListener('click', onClick);
  };
}
