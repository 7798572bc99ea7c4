import { useLayoutEffect, useState } from 'preact/hooks';
import { THEMES, THEME_CHANGE, applyTheme, savedTheme, type Theme } from '../theme.js';

/** Chooses light, dark or the system's theme (and follows a theme chosen from the command palette). */
export function ThemePicker() {
  const [theme, setTheme] = useState(savedTheme);
  // Listening from the task that renders, not after the next paint: a theme chosen in between is not missed.
  useLayoutEffect(() => {
    const follow = () => setTheme(savedTheme());
    addEventListener(THEME_CHANGE, follow);
    return () => removeEventListener(THEME_CHANGE, follow);
  }, []);
  return (
    <label class="theme-picker">
      Theme{' '}
      <select value={theme} onChange={(event) => applyTheme(event.currentTarget.value as Theme)}>
        {THEMES.map((t) => (
          <option value={t} key={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}
