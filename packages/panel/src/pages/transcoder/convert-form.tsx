import { useState } from 'preact/hooks';
import { Field } from '../../components/field.js';
import { Status } from '../../components/status.js';
import { href, navigate } from '../../router.js';
import { useAction } from '../../use-action.js';
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
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const references = Object.fromEntries(KINDS.map((kind) => [kind, reference(choices[kind] ?? NONE)]));
      const { requestId } = await convert(url, references);
      navigate(href('transcoder', 'jobs', requestId));
      return `Queued request ${requestId}.`;
    });
  };
  return (
    <form onSubmit={submit} aria-labelledby="transcoder-convert">
      <h2 id="transcoder-convert">Convert a video</h2>
      <Field
        label="Source address"
        hint={`An http(s) address the server can fetch, e.g. a file of this storage: ${location.origin}/<bucket>/<path>`}
      >
        {(id) => <input id={id} type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
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
      <button type="submit" disabled={action.busy}>
        Convert
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}

function reference(choice: string): Reference {
  if (choice === NONE) return undefined;
  return choice === DEFAULT ? true : choice;
}
