import { useState } from 'preact/hooks';
import { focusField, usePageCommands } from '../../commands.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { JsonView } from '../../components/json-view.js';
import { Status } from '../../components/status.js';
import { href, navigate } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { activateUser, deleteUser, getUser, outbox, signOutUser, updateUser } from './model.js';
import { Outbox } from './outbox.js';
import { PasswordForm } from './password-form.js';
import { ProfileForm, profileOf } from './profile-form.js';

/** One user: the record, an edit form, activate, sign out, delete, and the e-mails sent to them. */
export function UserView({ userId }: { userId: string }) {
  const user = useLoad(() => getUser(userId), [userId]);
  const mails = useLoad(outbox, [userId]);
  const action = useAction();
  const [deleting, setDeleting] = useState(false);
  usePageCommands([
    { title: 'Set the password', run: () => focusField('New password') },
    { title: 'Delete the user…', run: () => setDeleting(true) },
  ]);

  const act = (work: () => Promise<string>) =>
    action.run(async () => {
      const message = await work();
      user.reload();
      return message;
    });

  const remove = () =>
    action.run(async () => {
      setDeleting(false);
      await deleteUser(userId);
      navigate(href('users'));
      return 'User deleted.';
    });

  const record = user.data;
  return (
    <>
      <p>
        <a href={href('users')}>← All users</a>
      </p>
      <Status error={user.error}>{user.loading && !record ? 'Loading the user…' : ''}</Status>
      {record && (
        <>
          <h2>{record.username}</h2>
          <div class="toolbar">
            {!record.active && (
              <button
                type="button"
                onClick={() => act(async () => `${(await activateUser(userId)).username} is active.`)}
              >
                Activate
              </button>
            )}
            <button type="button" onClick={() => act(async () => signedOut(await signOutUser(userId)))}>
              Sign out everywhere
            </button>
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete…
            </button>
          </div>
          <Status error={action.error}>{action.message}</Status>
          <div class="columns">
            <section aria-labelledby="record-heading">
              <h3 id="record-heading">Record</h3>
              <JsonView value={record} label="User record" />
            </section>
            <section aria-labelledby="edit-heading">
              <h3 id="edit-heading">Edit</h3>
              <ProfileForm
                key={JSON.stringify(profileOf(record))}
                initial={profileOf(record)}
                submitLabel="Save"
                onSubmit={({ password: _unused, ...profile }) =>
                  act(async () => `${(await updateUser(userId, profile)).username} saved.`)
                }
              />
              <h3>Password</h3>
              <PasswordForm userId={userId} username={record.username} />
            </section>
          </div>
          {mails.data && (
            <Outbox
              messages={mails.data.filter((mail) => record.email && mail.to === record.email)}
              caption={`E-mails to ${record.email || 'this user'}`}
            />
          )}
        </>
      )}
      {deleting && record && (
        <ConfirmDialog
          title={`Delete ${record.username}?`}
          confirmLabel="Delete the user"
          onConfirm={remove}
          onCancel={() => setDeleting(false)}
        >
          <p>The user, their sessions and their scores go; the rows and files they wrote stay.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

const signedOut = (tokens: number) => `Signed out: ${tokens} refresh token${tokens === 1 ? '' : 's'} expired.`;
