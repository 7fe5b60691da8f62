// Shows the page's tooltips (components/Tooltip.tsx): after the open delay on hover, at once within the skip delay
// of another closing or on keyboard focus; Escape, leaving, blurring or pressing closes. One set of listeners for all.
import { tooltipTiming, type TooltipTiming } from './tooltip-timing.ts';

/** Room kept between a tooltip and the edge of the window. */
const EDGE_PX = 8;

/**
 * Opens a tooltip by setting `data-open` on it, an attribute no React render sets, so a tooltip inside an island
 * (the theme switch) is never reset by it. Returns the function that removes the listeners.
 */
export function enhanceTooltips(doc: Document, timing: TooltipTiming = tooltipTiming): () => void {
  let open: HTMLElement | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A press closes the tooltip; the focus that follows it must not bring it back.
  let pressed = false;

  const anchorOf = (node: EventTarget | null) => (node instanceof Element ? node.closest<HTMLElement>('.tooltip-anchor') : null);
  const leaves = (anchor: HTMLElement, to: EventTarget | null) => !(to instanceof Node && anchor.contains(to));

  const hide = () => {
    clearTimeout(timer);
    if (!open) return;
    open.removeAttribute('data-open');
    open = null;
    timing.closed();
  };

  const show = (anchor: HTMLElement) => {
    clearTimeout(timer);
    const tip = anchor.querySelector<HTMLElement>(':scope > [role="tooltip"]');
    if (!tip || tip === open) return;
    hide();
    tip.setAttribute('data-open', '');
    open = tip;
    // Keep it inside the window: shift it sideways by what overflows (measured now it is displayed, before paint).
    tip.style.removeProperty('--tooltip-shift');
    const { left, right } = tip.getBoundingClientRect();
    const limit = doc.documentElement.clientWidth - EDGE_PX;
    const shift = left < EDGE_PX ? EDGE_PX - left : right > limit ? limit - right : 0;
    if (shift !== 0) tip.style.setProperty('--tooltip-shift', `${Math.round(shift)}px`);
  };

  const onPointerOver = (event: PointerEvent) => {
    const anchor = anchorOf(event.target);
    // Touch has no hover: a tap is a click. Moves inside the same control change nothing.
    if (!anchor || event.pointerType === 'touch' || !leaves(anchor, event.relatedTarget)) return;
    const delay = timing.openDelay();
    clearTimeout(timer);
    if (delay === 0) show(anchor);
    else timer = setTimeout(() => show(anchor), delay);
  };
  // The pointer or the focus leaving the control closes its tooltip.
  const onLeave = (event: PointerEvent | FocusEvent) => {
    const anchor = anchorOf(event.target);
    if (!anchor || !leaves(anchor, event.relatedTarget)) return;
    pressed = false;
    hide();
  };
  const onPointerDown = (event: PointerEvent) => {
    if (!anchorOf(event.target)) return;
    pressed = true;
    hide();
  };
  const onFocusIn = (event: FocusEvent) => {
    const anchor = anchorOf(event.target);
    if (anchor && !pressed && event.target instanceof Element && event.target.matches(':focus-visible')) show(anchor);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') hide();
  };

  const listeners = [
    ['pointerover', onPointerOver],
    ['pointerout', onLeave],
    ['pointerdown', onPointerDown],
    ['focusin', onFocusIn],
    ['focusout', onLeave],
    ['keydown', onKeyDown],
  ] as const;
  for (const [type, listener] of listeners) doc.addEventListener(type, listener as EventListener);
  return () => {
    hide();
    for (const [type, listener] of listeners) doc.removeEventListener(type, listener as EventListener);
  };
}
