// The page's two toast regions, mounted on first need: their code (react-hot-toast included) loads only then.
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { island } from 'site-gen-ssg';
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

// interaction, with the forms that toast as its targets: the pointer or the focus reaching one of them (which starts
// that form's island too) starts this, so a page nobody touches never loads React for it. A toast asked for before
// this is live waits for its region (lib/toasts.ts notify).
export default island('toasts', Toasts, { hydrate: 'interaction', targets: 'form.contact-form, form.newsletter' });
