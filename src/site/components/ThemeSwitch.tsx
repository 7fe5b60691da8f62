// The header's theme switch: light, dark or system. Server markup; the inline theme script (src/site/inline/theme.ts)
// gives it the stored choice and applies, stores and follows what is chosen.
import * as monitorIcon from 'lucide-react/icons/monitor';
import * as moonIcon from 'lucide-react/icons/moon';
import * as sunIcon from 'lucide-react/icons/sun';
import { useId } from 'react';
import { THEME_CHOICES, type ThemeChoice } from '../lib/theme.ts';
import { Tooltip } from './Tooltip.tsx';
import { lucideIcon } from './lucideIcon.ts';

const Monitor = lucideIcon(monitorIcon);
const Moon = lucideIcon(moonIcon);
const Sun = lucideIcon(sunIcon);

export interface ThemeSwitchProps {
  /** The theme when none is stored (content/theme.ts default): the choice the server shows. */
  fallback: ThemeChoice;
  labels: { label: string; hint: string } & Record<ThemeChoice, string>;
}

/**
 * A native <select> laid invisibly over the icon of the current choice: the keyboard, screen readers and phones
 * get a real list box for free. The server cannot know the stored choice: the inline script sets the select and the
 * icon's data-choice at DOMContentLoaded; until then the icon follows the class on <html>. Without JavaScript
 * nothing could be switched or kept, so the control is hidden (styles/header.css).
 */
export function ThemeSwitch({ fallback, labels }: ThemeSwitchProps) {
  const id = useId();
  return (
    <Tooltip text={labels.hint} side="bottom" className="theme-switch">
      {(describedBy) => (
        <>
          <span className="theme-icons" aria-hidden="true">
            <Sun size={18} className="theme-icon is-light" />
            <Moon size={18} className="theme-icon is-dark" />
            <Monitor size={18} className="theme-icon is-system" />
          </span>
          <label className="sr-only" htmlFor={id}>
            {labels.label}
          </label>
          <select id={id} className="theme-select" defaultValue={fallback} aria-describedby={describedBy}>
            {THEME_CHOICES.map((option) => (
              <option key={option} value={option}>
                {labels[option]}
              </option>
            ))}
          </select>
        </>
      )}
    </Tooltip>
  );
}
