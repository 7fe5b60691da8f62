// Browser entry shared by every page: finds the page's islands and hydrates each by its strategy.
import { createElement, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { setBase } from '../base.ts';
import { IslandBoundary, type IslandComponent } from '../island.tsx';
import { idle } from './strategies/idle.ts';
import { load } from './strategies/load.ts';
import { media } from './strategies/media.ts';
import type { Strategy } from './strategies/types.ts';
import { visible } from './strategies/visible.ts';

export type IslandLoaders = Record<string, () => Promise<{ default: IslandComponent<object> }>>;

const strategies: Record<string, Strategy> = { load, idle, visible, media };

export function start(loaders: IslandLoaders): void {
  setBase(document.documentElement.dataset.base ?? '/');
  for (const element of document.querySelectorAll<HTMLElement>('site-island[data-island]')) {
    const name = element.dataset.island!;
    const loader = loaders[name];
    const strategy = strategies[element.dataset.hydrate ?? 'load'];
    if (!loader || !strategy) {
      console.error(`site-gen: no island "${name}" or strategy "${element.dataset.hydrate}" in this page's bundle`);
      continue;
    }
    strategy(element, () => void hydrate(element, name, loader));
  }
}

async function hydrate(element: HTMLElement, name: string, loader: IslandLoaders[string]): Promise<void> {
  const { default: island } = await loader();
  const props = element.dataset.props ? JSON.parse(element.dataset.props) : {};
  const component = island.island.component as ComponentType<object>;
  hydrateRoot(element, createElement(IslandBoundary, { name }, createElement(component, props)), {
    identifierPrefix: element.dataset.id,
    // One line per failed island; the boundary shows the error screen in its place.
    onCaughtError: (error) => console.error(`Island "${name}" failed to render:`, error),
  });
}
