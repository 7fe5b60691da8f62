// The header's theme switch: light, dark or system, kept in localStorage and applied to <html> at once.
import Monitor from 'lucide-react/icons/monitor';
import Moon from 'lucide-react/icons/moon';
import Sun from 'lucide-react/icons/sun';
import { useEffect, useId, useState, type ChangeEvent } from 'react';
import {
  THEME_CHOICES,
  applyTheme,
  parseChoice,
  readChoice,
  storeChoice,
  watchSystemTheme,
  type ThemeChoice,
  type ThemeColors,
} from '../lib/theme.ts';
import { Tooltip } from './Tooltip.tsx';

export interface ThemeSwitchProps {
  /** localStorage key (content/theme.ts storageKey; the head script reads the same). */
  storageKey: string;
  /** The theme when none is stored (content/theme.ts default). */
  fallback: ThemeChoice;
  colors: ThemeColors;
  labels: { label: string; hint: string } & Record<ThemeChoice, string>;
}

/**
 * A native <select> laid invisibly over the icon of the current choice: the keyboard, screen readers and phones
 * get a real list box for free. The stored choice is read after hydration (the server cannot know it); until then
 * the icon follows the class the head script put on <html>. Without JavaScript nothing could be switched or kept,
 * so the control is hidden (styles/header.css).
 */
export function ThemeSwitch({ storageKey, fallback, colors, labels }: ThemeSwitchProps) {
  const id = useId();
  const [choice, setChoice] = useState<ThemeChoice>();

  useEffect(() => setChoice(readChoice(storageKey, fallback)), [storageKey, fallback]);

  // 'system' follows the operating system live, not only when the page loads.
  useEffect(() => {
    if (choice !== 'system') return;
    return watchSystemTheme(() => applyTheme('system', colors));
  }, [choice, colors]);

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const next = parseChoice(event.target.value, fallback);
    storeChoice(storageKey, next);
    applyTheme(next, colors);
    setChoice(next);
  };

  return (
    <Tooltip text={labels.hint} side="bottom" className="theme-switch">
      {(describedBy) => (
        <>
          <span className="theme-icons" data-choice={choice} aria-hidden="true">
            <Sun size={18} className="theme-icon is-light" />
            <Moon size={18} className="theme-icon is-dark" />
            <Monitor size={18} className="theme-icon is-system" />
          </span>
          <label className="sr-only" htmlFor={id}>
            {labels.label}
          </label>
          <select
            id={id}
            className="theme-select"
            value={choice ?? fallback}
            onChange={onChange}
            aria-describedby={describedBy}
          >
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
