// Small React hooks the islands share: reading browser state after hydration, so the first render matches the server's.
import { useEffect, useState } from 'react';

/** False on the server and in the first browser render, true from then on: for markup that needs JavaScript. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
