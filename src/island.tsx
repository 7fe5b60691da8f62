// Marks a component as an island (rendered on the server in place, hydrated in the browser by a strategy), or plain
// DOM code as a behaviour (its markup rendered on the server, its code run in the browser by the same strategies).
import {
  Component,
  createContext,
  createElement,
  Suspense,
  useContext,
  type ComponentType,
  type ReactNode,
} from 'react';
import { defineBehaviour, type BehaviourDefinition, type Mount } from './behaviour.ts';
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

/** What a page renders for a behaviour: its server markup (the children) inside the element its code runs on. */
export type BehaviourComponent<P> = ((props: P & { children?: ReactNode }) => ReactNode) & {
  behaviour: BehaviourDefinition<P>;
};

/** Set by the page renderer: islands and behaviours register here and render a placeholder filled in afterwards. */
export interface IslandRegistry {
  /** `children`: a behaviour's server markup. */
  add(definition: IslandDefinition | BehaviourDefinition, props: unknown, children?: ReactNode): number;
}
export const IslandRegistryContext = createContext<IslandRegistry | null>(null);

/**
 * Declares an island. Use as the default export of `src/site/islands/<name>.tsx`:
 * `export default island('faq', Faq, { hydrate: 'visible' })`.
 */
export function island<P extends object>(
  name: string,
  component: ComponentType<P>,
  options: IslandOptions,
): IslandComponent<P> {
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

/**
 * Declares a behaviour: an island without React. Use as the default export of `src/site/behaviours/<name>.ts`:
 * `export default behaviour('copyright-year', { hydrate: 'idle' }, (element, props) => { … })`. On a page it wraps
 * its server markup, `<CopyrightYear {...props}><p>…</p></CopyrightYear>`; the browser runs only `mount` on it, and
 * never loads React for it (the build fails if its module would).
 */
export function behaviour<P extends object = object>(
  name: string,
  options: IslandOptions,
  mount: Mount<P>,
): BehaviourComponent<P> {
  const definition = defineBehaviour(name, options, mount);
  function Behaviour({ children, ...props }: P & { children?: ReactNode }) {
    const registry = useContext(IslandRegistryContext);
    // Inside an island (or in a unit test) there is no registry: only the markup; nothing runs it in the browser.
    if (!registry) return children;
    const slot = registry.add(definition as BehaviourDefinition, props, children);
    return createElement('site-island', { 'data-island-slot': String(slot) });
  }
  Behaviour.displayName = `Behaviour(${name})`;
  Behaviour.behaviour = definition;
  return Behaviour as BehaviourComponent<P>;
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
    return createElement(
      Suspense,
      { fallback: null },
      createElement(this.props.fallback ?? DefaultErrorScreen, { error: this.state.error, inline: true }),
    );
  }
}
