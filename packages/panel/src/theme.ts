// Light and dark: the system's choice (prefers-color-scheme) unless the user picked one, kept in localStorage (a
// preference, not a secret). styles.css reads `data-theme` on <html>.
export type Theme = 'system' | 'light' | 'dark';

const STORAGE = 'basekit-panel:theme';
export const THEMES: Theme[] = ['system', 'light', 'dark'];

export function savedTheme(): Theme {
  const saved = localStorage.getItem(STORAGE);
  return THEMES.includes(saved as Theme) ? (saved as Theme) : 'system';
}

/** The event `applyTheme` dispatches on `window`, so that the theme picker follows a theme chosen elsewhere. */
export const THEME_CHANGE = 'panel:theme';

export function applyTheme(theme: Theme): void {
  if (theme === 'system') {
    delete document.documentElement.dataset['theme'];
    localStorage.removeItem(STORAGE);
  } else {
    document.documentElement.dataset['theme'] = theme;
    localStorage.setItem(STORAGE, theme);
  }
  dispatchEvent(new Event(THEME_CHANGE));
}
