import { useState } from 'preact/hooks';
import { DataTable } from '../../components/data-table.js';
import { Dialog } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { Pager } from '../../components/pager.js';
import { Status } from '../../components/status.js';
import { href, navigate, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { PAGE_SIZE, createUser, listUsers, outbox } from './model.js';
import { Outbox } from './outbox.js';
import { EMPTY_PROFILE, ProfileForm } from './profile-form.js';

/** Every user, paged, searched by a word (`?q=`, `?page=` in the URL), a form to create one, and the outbox. */
export function UserList() {
  const { query } = useRoute();
  const word = query.get('q') ?? '';
  const page = Math.max(0, Number(query.get('page')) || 0);
  const users = useLoad(() => listUsers(word, page), [word, page]);
  const mails = useLoad(outbox, []);
  const [search, setSearch] = useState(word);
  const [creating, setCreating] = useState(false);
  const create = useAction();

  const submitSearch = (event: Event) => {
    event.preventDefault();
    setQuery({ q: search.trim() });
  };

  const submitCreate = (fields: Parameters<typeof createUser>[0]) =>
    create.run(async () => {
      const user = await createUser(fields);
      setCreating(false);
      navigate(href('users', user.userId));
      return `User ${user.username} created.`;
    });

  const count = users.data?.userCount;
  return (
    <>
      <div class="toolbar">
        <form class="toolbar" role="search" onSubmit={submitSearch}>
          <Field label="Search users">
            {(id) => (
              <input
                id={id}
                type="search"
                placeholder="name, username or e-mail"
                value={search}
                onInput={(e) => setSearch(e.currentTarget.value)}
              />
            )}
          </Field>
          <button type="submit">Search</button>
        </form>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          Create user
        </button>
      </div>
      <Status error={users.error ?? create.error}>{users.loading ? 'Loading users…' : ''}</Status>
      {users.data && (
        <>
          <DataTable
            caption={`${word ? `Users matching “${word}”` : 'Users'} (${count})`}
            rows={users.data.users}
            rowKey={(user) => user.userId}
            empty={word ? 'No user matches.' : 'No users yet.'}
            columns={[
              { title: 'Username', cell: (user) => <a href={href('users', user.userId)}>{user.username}</a> },
              { title: 'Name', cell: (user) => `${user.firstName} ${user.lastName}`.trim() },
              { title: 'E-mail', cell: (user) => user.email },
              { title: 'Active', cell: (user) => (user.active ? 'yes' : 'no') },
              { title: 'Guest', cell: (user) => (user.guest ? 'yes' : 'no') },
              { title: 'User id', cell: (user) => <code>{user.userId}</code> },
            ]}
          />
          <Pager
            label="Users pages"
            page={page}
            hasNext={(page + 1) * PAGE_SIZE < (count ?? 0)}
            onPage={(next) => setQuery({ q: word, page: next || undefined })}
          />
        </>
      )}
      <h2>Outbox</h2>
      <Status error={mails.error} />
      {mails.data && <Outbox messages={mails.data} caption={`E-mails (${mails.data.length})`} />}
      {creating && (
        <Dialog title="Create user" onClose={() => setCreating(false)}>
          <ProfileForm initial={EMPTY_PROFILE} withPassword submitLabel="Create" onSubmit={submitCreate} />
          <Status error={create.error} />
        </Dialog>
      )}
    </>
  );
}
