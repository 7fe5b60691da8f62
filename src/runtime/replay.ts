// Once an island is live: replays what the visitor did to it before, in order, and gives the element under the
// pointer and the focused element what hover and focus would have given (a tooltip opens).
import { owns, type HeldEvent } from './scope.ts';

/** The held event's target in the live island: the same node, or the one at the same place if hydration replaced it. */
function targetOf(island: HTMLElement, held: HeldEvent): Element | null {
  if (held.target.isConnected && island.contains(held.target)) return held.target;
  let node: Element | undefined = island;
  for (const index of held.path) node = node?.children[index];
  return node ?? null;
}

/**
 * Sets the field back to how it was before the visitor's event, through its own property (where React notes the
 * value it knows), then puts the visitor's value in without telling React: the replayed event then reports a change
 * to a controlled field's onChange, and no re-render takes the text away. A box is left unticked for its click.
 */
function restoreValue(target: Element, value: string | boolean): void {
  if (typeof value === 'boolean') {
    if (target instanceof HTMLInputElement) target.checked = !value;
    return;
  }
  const field = target as HTMLInputElement;
  const selection = document.activeElement === field ? [field.selectionStart, field.selectionEnd] : undefined;
  if ('defaultValue' in field) field.value = field.defaultValue;
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
  if (selection?.[0] != null) field.setSelectionRange(selection[0], selection[1]);
}

export function replay(island: HTMLElement, held: HeldEvent[]): void {
  const cancelled = new Set<HeldEvent>();
  for (const entry of held) {
    const target = targetOf(island, entry);
    // A click or submit that followed from a key press the live island cancels would not have happened.
    if (!target || (entry.cause && cancelled.has(entry.cause))) continue;
    if (entry.value !== undefined) restoreValue(target, entry.value);
    if (entry.event.type === 'submit' && target instanceof HTMLFormElement) {
      // requestSubmit fires the submit the island listens for and, unless cancelled, sends the form as the browser would.
      const submitter = (entry.event as SubmitEvent).submitter;
      target.requestSubmit(
        submitter?.isConnected && (submitter as HTMLButtonElement).form === target ? submitter : undefined,
      );
      continue;
    }
    // An event object cannot be dispatched twice: a copy with the same fields (keys, buttons, coordinates, submitter).
    const copy = new (entry.event.constructor as typeof Event)(entry.event.type, entry.event as unknown as EventInit);
    if (!target.dispatchEvent(copy)) cancelled.add(entry);
  }
  resumeHoverAndFocus(island);
}

function resumeHoverAndFocus(island: HTMLElement): void {
  const hovered = [...document.querySelectorAll(':hover')].filter((node) => owns(island, node));
  const deepest = hovered.at(-1);
  if (deepest) {
    const init = { bubbles: true, composed: true, pointerType: 'mouse', isPrimary: true };
    deepest.dispatchEvent(new PointerEvent('pointerover', init));
    deepest.dispatchEvent(new MouseEvent('mouseover', init));
    for (const node of hovered) {
      node.dispatchEvent(new PointerEvent('pointerenter', { ...init, bubbles: false }));
      node.dispatchEvent(new MouseEvent('mouseenter', { ...init, bubbles: false }));
    }
  }
  const focused = document.activeElement;
  if (focused && focused !== document.body && owns(island, focused)) {
    focused.dispatchEvent(new FocusEvent('focus'));
    focused.dispatchEvent(new FocusEvent('focusin', { bubbles: true, composed: true }));
  }
}
