// One toast region: a labelled landmark listing its toasts (stacked until hovered, or one at a time); a hotkey focuses it.
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type CSSProperties,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { toast as toasts, useToaster, type Toast as StoredToast } from 'react-hot-toast/headless';
import { matchesHotkey } from '../lib/hotkeys.ts';
import { toasters, type ToasterName, type ToasterSettings } from '../lib/toast-store.ts';
import { Toast } from './Toast.tsx';

export interface ToasterProps {
  name: ToasterName;
  /** The region's accessible name. */
  label: string;
  /** Accessible name of each toast's close button. */
  dismissLabel: string;
}

interface Placement {
  index: number;
  offsetPx: number;
}

/** Where each open toast sits, newest (front) first: its place in the stack and its distance from the region's edge. */
export function placeToasts(open: Array<Pick<StoredToast, 'id' | 'height'>>, gapPx: number): Map<string, Placement> {
  const placements = new Map<string, Placement>();
  let offsetPx = 0;
  open.forEach((t, index) => {
    placements.set(t.id, { index, offsetPx });
    offsetPx += (t.height ?? 0) + gapPx;
  });
  return placements;
}

export function Toaster({ name, label, dismissLabel }: ToasterProps) {
  const settings: ToasterSettings = toasters[name];
  const { toasts: stored, handlers } = useToaster(undefined, settings.id);
  const region = useRef<HTMLElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);

  const open = stored.filter((t) => t.visible);
  const shown = stored.filter((t) => t.visible || t.dismissed);
  const gapPx = settings.stackGapPx ?? 0;
  const placements = placeToasts(open, gapPx);
  // A dismissed toast keeps its last place while it leaves.
  const lastPlacements = useRef(new Map<string, Placement>());
  for (const [id, placement] of placements) lastPlacements.current.set(id, placement);
  for (const id of lastPlacements.current.keys())
    if (!stored.some((t) => t.id === id)) lastPlacements.current.delete(id);
  const expanded = hovered || focused;
  const frontHeightPx = open[0]?.height ?? 0;
  const stackHeightPx = expanded
    ? open.reduce((sum, t) => sum + (t.height ?? 0), 0) + gapPx * Math.max(0, open.length - 1)
    : frontHeightPx + gapPx * Math.max(0, open.length - 1);

  const dismiss = useCallback(
    (id: string) => {
      // A toast that holds focus is about to leave the page: keep focus in the region meanwhile.
      const element = region.current?.querySelector(`[data-toast-id="${CSS.escape(id)}"]`);
      if (element?.contains(document.activeElement)) region.current?.focus();
      toasts.dismiss(id, settings.id);
    },
    [settings.id],
  );

  // At most `visibleToasts` open: a new toast dismisses the oldest.
  useEffect(() => {
    for (const t of open.slice(settings.visibleToasts)) dismiss(t.id);
  });

  // Timers stop while the visitor reads (pointer over the region, or focus in it).
  const paused = expanded && open.length > 0;
  // Only a change of `paused` starts or ends a pause (the handlers change with every toast).
  useEffect(() => {
    if (paused) handlers.startPause();
    else handlers.endPause();
  }, [paused]);

  // The hotkey moves focus to the region while it has toasts.
  const hasToasts = open.length > 0;
  useEffect(() => {
    if (!hasToasts) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (!matchesHotkey(event, settings.hotkey)) return;
      event.preventDefault();
      region.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [hasToasts, settings.hotkey]);

  // When the last toast goes while focus is in the region, focus goes back to where it was.
  useEffect(() => {
    if (hasToasts) return;
    // An empty region has no box: the pointer cannot be over it any more.
    setHovered(false);
    if (!focused) return;
    const target = returnFocus.current;
    returnFocus.current = null;
    setFocused(false);
    if (target?.isConnected) target.focus();
    else region.current?.blur();
  }, [hasToasts, focused]);

  function onFocus(event: FocusEvent<HTMLElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null))
      returnFocus.current = event.relatedTarget as HTMLElement | null;
    setFocused(true);
  }
  function onBlur(event: FocusEvent<HTMLElement>) {
    // Leaving the region (for another element, or for nothing: a click on the page). dismiss() moves focus to the
    // region before a focused toast goes, so focus is never lost to a removal.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  }
  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key !== 'Escape') return;
    const id = (event.target as Element).closest<HTMLElement>('[data-toast-id]')?.dataset.toastId ?? open[0]?.id;
    if (!id) return;
    event.preventDefault();
    dismiss(id);
  }

  const listStyle = { '--stack-height': `${stackHeightPx}px`, '--gap': `${gapPx}px` } as CSSProperties;
  return (
    <section
      ref={region}
      className="toaster"
      aria-label={label}
      aria-keyshortcuts={settings.hotkey}
      tabIndex={-1}
      data-position={settings.position}
      data-stacked={settings.stackGapPx !== null || undefined}
      data-expanded={expanded || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={onFocus}
      onBlur={onBlur}
      onKeyDown={onKeyDown}
    >
      <ol className="toast-list" style={listStyle}>
        {shown.map((t) => {
          const placement = placements.get(t.id) ?? lastPlacements.current.get(t.id) ?? { index: 0, offsetPx: 0 };
          return (
            <Toast
              key={t.id}
              toast={t}
              index={placement.index}
              offsetPx={placement.offsetPx}
              frontHeightPx={frontHeightPx}
              swipeThresholdPx={settings.swipeThresholdPx}
              dismissLabel={dismissLabel}
              onDismiss={dismiss}
              onHeight={handlers.updateHeight}
            />
          );
        })}
      </ol>
    </section>
  );
}
