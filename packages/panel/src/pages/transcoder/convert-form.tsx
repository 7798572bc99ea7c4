import { useState } from 'preact/hooks';
import { ActionForm } from '../../components/action-form.js';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { href, navigate } from '../../router.js';
import { convert, KINDS, type AllSettings, type Kind, type Reference } from './calls.js';

/** Choices of a settings reference, as the select's values: none, the kind's default, or a record by name. */
const NONE = '';
const DEFAULT = '\u0000default';

/**
 * Submits a conversion for the project: a source address and a reference per kind among the project's settings
 * (the master token reaches those). Opens the job it queued.
 */
export function ConvertForm({ all }: { all: AllSettings }) {
  const [url, setUrl] = useState('');
  const [choices, setChoices] = useState<Partial<Record<Kind, string>>>({ upload: DEFAULT, preset: DEFAULT });
  const submit = async () => {
    const references = Object.fromEntries(KINDS.map((kind) => [kind, reference(choices[kind] ?? NONE)]));
    const { requestId } = await convert(url, references);
    navigate(href('transcoder', 'jobs', requestId));
    return `Queued request ${requestId}.`;
  };
  return (
    <ActionForm aria-labelledby="transcoder-convert" submit="Convert" run={submit}>
      <h2 id="transcoder-convert">Convert a video</h2>
      <InputField
        label="Source address"
        hint={`An http(s) address the server can fetch, e.g. a file of this storage: ${location.origin}/<bucket>/<path>`}
        type="url"
        required
        value={url}
        onValue={setUrl}
      />
      <div class="toolbar">
        {KINDS.map((kind) => (
          <Field key={kind} label={`${kind[0]!.toUpperCase()}${kind.slice(1)} setting`}>
            {(id) => (
              <select
                id={id}
                value={choices[kind] ?? NONE}
                onChange={(e) => setChoices({ ...choices, [kind]: e.currentTarget.value })}
              >
                <option value={NONE}>none</option>
                <option value={DEFAULT}>the default</option>
                {all.settings[kind].map((r) => (
                  <option key={r.name} value={r.name}>
                    {r.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
      </div>
    </ActionForm>
  );
}

function reference(choice: string): Reference {
  if (choice === NONE) return undefined;
  return choice === DEFAULT ? true : choice;
}
