// What the command palette (⌘K / Ctrl+K) offers: the layout's commands (pages, theme, sign out) and those of the page
// on screen, which its components add while they are mounted (`usePageCommands`).
import { useLayoutEffect, useRef } from 'preact/hooks';

/** One thing the palette can do: its title (what is typed to find it) and what it does. */
export interface Command {
  title: string;
  run: () => void;
}

/** The commands of the components mounted now, each component's as it last rendered. */
const mounted = new Set<{ commands: Command[] }>();

/** A component's own commands, offered while it is mounted. */
export function usePageCommands(commands: Command[]): void {
  const entry = useRef({ commands }).current;
  entry.commands = commands;
  // Offered from the task that shows the component, not after the next paint: a palette opened as soon as the page
  // shows holds its commands.
  useLayoutEffect(() => {
    mounted.add(entry);
    return () => void mounted.delete(entry);
  }, []);
}

/** The commands of the page on screen. */
export const pageCommands = (): Command[] => [...mounted].flatMap((entry) => entry.commands);

/** Clicks the button named `label` on the page, if there is one (a command that does what a button does). */
export function press(label: string): void {
  [...document.querySelectorAll<HTMLButtonElement>('main button')].find((b) => b.textContent === label)?.click();
}

/** Focuses the field labelled `label` on the page (a command that starts a form). */
export function focusField(label: string): void {
  const labelled = [...document.querySelectorAll<HTMLLabelElement>('main label')].find((l) => l.textContent === label);
  labelled?.control?.focus();
}
