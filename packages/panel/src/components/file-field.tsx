import { Field } from './field.js';

/**
 * A labelled, required pick of one file; `onFile` receives it (undefined when the pick is cleared).
 *
 * @example
 * <FileField label="State file (a JSON export)" accept="application/json,.json" onFile={setFile} />
 */
export function FileField({
  label,
  accept,
  onFile,
}: {
  label: string;
  accept: string;
  onFile: (file: File | undefined) => void;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <input id={id} type="file" accept={accept} required onChange={(e) => onFile(e.currentTarget.files?.[0])} />
      )}
    </Field>
  );
}
