// The visitor's colour theme: the stored choice, what it resolves to, and putting it on <html>, exactly as the
// inline head script (src/site/head.ts themeScript) does before first paint.

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type ResolvedTheme = 'light' | 'dark';
/** <meta name="theme-color"> for each resolved theme (content/theme.ts colors). */
export type ThemeColors = Record<ResolvedTheme, string>;

const SYSTEM_DARK = '(prefers-color-scheme: dark)';

/** A stored value as a choice: anything unknown (or nothing stored) is the site's default. */
export function parseChoice(value: string | null | undefined, fallback: ThemeChoice): ThemeChoice {
  return THEME_CHOICES.find((choice) => choice === value) ?? fallback;
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): ResolvedTheme {
  if (choice !== 'system') return choice;
  return systemDark ? 'dark' : 'light';
}

// localStorage throws where storage is disabled (some private modes): the theme then lasts for the page only.
export function readChoice(key: string, fallback: ThemeChoice): ThemeChoice {
  try {
    return parseChoice(localStorage.getItem(key), fallback);
  } catch {
    return fallback;
  }
}

export function storeChoice(key: string, choice: ThemeChoice): void {
  try {
    localStorage.setItem(key, choice);
  } catch {
    // Not kept: see readChoice.
  }
}

/** Sets the `light` or `dark` class on <html> and the matching theme-color. */
export function applyTheme(choice: ThemeChoice, colors: ThemeColors): ResolvedTheme {
  const resolved = resolveTheme(choice, window.matchMedia(SYSTEM_DARK).matches);
  const root = document.documentElement;
  root.classList.remove(resolved === 'dark' ? 'light' : 'dark');
  root.classList.add(resolved);
  document.querySelector<HTMLMetaElement>('meta[name="theme-color"]')?.setAttribute('content', colors[resolved]);
  return resolved;
}

/** Calls `onChange` whenever the operating system switches between light and dark; returns the unsubscribe. */
export function watchSystemTheme(onChange: () => void): () => void {
  const query = window.matchMedia(SYSTEM_DARK);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
