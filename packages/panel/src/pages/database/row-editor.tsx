import { useState } from 'preact/hooks';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { Status } from '../../components/status.js';
import { kindOf, toDraft, type Edits, type Kind } from './row-draft.js';
import { saveEdits } from './row-save.js';
import { SYSTEM_COLUMNS, type TableColumn } from './tables.js';
import { ValueEditor } from './value-editor.js';

type Json = Record<string, unknown>;

const NEW_COLUMN_KINDS: Kind[] = ['String', 'Number', 'Boolean', 'Date', 'Pointer', 'Relation', 'JSON'];

/** The columns the editor shows: the table's, then any other the row has, then its ACL; each with its editor's kind. */
function editedColumns(
  columns: TableColumn[],
  row: Json | undefined,
): { name: string; kind: Kind; targetClass?: string }[] {
  const shown = columns.map(({ name, type, targetClass }) => ({
    name,
    kind: kindOf(name, type, row?.[name]),
    targetClass,
  }));
  for (const [name, value] of Object.entries(row ?? {})) {
    if (name !== 'ACL' && !SYSTEM_COLUMNS.includes(name) && !shown.some((c) => c.name === name))
      shown.push({ name, kind: kindOf(name, undefined, value), targetClass: undefined });
  }
  return [...shown, { name: 'ACL', kind: 'ACL', targetClass: undefined }];
}

/**
 * Creates a row (without `row`) or edits one: a typed editor per column, only the changed columns sent, through
 * the service's own API with the master token. A column without a value is set with its "Set" button.
 */
export function RowEditor({
  table,
  columns,
  row,
  onSaved,
}: {
  table: string;
  columns: TableColumn[];
  row?: Json;
  onSaved: (id: string) => void;
}) {
  const [added, setAdded] = useState<{ name: string; kind: Kind }[]>([]);
  const shown = [...editedColumns(columns, row), ...added.map((c) => ({ ...c, targetClass: undefined }))];
  const [initial] = useState<Edits>(() =>
    Object.fromEntries(
      shown.map((c) => [c.name, row?.[c.name] === undefined ? null : toDraft(c.kind, row[c.name], c.targetClass)]),
    ),
  );
  const [edits, setEdits] = useState<Edits>(initial);
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [newName, setNewName] = useState('');
  const [newKind, setNewKind] = useState<Kind>('String');

  const edit = (name: string, draft: Edits[string]) => setEdits((all) => ({ ...all, [name]: draft }));

  const addColumn = () => {
    const name = newName.trim();
    if (!name || shown.some((c) => c.name === name)) return;
    setAdded([...added, { name, kind: newKind }]);
    edit(name, toDraft(newKind, undefined));
    setNewName('');
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    try {
      onSaved(await saveEdits(table, row && String(row['_id']), initial, edits));
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class="row-editor"
      onSubmit={save}
      aria-label={row ? `Edit row ${String(row['_id'])}` : `New row of ${table}`}
    >
      {shown.map(({ name, kind, targetClass }) => {
        const draft = edits[name] ?? null;
        const label = `${name} (${kind})`;
        return (
          <div class="column-edit" key={name}>
            {draft ? (
              <ValueEditor label={label} draft={draft} onChange={(next) => edit(name, next)} />
            ) : (
              <p class="no-value">
                <strong>{label}</strong>: no value
              </p>
            )}
            <button
              type="button"
              title={draft ? `Unset ${name}` : `Set ${name}`}
              onClick={() => edit(name, draft ? null : (initial[name] ?? toDraft(kind, undefined, targetClass)))}
            >
              {draft ? `Unset ${name}` : `Set ${name}`}
            </button>
          </div>
        );
      })}
      <div class="toolbar">
        <InputField label="New column" value={newName} onValue={setNewName} />
        <Field label="Its type">
          {(id) => (
            <select id={id} value={newKind} onChange={(e) => setNewKind(e.currentTarget.value as Kind)}>
              {NEW_COLUMN_KINDS.map((kind) => (
                <option key={kind}>{kind}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="button" onClick={addColumn}>
          Add column
        </button>
      </div>
      <button type="submit" disabled={busy}>
        {row ? 'Save changes' : 'Create row'}
      </button>
      <Status error={failure} />
    </form>
  );
}
