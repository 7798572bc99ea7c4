import type { StateSummary } from '@basekit/sdk/admin';
import { useState } from 'preact/hooks';
import { admin, project, reloadConfig } from '../../api.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { FileField } from '../../components/file-field.js';
import { Status } from '../../components/status.js';
import { fileTime, saveFile } from '../../save-file.js';
import { useAction } from '../../use-action.js';

/** What an import restored, in words: `users 3, sessions 2; database: tables 2, rows 12; …`. */
function restoredText({ settings, clockOffsetSeconds, outbox, areas }: StateSummary): string {
  const parts = Object.entries(areas).map(([area, counts]) => {
    const counted = Object.entries(counts).map(([what, n]) => `${what} ${n}`);
    return `${area}: ${counted.join(', ') || 'restored'}`;
  });
  return [...parts, `settings ${settings}`, `e-mails ${outbox}`, `clock ${clockOffsetSeconds} s ahead`].join('; ');
}

/** Reset, export (a JSON download) and import (a file) of the project's whole state, through the admin API. */
export function StateActions() {
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const [file, setFile] = useState<File>();

  const exportState = () =>
    action.run(async () => {
      const blob = new Blob([JSON.stringify(await admin().state.export())], { type: 'application/json' });
      saveFile(blob, `basekit-state-${project().authenticationId}-${fileTime()}.json`);
      return `State exported (${blob.size} bytes).`;
    });

  const importState = (event: Event) => {
    event.preventDefault();
    if (!file) return;
    void action.run(async () => {
      const restored = await admin().state.import(JSON.parse(await file.text()));
      await reloadConfig();
      return `State imported from ${file.name}. Restored: ${restoredText(restored)}.`;
    });
  };

  const reset = () =>
    action.run(async () => {
      setConfirming(false);
      await admin().reset();
      await reloadConfig();
      return 'The project was reset.';
    });

  return (
    <section aria-labelledby="state-heading">
      <h2 id="state-heading">State</h2>
      <div class="toolbar">
        <button type="button" onClick={exportState}>
          Export state
        </button>
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Reset…
        </button>
      </div>
      <form class="toolbar" onSubmit={importState}>
        <FileField label="State file (a JSON export)" accept="application/json,.json" onFile={setFile} />
        <button type="submit">Import state</button>
      </form>
      <Status error={action.error}>{action.message}</Status>
      {confirming && (
        <ConfirmDialog
          title="Reset the project?"
          confirmLabel="Reset the project"
          onConfirm={reset}
          onCancel={() => setConfirming(false)}
        >
          <p>Every user, row, file, job and score goes, and the config returns to the one the server started with.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
