import { isTheme, resolveInitialTheme, THEME_STORAGE_KEY, toggledTheme } from './theme';

describe('theme', () => {
  it('is stored under the key "theme"', () => {
    expect(THEME_STORAGE_KEY).toBe('theme');
  });

  it('starts from a stored light or dark value', () => {
    expect(resolveInitialTheme('light', true)).toBe('light');
    expect(resolveInitialTheme('dark', false)).toBe('dark');
  });

  it('otherwise follows the system dark preference, else light', () => {
    expect(resolveInitialTheme(null, true)).toBe('dark');
    expect(resolveInitialTheme(undefined, false)).toBe('light');
    expect(resolveInitialTheme('system', true)).toBe('dark');
    expect(resolveInitialTheme('DARK', false)).toBe('light');
    expect(resolveInitialTheme('', false)).toBe('light');
  });

  it('toggles between light and dark', () => {
    expect(toggledTheme('light')).toBe('dark');
    expect(toggledTheme('dark')).toBe('light');
  });

  it('recognises only the two themes', () => {
    expect(isTheme('light')).toBe(true);
    expect(isTheme('dark')).toBe(true);
    expect(isTheme('auto')).toBe(false);
    expect(isTheme(null)).toBe(false);
  });
});
