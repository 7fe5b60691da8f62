// Behaviours: islands without React. Plain DOM code the browser runs on server markup, by the islands' strategies.
// No React here: the browser's face of site-gen for behaviour modules (src/runtime/site-gen.ts) builds on this.
import type { IslandOptions } from './island.tsx';

/**
 * A behaviour's browser code: plain DOM work on `element`, the `<site-island>` around its server markup (the
 * children it was given on the page), with the props it was given there (JSON data). It may return a promise: the
 * behaviour is live (`data-hydrated`) once it has settled. An exception, or a rejected promise, marks it failed.
 */
export type Mount<P> = (element: HTMLElement, props: P) => void | Promise<void>;

export interface BehaviourDefinition<P = any> extends IslandOptions {
  /** Equals the module's file name in src/site/behaviours/ without extension. */
  name: string;
  mount: Mount<P>;
}

export function defineBehaviour<P>(name: string, options: IslandOptions, mount: Mount<P>): BehaviourDefinition<P> {
  return { name, ...options, mount };
}
