import { useMemo, useState } from 'preact/hooks';
import type { Command } from '../commands.js';
import { Dialog } from './dialog.js';

/** Commands whose title holds every word typed, in any case. */
function matching(commands: Command[], text: string): Command[] {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((command) => words.every((word) => command.title.toLowerCase().includes(word)));
}

/**
 * The command palette: type to narrow the commands, ↑ and ↓ to choose, Enter to run (or a click); Escape closes it.
 * A combobox over a listbox, so screen readers follow the chosen command.
 */
export function CommandPalette({ commands, onClose }: { commands: Command[]; onClose: () => void }) {
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const shown = useMemo(() => matching(commands, text), [commands, text]);
  const run = (command: Command | undefined) => {
    if (!command) return;
    onClose();
    command.run();
  };
  const keyDown = (event: KeyboardEvent) => {
    const move = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (move !== undefined) {
      event.preventDefault();
      setActive((shown.length + active + move) % Math.max(shown.length, 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(shown[active]);
    }
  };
  return (
    <Dialog title="Go to a page or run a command" onClose={onClose}>
      <input
        class="palette-input"
        role="combobox"
        aria-label="Command"
        aria-expanded="true"
        aria-controls="palette-commands"
        aria-activedescendant={shown[active] ? `palette-${active}` : undefined}
        placeholder="Type a page or an action…"
        autoFocus
        value={text}
        onInput={(e) => {
          setText(e.currentTarget.value);
          setActive(0);
        }}
        onKeyDown={keyDown}
      />
      <div id="palette-commands" role="listbox" aria-label="Commands" class="palette-list">
        {shown.map((command, i) => (
          // The input keeps the keyboard (its arrows and Enter choose); a click chooses too.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's keys choose the option
          <div
            key={command.title}
            id={`palette-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            onClick={() => run(command)}
            onMouseMove={() => setActive(i)}
          >
            {command.title}
          </div>
        ))}
        {shown.length === 0 && <p class="hint">No command matches.</p>}
      </div>
    </Dialog>
  );
}
