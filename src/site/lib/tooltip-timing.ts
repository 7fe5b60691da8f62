// When a tooltip opens: after the open delay, or at once when another closed less than the skip delay ago
// (moving along a row of icons shows each label without waiting again). One shared clock for every island.
import { TOOLTIP } from '../constants.ts';

export interface TooltipTiming {
  /** How long to wait before opening a tooltip the pointer has just entered. */
  openDelay(now?: number): number;
  /** Tell the clock that an open tooltip has just closed. */
  closed(now?: number): void;
}

export function createTooltipTiming(openDelayMs: number = TOOLTIP.openDelayMs, skipDelayMs: number = TOOLTIP.skipDelayMs): TooltipTiming {
  let lastClosed = Number.NEGATIVE_INFINITY;
  return {
    openDelay: (now = performance.now()) => (now - lastClosed < skipDelayMs ? 0 : openDelayMs),
    closed: (now = performance.now()) => {
      lastClosed = now;
    },
  };
}

/** The page's one clock: a module in a shared chunk, so the header's and the footer's tooltips use the same. */
export const tooltipTiming = createTooltipTiming();
