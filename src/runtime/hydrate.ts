// The React half of the runtime, imported with the first island to hydrate: React is never on a page's critical path.
import { createElement, lazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BaseContext } from '../base.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
// The islands reach island.tsx and base.ts through the public entry; importing it here too puts it in the same chunk
// as them rather than in a chunk of its own, which would hold no code (it only re-exports) and cost a request.
import '../index.ts';
import { IslandBoundary, type IslandComponent } from '../island.tsx';
import { propsOf } from './scope.ts';

/** Imports the site's error screen (src/site/error.tsx): fetched only when an island fails. */
export type ErrorScreenLoader = () => Promise<{ default: ErrorScreenComponent }>;

export interface HydrateContext {
  /** The URL base the page is served under, for the islands' links. */
  base: string;
  loadErrorScreen?: ErrorScreenLoader;
}

// One lazy component per page, shared by its islands: React keeps what it loaded.
let screen: { load: ErrorScreenLoader; component: ErrorScreenComponent } | undefined;
function errorScreen(load: ErrorScreenLoader | undefined): ErrorScreenComponent | undefined {
  if (!load) return undefined;
  if (screen?.load !== load) screen = { load, component: lazy(load) };
  return screen.component;
}

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
export function hydrateIsland(
  element: HTMLElement,
  name: string,
  island: IslandComponent<object>,
  context: HydrateContext,
): Promise<void> {
  const props = propsOf(element);
  const component = island.island.component as ComponentType<object>;
  const guarded = createElement(
    IslandBoundary,
    { name, fallback: errorScreen(context.loadErrorScreen) },
    createElement(component, props),
  );
  return new Promise((resolve) => {
    hydrateRoot(
      element,
      createElement(
        Live,
        { onLive: () => resolve() },
        createElement(BaseContext.Provider, { value: context.base }, guarded),
      ),
      {
        identifierPrefix: element.dataset.id,
        // One line per failed island; the boundary shows the error screen in its place.
        onCaughtError: (error) => console.error(`Island "${name}" failed to render:`, error),
      },
    );
  });
}
