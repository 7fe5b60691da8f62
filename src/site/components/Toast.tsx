// One toast: its message in a live region, a close button, and a swipe to the right that dismisses it.
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type PointerEvent } from 'react';
import { resolveValue, type Toast as StoredToast } from 'react-hot-toast/headless';

export interface ToastProps {
  toast: StoredToast;
  /** 0 for the front (newest) toast. */
  index: number;
  /** Distance from the region's edge when the stack is expanded: heights of the newer toasts plus the gaps. */
  offsetPx: number;
  /** Height of the front toast: the others take it while stacked behind it. */
  frontHeightPx: number;
  swipeThresholdPx: number;
  dismissLabel: string;
  onDismiss: (id: string) => void;
  onHeight: (id: string, height: number) => void;
}

export function Toast({
  toast,
  index,
  offsetPx,
  frontHeightPx,
  swipeThresholdPx,
  dismissLabel,
  onDismiss,
  onHeight,
}: ToastProps) {
  const ref = useRef<HTMLLIElement>(null);
  const swipe = useRef<{ x: number; pointer: number } | null>(null);
  // The live region enters the page empty and gets its text two frames later: screen readers announce a change to
  // a live region they already know, not one inserted with its text already in it.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => setReady(true));
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, []);
  useLayoutEffect(() => {
    const li = ref.current;
    if (!ready || !li) return;
    // Its natural height: freed for a moment from the stack's height (toasts added together start behind one
    // another), and read from layout rather than from the box on screen, which the stack scales.
    const stacked = li.style.height;
    li.style.height = 'auto';
    onHeight(toast.id, parseFloat(getComputedStyle(li).height));
    li.style.height = stacked;
  }, [ready, toast.id, onHeight]);

  const setSwipe = (px: number) => ref.current?.style.setProperty('--swipe', `${px}px`);
  const distance = (event: PointerEvent) => Math.max(0, event.clientX - (swipe.current?.x ?? event.clientX));

  function onPointerDown(event: PointerEvent<HTMLLIElement>) {
    if (event.button !== 0 || !toast.visible || (event.target as Element).closest('button')) return;
    swipe.current = { x: event.clientX, pointer: event.pointerId };
    event.currentTarget.setPointerCapture(event.pointerId);
    event.currentTarget.dataset.swiping = 'true';
  }
  function onPointerMove(event: PointerEvent<HTMLLIElement>) {
    if (swipe.current?.pointer === event.pointerId) setSwipe(distance(event));
  }
  function onPointerUp(event: PointerEvent<HTMLLIElement>) {
    if (swipe.current?.pointer !== event.pointerId) return;
    const moved = distance(event);
    swipe.current = null;
    delete event.currentTarget.dataset.swiping;
    if (moved >= swipeThresholdPx) onDismiss(toast.id);
    else setSwipe(0);
  }
  function onPointerCancel(event: PointerEvent<HTMLLIElement>) {
    swipe.current = null;
    delete event.currentTarget.dataset.swiping;
    setSwipe(0);
  }

  // Set in the browser only (toasts never render on the server), through the CSSOM: allowed by the page's CSP.
  const position = {
    '--index': index,
    '--offset': `${offsetPx}px`,
    ...(frontHeightPx > 0 && { '--front-height': `${frontHeightPx}px` }),
  } as CSSProperties;
  return (
    <li
      ref={ref}
      className="toast"
      data-toast-id={toast.id}
      data-variant={toast.type === 'error' ? 'destructive' : 'default'}
      data-state={toast.visible ? 'open' : 'closed'}
      data-ready={ready || undefined}
      data-front={index === 0 || undefined}
      style={position}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
    >
      {/* The visitor sees the message at once (issue 23: a toast answers a tap); screen readers get it from the live
          region two frames later. Until then the live region is empty and out of the flow (styles/toasts.css), and
          this copy, hidden from them, stands in its place: the swap happens in one render, with the same layout. */}
      {!ready && (
        <div className="toast-body" aria-hidden="true">
          {resolveValue(toast.message, toast)}
        </div>
      )}
      <div className="toast-body" {...toast.ariaProps} aria-atomic="true">
        {ready && resolveValue(toast.message, toast)}
      </div>
      <button type="button" className="toast-close" aria-label={dismissLabel} onClick={() => onDismiss(toast.id)}>
        {/* Drawn here rather than with lucide-react: the toast code loads apart from the page's, and sharing the icon
            library with it would split that library into a chunk of its own on every page. */}
        <svg
          width="16"
          height="16"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          aria-hidden="true"
        >
          <path d="M18 6 6 18M6 6l12 12" />
        </svg>
      </button>
    </li>
  );
}
