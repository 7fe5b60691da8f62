// Toasts from anywhere on the page: notify() loads the toast code on first need and shows a toast in a region.
import type { ToasterName, ToastText, ToastVariant } from './toast-store.ts';

export type { ToasterName, ToastText, ToastVariant };

let needed = false;
const listeners = new Set<() => void>();
let regionsMounted!: () => void;
const regionsReady = new Promise<void>((resolve) => (regionsMounted = resolve));

/** Called by the regions once they are on the page (components/ToastRegions.tsx). */
export function markRegionsMounted(): void {
  regionsMounted();
}

/** For useSyncExternalStore: the toasts island mounts the regions once this turns true. */
export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const toastsNeeded = (): boolean => needed;

/**
 * Loads react-hot-toast and the regions. Call it when a toast becomes likely (a form is focused), so that the
 * first toast does not wait for the download; notify() calls it too.
 */
export function loadToasts(): Promise<typeof import('./toast-store.ts')> {
  if (!needed) {
    needed = true;
    for (const listener of listeners) listener();
  }
  return import('./toast-store.ts');
}

/**
 * Shows a toast in the named region; resolves to its id. The toast enters the store once its region is on the
 * page, so that its time on screen is the region's whole duration, not less the time the code took to load.
 */
export async function notify(name: ToasterName, text: ToastText, variant: ToastVariant = 'default'): Promise<string> {
  const store = await loadToasts();
  await regionsReady;
  return store.show(name, text, variant);
}
