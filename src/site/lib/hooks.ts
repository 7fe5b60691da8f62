// Small React hooks the islands share: reading browser state after hydration, so the first render matches the server's.
import { useEffect, useState } from 'react';

/** False on the server and in the first browser render, true from then on: for markup that needs JavaScript. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** Whether the page is scrolled more than `threshold` px; undefined until known (server and first render). */
export function useScrolledPast(threshold: number): boolean | undefined {
  const [past, setPast] = useState<boolean>();
  useEffect(() => {
    const update = () => setPast(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return past;
}
