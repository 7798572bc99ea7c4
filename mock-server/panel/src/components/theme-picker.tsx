import { useState } from 'preact/hooks';
import { THEMES, applyTheme, savedTheme, type Theme } from '../theme.js';

/** Chooses light, dark or the system's theme. */
export function ThemePicker() {
  const [theme, setTheme] = useState(savedTheme);
  const choose = (next: Theme) => {
    applyTheme(next);
    setTheme(next);
  };
  return (
    <label class="theme-picker">
      Theme{' '}
      <select value={theme} onChange={(event) => choose(event.currentTarget.value as Theme)}>
        {THEMES.map((t) => (
          <option value={t} key={t}>
            {t}
          </option>
        ))}
      </select>
    </label>
  );
}
