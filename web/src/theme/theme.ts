/**
 * Theme rules: kept in localStorage under the key `theme`.
 * Initial value: the stored value if 'light' or 'dark', else the system dark
 * preference, else light. Toggling flips it.
 *
 * index.html repeats `resolveInitialTheme` in a tiny inline script so the theme is
 * applied before the first paint; keep the two in step.
 */
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'theme';
/** Class set on <html> while the dark theme is active. */
export const DARK_CLASS = 'dark';

export function isTheme(value: unknown): value is Theme {
  return value === 'light' || value === 'dark';
}

export function resolveInitialTheme(stored: string | null | undefined, systemPrefersDark: boolean): Theme {
  if (isTheme(stored)) return stored;
  return systemPrefersDark ? 'dark' : 'light';
}

export function toggledTheme(theme: Theme): Theme {
  return theme === 'dark' ? 'light' : 'dark';
}
