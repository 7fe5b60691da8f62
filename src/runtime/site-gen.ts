// What `import … from 'site-gen-ssg'` is for a behaviour module (src/site/behaviours/) in the browser bundle: the public
// API without React, so a behaviour's chunk never reaches it (src/pipeline/public-entry.ts resolves it by importer).
import { defineBehaviour, type Mount } from '../behaviour.ts';
import type { BehaviourComponent, IslandOptions } from '../island.tsx';

export type { Mount, BehaviourDefinition } from '../behaviour.ts';
export type { BehaviourComponent, HydrateStrategy, IslandOptions } from '../island.tsx';

/** The browser's `behaviour()`: the same definition as on the server (src/island.tsx), for the runtime to mount. */
export function behaviour<P extends object = object>(
  name: string,
  options: IslandOptions,
  mount: Mount<P>,
): BehaviourComponent<P> {
  // Its markup is rendered on the server only: the browser never renders a behaviour, so there is no component here.
  const serverOnly = () => {
    throw new Error(
      `Behaviour "${name}" renders on the server only; in the browser its mount function runs on that markup.`,
    );
  };
  return Object.assign(serverOnly, { behaviour: defineBehaviour(name, options, mount) });
}
