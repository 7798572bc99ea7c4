import { useState } from 'preact/hooks';
import { signIn } from './api.js';
import { Field } from './components/field.js';
import { Status } from './components/status.js';

/** The sign-in form: the project's master key, checked against the admin API and kept in this tab only. */
export function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(key);
    } catch (e) {
      setError((e as { status?: number }).status === 403 ? new Error('This is not the master key of the project.') : e);
      setBusy(false);
    }
  };
  return (
    <main class="sign-in">
      <h1>basekit panel</h1>
      <form onSubmit={submit}>
        <Field label="Master key" hint="The server's banner shows it. It is kept in this tab only.">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="off"
              required
              value={key}
              onInput={(e) => setKey(e.currentTarget.value)}
            />
          )}
        </Field>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <Status error={error} />
      </form>
    </main>
  );
}
