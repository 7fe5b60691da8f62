// The looping strip of partner logos: the list twice in a row, so the loop has no seam; the copy is hidden from assistive tech.
import * as pauseIcon from 'lucide-react/icons/pause';
import * as playIcon from 'lucide-react/icons/play';
import type { Partner } from '../../../content/schema.ts';
import { PartnerLogo } from './PartnerLogo.tsx';
import { lucideIcon } from './lucideIcon.ts';

const Pause = lucideIcon(pauseIcon);
const Play = lucideIcon(playIcon);

export interface LogoStripProps {
  items: Partner[];
  /** Accessible name of the list. */
  label: string;
  /** Label of the control that stops the motion. */
  pauseLabel: string;
}

/**
 * Moves with CSS alone (styles/partners.css: 25 s a loop, reverse, 40 px gap). It stops on hover, on keyboard
 * focus, under prefers-reduced-motion, and while the pause checkbox is ticked, which works without JavaScript.
 */
export function LogoStrip({ items, label, pauseLabel }: LogoStripProps) {
  return (
    <div className="marquee">
      <input className="marquee-toggle sr-only" type="checkbox" id="marquee-pause" />
      <div className="marquee-viewport">
        <ul className="marquee-track" aria-label={label}>
          {items.map((partner) => (
            <li key={partner.id}>
              <PartnerLogo partner={partner} />
            </li>
          ))}
        </ul>
        <ul className="marquee-track" aria-hidden="true">
          {items.map((partner) => (
            <li key={partner.id}>
              <PartnerLogo partner={partner} hidden />
            </li>
          ))}
        </ul>
      </div>
      <label className="marquee-control" htmlFor="marquee-pause">
        <Pause size={16} className="icon-pause" />
        <Play size={16} className="icon-play" />
        <span className="sr-only">{pauseLabel}</span>
      </label>
    </div>
  );
}
