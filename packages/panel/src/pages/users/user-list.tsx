import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { usePageCommands } from '../../commands.js';
import { DataTable } from '../../components/data-table.js';
import { Dialog } from '../../components/dialog.js';
import { Field } from '../../components/field.js';
import { InputField } from '../../components/input-field.js';
import { Pager } from '../../components/pager.js';
import { Status } from '../../components/status.js';
import { href, navigate, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import { useLoad } from '../../use-load.js';
import { PAGE_SIZE, createUser, findUsers, outbox, type UserFilter } from './model.js';
import { Outbox } from './outbox.js';
import { EMPTY_PROFILE, ProfileForm } from './profile-form.js';

type Flag = '' | 'true' | 'false';

/** The list's filters as the URL holds them (`?q=&active=&guest=`). */
interface Filters {
  q: string;
  active: Flag;
  guest: Flag;
}

const flag = (value: string | null): Flag => (value === 'true' || value === 'false' ? value : '');

/** What the filters keep, in words, for the table's caption: "Users matching “ann”, active". */
function described({ q, active, guest }: Filters): string {
  const kept = [
    active && (active === 'true' ? 'active' : 'not active'),
    guest && (guest === 'true' ? 'guests' : 'registered'),
  ].filter(Boolean);
  return [q ? `Users matching “${q}”` : 'Users', ...kept].join(', ');
}

/** A yes / no / any choice of a user flag. */
function FlagSelect({ label, value, onChange }: { label: string; value: Flag; onChange: (value: Flag) => void }) {
  return (
    <Field label={label}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value as Flag)}>
          <option value="">any</option>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      )}
    </Field>
  );
}

/**
 * Every user, paged, searched by a text or a user id and filtered by active and guest (`?q=&active=&guest=&page=`
 * in the URL), a form to create one, and the outbox.
 */
export function UserList() {
  const { query } = useRoute();
  const filters: Filters = {
    q: query.get('q') ?? '',
    active: flag(query.get('active')),
    guest: flag(query.get('guest')),
  };
  const page = Math.max(0, Number(query.get('page')) || 0);
  const key = JSON.stringify(filters);
  const users = useLoad(() => findUsers(asked(filters), page), [key, page]);
  const mails = useLoad(outbox, []);
  const [draft, setDraft] = useState(filters);
  const [creating, setCreating] = useState(false);
  const create = useAction();
  // Before the page can take input: an effect would run after the first paint and undo what was typed meanwhile.
  useLayoutEffect(() => setDraft(filters), [key]);
  usePageCommands([{ title: 'Create user', run: () => setCreating(true) }]);

  const submitSearch = (event: Event) => {
    event.preventDefault();
    setQuery({ ...draft, q: draft.q.trim() });
  };

  const submitCreate = (fields: Parameters<typeof createUser>[0]) =>
    create.run(async () => {
      const user = await createUser(fields);
      setCreating(false);
      navigate(href('users', user.userId));
      return `User ${user.username} created.`;
    });

  const count = users.data?.userCount;
  const filtered = Object.values(filters).some(Boolean);
  return (
    <>
      <div class="toolbar">
        <form class="toolbar" role="search" onSubmit={submitSearch}>
          <InputField
            label="Search users"
            type="search"
            placeholder="name, e-mail or user id"
            value={draft.q}
            onValue={(q) => setDraft({ ...draft, q })}
          />
          <FlagSelect label="Active" value={draft.active} onChange={(active) => setDraft({ ...draft, active })} />
          <FlagSelect label="Guest" value={draft.guest} onChange={(guest) => setDraft({ ...draft, guest })} />
          <button type="submit">Search</button>
          {filtered && <a href={href('users')}>Clear</a>}
        </form>
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          Create user
        </button>
      </div>
      <Status error={users.error ?? create.error}>{users.loading ? 'Loading users…' : ''}</Status>
      {users.data && (
        <>
          <DataTable
            caption={`${described(filters)} (${count})`}
            rows={users.data.users}
            rowKey={(user) => user.userId}
            empty={filtered ? 'No user matches.' : 'No users yet.'}
            columns={[
              { title: 'Username', cell: (user) => <a href={href('users', user.userId)}>{user.username}</a> },
              { title: 'Name', cell: (user) => `${user.firstName} ${user.lastName}`.trim() },
              { title: 'E-mail', cell: (user) => user.email },
              { title: 'Active', cell: (user) => yesNo(user.active) },
              { title: 'Guest', cell: (user) => yesNo(user.guest) },
              { title: 'User id', cell: (user) => <code>{user.userId}</code> },
            ]}
          />
          <Pager
            label="Users pages"
            page={page}
            hasNext={(page + 1) * PAGE_SIZE < (count ?? 0)}
            onPage={(next) => setQuery({ ...filters, page: next || undefined })}
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

const yesNo = (value: boolean): ComponentChildren => (value ? 'yes' : 'no');

/** The filters as the admin API takes them: those given. */
const asked = ({ q, active, guest }: Filters): UserFilter => ({
  ...(q && { q }),
  ...(active && { active }),
  ...(guest && { guest }),
});
