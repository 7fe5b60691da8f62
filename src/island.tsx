// Marks a component as an island: rendered on the server in place, hydrated in the browser by a strategy.
import { Component, createContext, createElement, Suspense, useContext, type ComponentType, type ReactNode } from 'react';
import { DefaultErrorScreen, type ErrorScreenComponent } from './error-screen.tsx';

/**
 * When an island's code runs in the browser: at once, after the load event when the main thread is idle, when
 * scrolled into view, when a media query matches, or at the visitor's first interaction with it. Whatever the
 * strategy, a click, key press, submit or change on an island that is not live yet hydrates it at once (src/runtime).
 */
export const HYDRATE_STRATEGIES = ['load', 'idle', 'visible', 'media', 'interaction'] as const;
export type HydrateStrategy = (typeof HYDRATE_STRATEGIES)[number];

export interface IslandOptions {
  hydrate: HydrateStrategy;
  /** The media query, for `hydrate: 'media'`. */
  media?: string;
  /**
   * A selector for server markup outside the island that it gives behaviour to (e.g. '.tooltip-anchor'): the pointer
   * or focus there counts as interaction with the island, and gets hover or focus once it is live.
   */
  targets?: string;
}

export interface IslandDefinition<P = any> extends IslandOptions {
  /** Equals the module's file name in src/site/islands/ without extension. */
  name: string;
  component: ComponentType<P>;
}

export type IslandComponent<P> = ComponentType<P> & { island: IslandDefinition<P> };

/** Set by the page renderer: islands register themselves here and render a placeholder filled in afterwards. */
export interface IslandRegistry {
  add(definition: IslandDefinition, props: unknown): number;
}
export const IslandRegistryContext = createContext<IslandRegistry | null>(null);

/**
 * Declares an island. Use as the default export of `src/site/islands/<name>.tsx`:
 * `export default island('faq', Faq, { hydrate: 'visible' })`.
 */
export function island<P extends object>(name: string, component: ComponentType<P>, options: IslandOptions): IslandComponent<P> {
  const definition: IslandDefinition<P> = { name, component, ...options };
  function Island(props: P) {
    const registry = useContext(IslandRegistryContext);
    // Inside another island (or in a unit test) there is no registry: render in place, hydrated with its parent.
    if (!registry) return createElement(component as ComponentType<any>, props);
    const slot = registry.add(definition as IslandDefinition, props);
    return createElement('site-island', { 'data-island-slot': String(slot) });
  }
  Island.displayName = `Island(${name})`;
  Island.island = definition;
  return Island as IslandComponent<P>;
}

interface BoundaryProps {
  name: string;
  /** The site's error screen (src/site/error.tsx); site-gen's neutral one when the site has none. */
  fallback?: ErrorScreenComponent;
  children?: ReactNode;
}

/** Shows an error screen in place of an island that throws while rendering in the browser. */
export class IslandBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    // The site's screen may be lazy (fetched on the first failure): nothing shows until it has arrived.
    return createElement(Suspense, { fallback: null }, createElement(this.props.fallback ?? DefaultErrorScreen, { error: this.state.error, inline: true }));
  }
}
