import { useState } from 'preact/hooks';
import { ActionForm } from '../../components/action-form.js';
import { InputField } from '../../components/input-field.js';
import { setPassword } from './model.js';

/** Sets the password a user logs in with (`PUT /__admin/users/{id}/password`); their sessions stay. */
export function PasswordForm({ userId, username }: { userId: string; username: string }) {
  const [password, setText] = useState('');
  const run = async () => {
    await setPassword(userId, password);
    setText('');
    return `${username} logs in with the new password from now on.`;
  };
  return (
    <ActionForm class="toolbar" aria-label="Set the password" submit="Set password" run={run}>
      <InputField
        label="New password"
        hint="Their sessions stay: Sign out everywhere ends them."
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onValue={setText}
      />
    </ActionForm>
  );
}
