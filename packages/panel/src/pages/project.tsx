import { useConfig } from '../api.js';
import { focusField, press, usePageCommands } from '../commands.js';
import { Clock } from './project/clock.js';
import { Faults } from './project/faults.js';
import { Keys } from './project/keys.js';
import { Settings } from './project/settings.js';
import { Snapshots } from './project/snapshots.js';
import { Snippets } from './project/snippets.js';
import { StateActions } from './project/state.js';

/** The Project page: keys and URLs, snippets, run-time settings, the clock, the whole state, snapshots and faults. */
export default function ProjectPage() {
  const config = useConfig()!;
  usePageCommands([
    { title: 'Export the state', run: () => press('Export state') },
    { title: 'Reset the project…', run: () => press('Reset…') },
    { title: 'Move the clock forward', run: () => focusField('Move forward by') },
  ]);
  return (
    <>
      <Keys config={config} />
      <Snippets config={config} />
      <Settings config={config} />
      <Clock config={config} />
      <StateActions />
      <Snapshots config={config} />
      <Faults config={config} />
    </>
  );
}
