import type { ComponentChildren, JSX } from 'preact';
import { useAction } from '../use-action.js';
import { Status } from './status.js';

/**
 * A form that runs one action when submitted: its fields, then a submit button (disabled while the action runs) and
 * the action's outcome in a `Status`. `run` answers the message to announce; a throw shows as the error. Other
 * attributes (`class`, `aria-label`) go to the `<form>`.
 *
 * @example
 * <ActionForm submit="Set password" aria-label="Set the password" run={async () => {
 *   await setPassword(userId, password);
 *   return 'Password set.';
 * }}>
 *   <Field label="New password">{(id) => <input id={id} type="password" value={password} onInput={…} />}</Field>
 * </ActionForm>
 */
export function ActionForm({
  submit,
  run,
  children,
  ...form
}: {
  submit: string;
  run: () => Promise<string>;
  children: ComponentChildren;
} & Omit<JSX.IntrinsicElements['form'], 'onSubmit' | 'children'>) {
  const action = useAction();
  const onSubmit = (event: Event) => {
    event.preventDefault();
    void action.run(run);
  };
  return (
    <form {...form} onSubmit={onSubmit}>
      {children}
      <button type="submit" disabled={action.busy}>
        {submit}
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}
