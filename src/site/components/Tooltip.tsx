// A short label over (or under) a control, described by it. Server markup only: islands/tooltips.tsx opens it.
import { useId, type ReactNode } from 'react';
import { cx } from '../lib/cx.ts';

export interface TooltipProps {
  text: string;
  side?: 'top' | 'bottom';
  /** Class of the wrapper, which the tooltip is positioned against. */
  className?: string;
  /** Renders the trigger; give it `aria-describedby={describedBy}`. */
  children: (describedBy: string) => ReactNode;
}

/**
 * The tooltip is in the HTML, hidden, so the control is described by it with or without JavaScript. One page-wide
 * script (lib/tooltips.ts) shows it, rather than each control hydrating: the footer's social links would otherwise
 * ship their drawings as JavaScript just to listen for the pointer.
 */
export function Tooltip({ text, side = 'top', className, children }: TooltipProps) {
  const id = useId();
  return (
    <span className={cx('tooltip-anchor', className)}>
      {children(id)}
      <span role="tooltip" id={id} className="tooltip" data-side={side}>
        {text}
      </span>
    </span>
  );
}
