import { useState } from 'preact/hooks';
import { ActionForm } from '../../components/action-form.js';
import { DataTable } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { UserLink } from '../../components/user-link.js';
import { KINDS, saveSetting, type AllSettings, type Kind, type SettingRecord } from './calls.js';

/** A record to start from, per kind: the fields of its settings schema in openapi/areas/transcoder.yaml. */
const TEMPLATES: Record<Kind, object> = {
  thumbnail: { name: 'every-2s', default: true, interval: 2, count: 3, startTime: 0 },
  webhook: { name: 'hooks', default: true, url: 'https://example.com/transcoder/webhook' },
  upload: {
    name: 'receiver',
    default: true,
    url: 'https://example.com/transcoder/upload',
    headers: { 'x-secret': 'change-me' },
  },
  watermark: {
    name: 'logo',
    default: false,
    url: 'https://example.com/logo.png',
    location: 'TOP_RIGHT',
    paddingX: 10,
    paddingY: 10,
  },
  preset: {
    name: 'hls',
    default: true,
    vod: true,
    speed: 'veryfast',
    vodPlaylistBaseUrl: 'https://example.com/videos/',
    outputs: [{ resolution: '360', videoBitrate: '800k', audioBitrate: '96k' }],
  },
};

/** A record in one row: owner, name, default mark and its fields. */
interface Row {
  owner: string | undefined;
  record: SettingRecord;
}

/** The stored settings of each kind, the project's and every user's, and a form to save one for the project. */
export function SettingsSection({ all, onSaved }: { all: AllSettings; onSaved: () => void }) {
  return (
    <section aria-labelledby="transcoder-settings">
      <h2 id="transcoder-settings">Saved settings</h2>
      {KINDS.map((kind) => {
        const rows: Row[] = [
          ...all.settings[kind].map((record) => ({ owner: undefined, record })),
          ...Object.entries(all.userSettings).flatMap(([userId, book]) =>
            book[kind].map((record) => ({ owner: userId, record })),
          ),
        ];
        return (
          <DataTable
            key={kind}
            caption={`${kind[0]!.toUpperCase()}${kind.slice(1)} settings`}
            rows={rows}
            rowKey={(row) => `${row.owner ?? ''}/${row.record.name}`}
            empty={`No ${kind} settings yet.`}
            columns={[
              { title: 'Name', cell: (row) => row.record.name },
              { title: 'Default', cell: (row) => (row.record.default ? 'yes' : '') },
              {
                title: 'Owner',
                cell: (row) => (row.owner ? <UserLink userId={row.owner} /> : 'project'),
              },
              { title: 'Fields', cell: (row) => <code class="fields">{fieldsOf(row.record)}</code> },
            ]}
          />
        );
      })}
      <SaveForm onSaved={onSaved} />
    </section>
  );
}

function fieldsOf({ name: _name, default: _default, ...fields }: SettingRecord): string {
  return JSON.stringify(fields);
}

/** Saves a record of a kind for the project, written as JSON (the service answers which field is wrong). */
function SaveForm({ onSaved }: { onSaved: () => void }) {
  const [kind, setKind] = useState<Kind>('preset');
  const [text, setText] = useState(() => JSON.stringify(TEMPLATES.preset, null, 2));
  const choose = (next: Kind) => {
    setKind(next);
    setText(JSON.stringify(TEMPLATES[next], null, 2));
  };
  const submit = async () => {
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new Error(`The record is not JSON: ${(error as Error).message}`);
    }
    const saved = await saveSetting(kind, record);
    onSaved();
    return `Saved the ${kind} setting "${saved.name}".`;
  };
  return (
    <ActionForm class="setting-form" submit="Save setting" run={submit}>
      <h3>Save a setting for the project</h3>
      <Field label="Kind">
        {(id) => (
          <select id={id} value={kind} onChange={(e) => choose(e.currentTarget.value as Kind)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Record (JSON)" hint="A name that exists is replaced; default: true makes it the kind's default.">
        {(id) => (
          <textarea id={id} rows={10} spellcheck={false} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        )}
      </Field>
    </ActionForm>
  );
}
