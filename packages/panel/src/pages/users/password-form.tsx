import { useState } from 'preact/hooks';
import { Field } from '../../components/field.js';
import { Status } from '../../components/status.js';
import { useAction } from '../../use-action.js';
import { setPassword } from './model.js';

/** Sets the password a user logs in with (`PUT /__admin/users/{id}/password`); their sessions stay. */
export function PasswordForm({ userId, username }: { userId: string; username: string }) {
  const [password, setText] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await setPassword(userId, password);
      setText('');
      return `${username} logs in with the new password from now on.`;
    });
  };
  return (
    <form class="toolbar" onSubmit={submit} aria-label="Set the password">
      <Field label="New password" hint="Their sessions stay: Sign out everywhere ends them.">
        {(id) => (
          <input
            id={id}
            type="password"
            autoComplete="new-password"
            required
            value={password}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        )}
      </Field>
      <button type="submit" disabled={action.busy}>
        Set password
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}
