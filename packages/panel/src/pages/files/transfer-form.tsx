import { useState } from 'preact/hooks';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { transfer } from './storage.js';

/**
 * Copies or moves entries of one folder into another, given as a path (`photos/2024`, created when missing);
 * `onDone` gets the new saved paths.
 */
export function TransferForm({
  sources,
  onDone,
}: {
  sources: string[][];
  onDone: (newPaths: string[], mode: 'copy' | 'move') => void;
}) {
  const [destination, setDestination] = useState('');
  const [replace, setReplace] = useState(false);
  const action = useAction();
  const send = (mode: 'copy' | 'move') =>
    action.run(async () => {
      const newPaths = await transfer(mode, sources, destination.split('/').filter(Boolean), replace);
      onDone(newPaths, mode);
      return `${mode === 'copy' ? 'Copied' : 'Moved'} to /${destination.replace(/^\/+/, '')}.`;
    });
  return (
    <form class="toolbar" onSubmit={(e) => e.preventDefault()}>
      <InputField
        label="Destination folder"
        hint="A path from the root, e.g. photos/2024; missing folders are created."
        value={destination}
        onValue={setDestination}
      />
      <label>
        <input type="checkbox" checked={replace} onChange={(e) => setReplace(e.currentTarget.checked)} /> Replace
        entries of the same name
      </label>
      <button type="button" disabled={action.busy} onClick={() => void send('copy')}>
        Copy
      </button>
      <button type="button" disabled={action.busy} onClick={() => void send('move')}>
        Move
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}
