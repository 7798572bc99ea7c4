import { useState } from 'preact/hooks';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { href } from '../../router.js';
import type { AclEntry, Draft } from './row-draft.js';

type Of<K extends Draft['kind']> = Extract<Draft, { kind: K }>;
interface EditorProps<D extends Draft> {
  /** The column's name, which labels the editor. */
  label: string;
  draft: D;
  onChange: (draft: D) => void;
}

/** A column's typed editor (the contract's `DatabaseRow` types): one input, or a labelled group for pointers, relations and ACLs. */
export function ValueEditor({ label, draft, onChange }: EditorProps<Draft>) {
  const change = onChange as (draft: Draft) => void;
  switch (draft.kind) {
    case 'Pointer':
      return <PointerEditor label={label} draft={draft} onChange={change} />;
    case 'Relation':
      return <RelationEditor label={label} draft={draft} onChange={change} />;
    case 'ACL':
      return <AclEditor label={label} draft={draft} onChange={change} />;
    case 'Boolean':
      return (
        <Field label={label}>
          {(id) => (
            <input
              id={id}
              type="checkbox"
              checked={draft.checked}
              onChange={(e) => change({ ...draft, checked: e.currentTarget.checked })}
            />
          )}
        </Field>
      );
    case 'Date':
      return (
        <InputField
          label={label}
          hint="UTC, ISO 8601: 2024-01-02T15:04:05.678Z"
          class="mono"
          placeholder="YYYY-MM-DDTHH:MM:SS.mmmZ"
          spellcheck={false}
          value={draft.text}
          onValue={(text) => change({ ...draft, text })}
        />
      );
    case 'JSON':
      return (
        <Field label={label} hint="JSON">
          {(id) => (
            <textarea
              id={id}
              rows={3}
              class="mono"
              value={draft.text}
              onInput={(e) => change({ ...draft, text: e.currentTarget.value })}
            />
          )}
        </Field>
      );
    default:
      return (
        <InputField
          label={label}
          inputMode={draft.kind === 'Number' ? 'decimal' : undefined}
          value={draft.text}
          onValue={(text) => change({ ...draft, text })}
        />
      );
  }
}

function PointerEditor({ label, draft, onChange }: EditorProps<Of<'Pointer'>>) {
  return (
    <fieldset>
      <legend>{label}</legend>
      <div class="toolbar">
        <input
          aria-label={`${label}: table`}
          placeholder="table"
          value={draft.className}
          onInput={(e) => onChange({ ...draft, className: e.currentTarget.value })}
        />
        <input
          aria-label={`${label}: row id`}
          placeholder="row id"
          value={draft.id}
          onInput={(e) => onChange({ ...draft, id: e.currentTarget.value })}
        />
        {draft.className && draft.id && <a href={href('database', draft.className, draft.id)}>Open the row</a>}
      </div>
    </fieldset>
  );
}

function RelationEditor({ label, draft, onChange }: EditorProps<Of<'Relation'>>) {
  const [adding, setAdding] = useState('');
  const add = () => {
    const id = adding.trim();
    if (id && !draft.ids.includes(id)) onChange({ ...draft, ids: [...draft.ids, id] });
    setAdding('');
  };
  return (
    <fieldset>
      <legend>{label}</legend>
      <input
        aria-label={`${label}: table`}
        placeholder="table"
        value={draft.className}
        onInput={(e) => onChange({ ...draft, className: e.currentTarget.value })}
      />
      <ul>
        {draft.ids.map((id) => (
          <li key={id}>
            <a href={href('database', draft.className, id)}>{id}</a>{' '}
            <button
              type="button"
              aria-label={`Remove ${id} from ${label}`}
              onClick={() => onChange({ ...draft, ids: draft.ids.filter((other) => other !== id) })}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <div class="toolbar">
        <input
          aria-label={`${label}: row id to add`}
          placeholder="row id"
          value={adding}
          onInput={(e) => setAdding(e.currentTarget.value)}
        />
        <button type="button" onClick={add}>
          Add
        </button>
      </div>
    </fieldset>
  );
}

function AclEditor({ label, draft, onChange }: EditorProps<Of<'ACL'>>) {
  const set = (i: number, entry: Partial<AclEntry>) =>
    onChange({ ...draft, entries: draft.entries.map((e, j) => (i === j ? { ...e, ...entry } : e)) });
  return (
    <fieldset>
      <legend>{label}</legend>
      <small class="hint">
        "*" is everyone, else a user id. No entries: only the master token; unset the ACL to make the row public.
      </small>
      {draft.entries.map((entry, i) => {
        const who = entry.principal || `entry ${i + 1}`;
        return (
          <div class="toolbar" key={i}>
            <input
              aria-label={`${label}: principal ${i + 1}`}
              placeholder="* or user id"
              value={entry.principal}
              onInput={(e) => set(i, { principal: e.currentTarget.value })}
            />
            <label>
              <input type="checkbox" checked={entry.read} onChange={(e) => set(i, { read: e.currentTarget.checked })} />{' '}
              read
              <span class="visually-hidden"> for {who}</span>
            </label>
            <label>
              <input
                type="checkbox"
                checked={entry.write}
                onChange={(e) => set(i, { write: e.currentTarget.checked })}
              />{' '}
              write
              <span class="visually-hidden"> for {who}</span>
            </label>
            <button
              type="button"
              aria-label={`Remove the ACL entry of ${who}`}
              onClick={() => onChange({ ...draft, entries: draft.entries.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        );
      })}
      <button
        type="button"
        onClick={() => onChange({ ...draft, entries: [...draft.entries, { principal: '', read: true, write: false }] })}
      >
        Add an ACL entry
      </button>
    </fieldset>
  );
}
