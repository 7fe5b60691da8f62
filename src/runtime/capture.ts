// Inlined in the <head> of every page with islands, so it runs before the visitor can act: holds what is done to an
// island that is not live yet (its code may still be on the way) for the runtime to hydrate it at once and replay,
// and starts the runtime (the page's entry module) once the page has loaded, or at the first input it holds.
import { owns, pendingIslandOf, type Capture, type HeldEvent } from './scope.ts';

const capture: Capture = (window.siteGenCapture = { held: [] });

// No script competes with the HTML, the stylesheet and the fonts for the first paint: the runtime waits for the load
// event and for the first contentful paint to be reported, unless the visitor needs it sooner. A small page can fire
// load before it first paints, and a frame drawn on the main thread is not yet one on screen: the paint entry is
// reported once it is (browsers without paint timing wait for a drawn frame instead).
const entry = document.currentScript?.dataset.entry;
let started = false;
function startRuntime(): void {
  if (started || !entry) return;
  started = true;
  import(entry).catch((error: unknown) => console.error("site-gen: the page's script could not be loaded:", error));
}
let waiting = 2;
const ready = () => {
  if (--waiting === 0) startRuntime();
};
if (document.readyState === 'complete') ready();
else window.addEventListener('load', ready, { once: true });
if (typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    ready();
  }).observe({ type: 'paint', buffered: true });
} else {
  // A timeout set from an animation frame runs once that frame is drawn.
  requestAnimationFrame(() => setTimeout(ready));
}

/** The pointer or focus arriving on an island, or on markup an island enhances, is a reason to start the runtime now. */
function onIntent(event: Event): void {
  if (started) return;
  const islands = document.querySelectorAll<HTMLElement>('site-island[data-island]:not([data-hydrated])');
  if (pendingIslandOf(event.target) || [...islands].some((island) => owns(island, event.target))) startRuntime();
}
for (const type of ['pointerover', 'focusin', 'touchstart'])
  document.addEventListener(type, onIntent, { capture: true, passive: true });

// Clicks and submits are cancelled now and replayed: their default (follow a link, send the form) happens once, at
// the replay, unless the live island cancels it. Keys and typing keep their default (the text goes into the field
// now) and replay for the island's handlers.
const CANCELLED = new Set(['click', 'submit']);

const isCheckable = (node: Element): node is HTMLInputElement =>
  node instanceof HTMLInputElement && (node.type === 'checkbox' || node.type === 'radio');

/** Clicks the browser must act on now: a file picker opens only for the visitor's own click; a label passes its click on to its control, which is held instead. */
function passesNow(event: Event, target: Element): boolean {
  if (event.type !== 'click') return false;
  if (target instanceof HTMLInputElement && target.type === 'file') return true;
  const control = target.closest('label')?.control;
  return !!control && !control.contains(target);
}

function pathOf(island: Element, target: Element): number[] {
  const path: number[] = [];
  for (let node = target; node !== island && node.parentElement; node = node.parentElement) {
    path.unshift([...node.parentElement.children].indexOf(node));
  }
  return path;
}

/** The held key press that a keyboard click (Enter or Space on a button) or an Enter in a field's form came from. */
function causeOf(event: Event, target: Element): HeldEvent | undefined {
  const keyboardClick = event.type === 'click' && (event as MouseEvent).detail === 0;
  if (!keyboardClick && event.type !== 'submit') return undefined;
  for (let i = capture.held.length - 1; i >= 0; i--) {
    const held = capture.held[i]!;
    if (held.event.type !== 'keydown') continue;
    const key = (held.event as KeyboardEvent).key;
    if (
      keyboardClick
        ? held.target === target && (key === 'Enter' || key === ' ')
        : key === 'Enter' && target.contains(held.target)
    )
      return held;
  }
  return undefined;
}

function hold(event: Event): void {
  const island = pendingIslandOf(event.target);
  const target = event.target as Element;
  if (!island || passesNow(event, target)) return;
  // The island's own listeners (React attaches them before it has finished) must see it once: at the replay.
  event.stopImmediatePropagation();
  const held: HeldEvent = { island, event, target, path: pathOf(island, target), cause: causeOf(event, target) };
  if (isCheckable(target)) {
    // The box ticks under the visitor's finger now; the replay unticks it first, so its click toggles it once, and
    // that click fires the input and change events again.
    if (event.type === 'input' || event.type === 'change') return;
    if (event.type === 'click') held.value = target.checked;
  } else {
    if (CANCELLED.has(event.type)) event.preventDefault();
    if ('value' in target && (event.type === 'input' || event.type === 'change')) held.value = String(target.value);
  }
  // Typing makes one input event a key: the last one carries the field's value, and one replay of it is enough.
  if (event.type === 'input')
    capture.held = capture.held.filter((other) => other.event.type !== 'input' || other.target !== target);
  capture.held.push(held);
  startRuntime();
  capture.onHold?.(island);
}

for (const type of ['click', 'submit', 'keydown', 'keyup', 'input', 'change'])
  document.addEventListener(type, hold, true);
