import { useState } from 'preact/hooks';
import { signIn } from './api.js';
import { ActionForm } from './components/action-form.js';
import { InputField } from './components/input-field.js';

/** The sign-in form: the project's master key, checked against the admin API and kept in this tab only. */
export function SignIn() {
  const [key, setKey] = useState('');
  const run = async () => {
    try {
      await signIn(key);
    } catch (e) {
      throw (e as { status?: number }).status === 403 ? new Error('This is not the master key of the project.') : e;
    }
    // Signed in, the app shows the panel in this form's place: nothing to announce.
    return '';
  };
  return (
    <main class="sign-in">
      <h1>basekit panel</h1>
      <ActionForm submit="Sign in" run={run}>
        <InputField
          label="Master key"
          hint="The server's banner shows it. It is kept in this tab only."
          type="password"
          autoComplete="off"
          required
          value={key}
          onValue={setKey}
        />
      </ActionForm>
    </main>
  );
}
