// Browser entry shared by every page: finds the page's islands and hydrates each by its strategy.
import { createElement, lazy, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { BaseContext } from '../base.ts';
// The islands reach island.tsx and base.ts through the public entry; importing it here too puts it in the same chunk
// as them rather than in a chunk of its own, which would hold no code (it only re-exports) and cost every page a request.
import '../index.ts';
import type { ErrorScreenComponent } from '../error-screen.tsx';
import { IslandBoundary, type IslandComponent } from '../island.tsx';
import { idle } from './strategies/idle.ts';
import { load } from './strategies/load.ts';
import { media } from './strategies/media.ts';
import type { Strategy } from './strategies/types.ts';
import { visible } from './strategies/visible.ts';

export type IslandLoaders = Record<string, () => Promise<{ default: IslandComponent<object> }>>;

const strategies: Record<string, Strategy> = { load, idle, visible, media };

/** `loadErrorScreen`: imports the site's src/site/error.tsx, shown in place of an island that throws; site-gen's neutral screen without it. */
export function start(loaders: IslandLoaders, loadErrorScreen?: () => Promise<{ default: ErrorScreenComponent }>): void {
  const base = document.documentElement.dataset.base ?? '/';
  const errorScreen = loadErrorScreen ? lazy(loadErrorScreen) : undefined;
  for (const element of document.querySelectorAll<HTMLElement>('site-island[data-island]')) {
    const name = element.dataset.island!;
    const loader = loaders[name];
    const strategy = strategies[element.dataset.hydrate ?? 'load'];
    if (!loader || !strategy) {
      console.error(`site-gen: no island "${name}" or strategy "${element.dataset.hydrate}" in this page's bundle`);
      continue;
    }
    strategy(element, () => void hydrate(element, name, loader, { base, errorScreen }));
  }
}

async function hydrate(element: HTMLElement, name: string, loader: IslandLoaders[string], context: { base: string; errorScreen?: ErrorScreenComponent }): Promise<void> {
  const { default: island } = await loader();
  const props = element.dataset.props ? JSON.parse(element.dataset.props) : {};
  const component = island.island.component as ComponentType<object>;
  const guarded = createElement(IslandBoundary, { name, fallback: context.errorScreen }, createElement(component, props));
  hydrateRoot(element, createElement(BaseContext.Provider, { value: context.base }, guarded), {
    identifierPrefix: element.dataset.id,
    // One line per failed island; the boundary shows the error screen in its place.
    onCaughtError: (error) => console.error(`Island "${name}" failed to render:`, error),
  });
}
