import { useState } from 'preact/hooks';
import { Popover } from '../../components/popover.js';
import { Status } from '../../components/status.js';
import { kindOf, toDraft, type Draft } from './row-draft.js';
import { saveEdits } from './row-save.js';
import type { TableColumn } from './tables.js';
import { ValueEditor } from './value-editor.js';

type Json = Record<string, unknown>;

/**
 * A cell of the grid edited in place, beside it: the column's typed editor (as on the row's page), Save (Enter in a
 * one-line field), Unset, or Escape to leave it as it was. Only that column is sent.
 */
export function InlineEditor({
  table,
  row,
  column,
  type,
  anchor,
  onSaved,
  onClose,
}: {
  table: string;
  row: Json;
  column: string;
  type: TableColumn | undefined;
  anchor: HTMLElement;
  onSaved: (message: string) => void;
  onClose: () => void;
}) {
  const id = String(row['_id']);
  const kind = kindOf(column, type?.type, row[column]);
  const [initial] = useState<Draft | null>(() =>
    row[column] === undefined ? null : toDraft(kind, row[column], type?.targetClass),
  );
  const [draft, setDraft] = useState<Draft>(() => initial ?? toDraft(kind, undefined, type?.targetClass));
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const save = async (value: Draft | null) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await saveEdits(table, id, { [column]: initial }, { [column]: value });
      onSaved(value ? `Saved ${column} of row ${id}.` : `Unset ${column} of row ${id}.`);
    } catch (error) {
      setFailure(error);
      setBusy(false);
    }
  };

  return (
    <Popover
      anchor={anchor}
      label={`Edit ${column} of row ${id}`}
      onClose={onClose}
      wide={kind === 'JSON' || kind === 'Relation' || kind === 'ACL'}
    >
      <form
        class="inline-editor"
        onSubmit={(event) => {
          event.preventDefault();
          void save(draft);
        }}
      >
        <ValueEditor label={`${column} (${kind})`} draft={draft} onChange={setDraft} />
        <div class="toolbar">
          <button type="submit" disabled={busy}>
            Save
          </button>
          {initial && (
            <button type="button" disabled={busy} onClick={() => void save(null)}>
              Unset
            </button>
          )}
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
        <Status error={failure} />
      </form>
    </Popover>
  );
}
