// What the inline capture script and the runtime agree on: which island a node belongs to, and what is held for it.

/** An event held for an island that was not live yet, to replay once it is. */
export interface HeldEvent {
  island: HTMLElement;
  event: Event;
  target: Element;
  /** Child indexes from the island down to the target: finds it again if hydration replaced the markup. */
  path: number[];
  /** The field's value when the visitor changed it: hydration must not take it back. */
  value?: string | boolean;
  /** The key press this click or submit followed from: it replays only if that key press is not cancelled. */
  cause?: HeldEvent;
}

/** Set on `window` by the capture script (src/runtime/capture.ts); read by the runtime. */
export interface Capture {
  held: HeldEvent[];
  /** Called with the island each time an event is held for it; set by the runtime once it runs. */
  onHold?: (island: HTMLElement) => void;
}

declare global {
  interface Window {
    siteGenCapture?: Capture;
  }
}

/**
 * The island that owns this node and is not live yet: the runtime marks a live island `data-hydrated`. An island
 * whose media query does not match is never hydrated, so what happens on it is not held either.
 */
export function pendingIslandOf(node: EventTarget | null): HTMLElement | null {
  const island = node instanceof Element ? node.closest<HTMLElement>('site-island[data-island]') : null;
  if (!island || island.hasAttribute('data-hydrated')) return null;
  if (island.dataset.hydrate === 'media' && !window.matchMedia(island.dataset.media ?? 'all').matches) return null;
  return island;
}

/**
 * Whether the island answers for this node: its own markup, or server markup outside it that it enhances
 * (`data-targets`, a selector: the tooltips island and `.tooltip-anchor`).
 */
export function owns(island: HTMLElement, node: EventTarget | null): boolean {
  if (!(node instanceof Element)) return false;
  const targets = island.dataset.targets;
  return island.contains(node) || (!!targets && node.closest(targets) !== null);
}

/** The props the page gave the island or behaviour (JSON in `data-props`). */
export function propsOf(element: HTMLElement): object {
  return element.dataset.props ? (JSON.parse(element.dataset.props) as object) : {};
}
