// Browser entry shared by every page: starts each island and behaviour by its strategy, or at once when the visitor
// acts on it first, then replays what was held meanwhile. React and the islands' code are imported only when an
// island needs them; a behaviour (plain DOM code) never imports React or hydrate.ts.
import type { BehaviourDefinition } from '../behaviour.ts';
import type { ErrorScreenLoader } from './hydrate.ts';
import type { IslandComponent } from '../island.tsx';
import { loadGraph, preloadIsland } from './preload.ts';
import { propsOf, type Capture } from './scope.ts';
import { idle } from './strategies/idle.ts';
import { interaction } from './strategies/interaction.ts';
import { load } from './strategies/load.ts';
import { media } from './strategies/media.ts';
import type { Strategy } from './strategies/types.ts';
import { visible } from './strategies/visible.ts';

export type IslandLoaders = Record<string, () => Promise<{ default: IslandComponent<object> }>>;
export type BehaviourLoaders = Record<string, () => Promise<{ default: { behaviour: BehaviourDefinition<object> } }>>;

interface Context {
  base: string;
  loadErrorScreen?: ErrorScreenLoader;
}

const strategies: Record<string, Strategy> = { load, idle, visible, media, interaction };

type Replay = typeof import('./replay.ts').replay;
/** How an island or behaviour ends its start: live (`''`) or `'failed'`, the value of its `data-hydrated`. */
type Settled = '' | 'failed';
type Settle = (state: Settled, replay?: Replay) => void;

/** `loadErrorScreen`: imports the site's src/site/error.tsx, shown in place of an island that throws; site-gen's neutral screen without it. */
export function start(islands: IslandLoaders, behaviours: BehaviourLoaders, loadErrorScreen?: ErrorScreenLoader): void {
  const context: Context = { base: document.documentElement.dataset.base ?? '/', loadErrorScreen };
  // Absent only from a page whose template lost its head script: islands then hydrate by strategy alone.
  const capture = window.siteGenCapture;
  loadGraph(document.querySelector<HTMLScriptElement>('script[data-entry]')?.dataset.entry);
  const starters = new Map<HTMLElement, () => void>();
  for (const element of document.querySelectorAll<HTMLElement>('site-island[data-island]')) {
    const name = element.dataset.island!;
    const isBehaviour = element.hasAttribute('data-behaviour');
    const behaviour = behaviours[name];
    const island = islands[name];
    const settle = (state: Settled, replay?: Replay) => settleIsland(element, state, capture, replay);
    const run = isBehaviour
      ? behaviour && (() => startBehaviour(element, name, behaviour, settle))
      : island && (() => startIsland(element, name, island, context, settle));
    const strategy = strategies[element.dataset.hydrate ?? 'load'];
    if (!run || !strategy) {
      console.error(
        `site-gen: no ${isBehaviour ? 'behaviour' : 'island'} "${name}" or strategy "${element.dataset.hydrate}" in this page's bundle`,
      );
      continue;
    }
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      preloadIsland(name);
      void run();
    };
    starters.set(element, begin);
    strategy(element, begin);
  }
  if (!capture) return;
  // Whatever its strategy, an island the visitor acts on hydrates now: what was held before this ran, and from now on.
  capture.onHold = (island) => starters.get(island)?.();
  for (const held of capture.held) starters.get(held.island)?.();
}

/** Hydrates a React island, then settles it. The replay's code comes with the island's. */
async function startIsland(
  element: HTMLElement,
  name: string,
  loader: IslandLoaders[string],
  context: Context,
  settle: Settle,
): Promise<void> {
  let replay: Replay;
  try {
    const [{ default: island }, { hydrateIsland }, replayModule] = await Promise.all([
      loader(),
      import('./hydrate.ts'),
      import('./replay.ts'),
    ]);
    replay = replayModule.replay;
    await hydrateIsland(element, name, island, context);
  } catch (error) {
    // Its code did not arrive: the server markup is on its own, and what was held gets the browser's default.
    console.error(`site-gen: island "${name}" could not be loaded:`, error);
    return settle('failed');
  }
  settle('', replay);
}

/** Runs a behaviour's mount function on its server markup, then settles it. */
async function startBehaviour(
  element: HTMLElement,
  name: string,
  loader: BehaviourLoaders[string],
  settle: Settle,
): Promise<void> {
  let definition: BehaviourDefinition<object>;
  let replay: Replay;
  try {
    const [{ default: module }, replayModule] = await Promise.all([loader(), import('./replay.ts')]);
    definition = module.behaviour;
    replay = replayModule.replay;
  } catch (error) {
    console.error(`site-gen: behaviour "${name}" could not be loaded:`, error);
    return settle('failed');
  }
  try {
    await definition.mount(element, propsOf(element));
  } catch (error) {
    console.error(`site-gen: behaviour "${name}" failed:`, error);
    return settle('failed', replay);
  }
  settle('', replay);
}

/**
 * Marks the island live or failed (so nothing more is held for it) and replays what was held for it, in order, in
 * the same task: an input that came between the two would reach the island before the ones held earlier, and the
 * replay would then put a field back to its older value (a character typed meanwhile lost, an address left without
 * its @, a submit the browser's check refuses). The replay's code is fetched with the island's, never before: it stays
 * off the page's critical path; only an island whose code did not arrive waits for it here.
 */
function settleIsland(element: HTMLElement, state: Settled, capture: Capture | undefined, replay?: Replay): void {
  element.setAttribute('data-hydrated', state);
  const held = capture?.held.filter((entry) => entry.island === element) ?? [];
  if (capture) capture.held = capture.held.filter((entry) => entry.island !== element);
  if (replay) replay(element, held);
  else if (held.length > 0)
    void import('./replay.ts').then(
      (module) => module.replay(element, held),
      () => console.error("site-gen: what the visitor did before the page's script failed cannot be replayed."),
    );
}
