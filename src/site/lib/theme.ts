// The theme's choices, as the switch lists them. What a choice does (stored, resolved, applied, followed) lives in
// the inline theme script (src/site/inline/theme.ts): it must run before first paint and before any download.

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
