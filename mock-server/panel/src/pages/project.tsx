import { useConfig } from '../api.js';
import { Clock } from './project/clock.js';
import { Keys } from './project/keys.js';
import { Settings } from './project/settings.js';
import { Snippets } from './project/snippets.js';
import { StateActions } from './project/state.js';

/** The Project page: keys and URLs, snippets, run-time settings, the clock, and the whole state. */
export default function ProjectPage() {
  const config = useConfig()!;
  return (
    <>
      <Keys config={config} />
      <Snippets config={config} />
      <Settings config={config} />
      <Clock config={config} />
      <StateActions />
    </>
  );
}
