// The page's two toast regions, mounted on first need: their code (react-hot-toast included) loads only then.
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { island } from 'site-gen';
import type { ToastRegionsProps } from '../components/ToastRegions.tsx';
import { subscribeToToasts, toastsNeeded } from '../lib/toasts.ts';

const ToastRegions = lazy(() => import('../components/ToastRegions.tsx').then((m) => ({ default: m.ToastRegions })));

/**
 * Renders nothing until a form is in use (lib/toasts.ts loadToasts / notify). Server and first browser render are
 * both empty (the server snapshot), even if a toast was asked for before this island hydrated.
 */
function Toasts(props: ToastRegionsProps) {
  const needed = useSyncExternalStore(subscribeToToasts, toastsNeeded, () => false);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegions {...props} />
    </Suspense>
  );
}

// idle: a few hundred bytes that only wait for the first toast; nothing of it is needed for first paint or first input.
export default island('toasts', Toasts, { hydrate: 'idle' });
