import type { JSX } from 'preact';
import { Field } from './field.js';

/** `Omit` from each member of a union: a plain `Omit` merges the kinds of input, each of which takes its own attributes. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type InputAttributes = OmitEach<JSX.IntrinsicElements['input'], 'id' | 'value' | 'onInput'>;

/**
 * A labelled `<input>` holding a string: `onValue` receives each edit; the other attributes (`type`, `placeholder`,
 * `required`, `autoComplete`, `min`) go to the input.
 *
 * @example
 * <InputField label="New password" type="password" required value={password} onValue={setPassword} />
 */
export function InputField({
  label,
  hint,
  value,
  onValue,
  ...input
}: { label: string; hint?: string; value: string; onValue: (value: string) => void } & InputAttributes) {
  return (
    <Field label={label} hint={hint}>
      {(id) => <input id={id} {...input} value={value} onInput={(e) => onValue(e.currentTarget.value)} />}
    </Field>
  );
}
