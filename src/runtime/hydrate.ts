// The React half of the runtime, imported with the first island to hydrate: React is never on a page's critical path.
import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { IslandBoundary, type IslandComponent } from '../island.tsx';

/**
 * Reports the island live after the render that follows hydration: components that switch their markup once
 * hydrated (a link that becomes a button) do it from an effect, in that same render, so the replay meets the final
 * markup. A parent's effects run after its children's, so the island's own listeners are in place by then.
 */
function Live({ onLive, children }: { onLive: () => void; children?: ReactNode }) {
  const [settled, setSettled] = useState(false);
  useEffect(() => setSettled(true), []);
  useEffect(() => {
    if (settled) onLive();
  }, [settled, onLive]);
  return children;
}

/** Hydrates the island in its element; resolves once it is committed and its effects have run. */
export function hydrateIsland(element: HTMLElement, name: string, island: IslandComponent<object>): Promise<void> {
  const props = element.dataset.props ? JSON.parse(element.dataset.props) : {};
  const component = island.island.component as ComponentType<object>;
  return new Promise((resolve) => {
    hydrateRoot(element, createElement(Live, { onLive: () => resolve() }, createElement(IslandBoundary, { name }, createElement(component, props))), {
      identifierPrefix: element.dataset.id,
      // One line per failed island; the boundary shows the error screen in its place.
      onCaughtError: (error) => console.error(`Island "${name}" failed to render:`, error),
    });
  });
}
