import { useState } from 'preact/hooks';
import { Field } from '../../components/field.js';
import { PROFILE_FIELDS, type Profile } from './model.js';

/**
 * The profile fields of a user as a form (create and edit); `withPassword` adds the password a new user needs.
 * `onSubmit` gets the fields as typed.
 */
export function ProfileForm({
  initial,
  withPassword,
  submitLabel,
  onSubmit,
}: {
  initial: Profile;
  withPassword?: boolean;
  submitLabel: string;
  onSubmit: (fields: Profile & { password: string }) => void;
}) {
  const [fields, setFields] = useState({ ...initial, password: '' });
  const submit = (event: Event) => {
    event.preventDefault();
    onSubmit(fields);
  };
  return (
    <form onSubmit={submit} class="profile-form">
      {PROFILE_FIELDS.map(([name, label]) => (
        <Field label={label} key={name}>
          {(id) => (
            <input
              id={id}
              type="text"
              inputMode={name === 'email' ? 'email' : name === 'phoneNumber' ? 'tel' : 'text'}
              required={name === 'username'}
              autoComplete="off"
              value={fields[name]}
              onInput={(e) => setFields({ ...fields, [name]: e.currentTarget.value })}
            />
          )}
        </Field>
      ))}
      {withPassword && (
        <Field label="Password">
          {(id) => (
            <input
              id={id}
              type="password"
              required
              autoComplete="new-password"
              value={fields.password}
              onInput={(e) => setFields({ ...fields, password: e.currentTarget.value })}
            />
          )}
        </Field>
      )}
      <button type="submit">{submitLabel}</button>
    </form>
  );
}

export const EMPTY_PROFILE: Profile = { username: '', firstName: '', lastName: '', email: '', phoneNumber: '' };

/** The profile fields of a record, for the edit form. */
export const profileOf = (record: Profile): Profile =>
  Object.fromEntries(PROFILE_FIELDS.map(([name]) => [name, record[name]])) as Profile;
