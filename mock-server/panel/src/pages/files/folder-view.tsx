import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { Field } from '../../components/field.js';
import { Pager } from '../../components/pager.js';
import { Status } from '../../components/status.js';
import { href, setQuery } from '../../router.js';
import { useAction } from '../../use-action.js';
import { createFolder, deleteEntries, formatBytes, namesOf, PAGE_SIZE, type FileRecord } from './storage.js';
import { TransferForm } from './transfer-form.js';
import { UploadZone } from './upload-zone.js';

/** One folder: its entries with sizes and child counts, and what can be done to them. */
export function FolderView({
  names,
  page,
  records,
  reload,
}: {
  names: string[];
  page: number;
  records: FileRecord[];
  reload: () => void;
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const chosen = records.filter((r) => selected.has(r.url));
  const toggle = (url: string) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (!next.delete(url)) next.add(url);
      return next;
    });
  const done = () => {
    setSelected(new Set());
    reload();
  };
  const title = names.length ? names[names.length - 1]! : 'Root';
  return (
    <section aria-label={`Folder ${title}`}>
      <UploadZone folder={names} onUploaded={reload} />
      <NewFolder folder={names} onCreated={reload} />
      <DataTable
        caption={`Entries of ${names.length ? `/${names.join('/')}` : 'the root folder'}`}
        rowKey={(r) => r.guid}
        rows={records}
        empty="This folder is empty."
        columns={[
          {
            title: 'Select',
            cell: (r) => (
              <input
                type="checkbox"
                aria-label={`Select ${nameOf(r)}`}
                checked={selected.has(r.url)}
                onChange={() => toggle(r.url)}
              />
            ),
          },
          {
            title: 'Name',
            cell: (r) => <a href={href('files', ...namesOf(r.url))}>{nameOf(r) + (r.isDirectory ? '/' : '')}</a>,
          },
          { title: 'Size', cell: (r) => formatBytes(r.fileSizeInBytes) },
          {
            title: 'Entries',
            cell: (r) => (r.isDirectory ? `${r.numberOfDirectChildren} direct, ${r.numberOfTotalChildren} in all` : ''),
          },
          { title: 'Owner', cell: (r) => (r.ownerId ? <a href={href('users', r.ownerId)}>{r.ownerId}</a> : 'master') },
        ]}
      />
      <Pager
        label="Paging of this folder"
        page={page}
        hasNext={records.length === PAGE_SIZE}
        onPage={(p) => setQuery({ page: p || undefined })}
      />
      {chosen.length > 0 && (
        <section aria-label="Selected entries" class="selection">
          <h2>
            {chosen.length} selected: {chosen.map(nameOf).join(', ')}
          </h2>
          <DeleteButton
            paths={chosen.map((r) => namesOf(r.url))}
            folders={chosen.some((r) => r.isDirectory)}
            onDeleted={done}
          />
          <TransferForm sources={chosen.map((r) => namesOf(r.url))} onDone={done} />
        </section>
      )}
    </section>
  );
}

const nameOf = (record: FileRecord) => namesOf(record.url).pop() ?? '';

function NewFolder({ folder, onCreated }: { folder: string[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await createFolder([...folder, name]);
      setName('');
      onCreated();
      return `Folder ${name} created.`;
    });
  };
  return (
    <form class="toolbar" onSubmit={submit}>
      <Field label="New folder">
        {(id) => <input id={id} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <button type="submit" disabled={action.busy}>
        Create folder
      </button>
      <Status error={action.error}>{action.message}</Status>
    </form>
  );
}

/** Deletes entries once confirmed; `folders` asks whether non-empty folders may go with their content. */
export function DeleteButton({
  paths,
  folders,
  onDeleted,
}: {
  paths: string[][];
  folders: boolean;
  onDeleted: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [forced, setForced] = useState(false);
  const action = useAction();
  const what = paths.length === 1 ? paths[0]!.join('/') : `${paths.length} entries`;
  const remove = () => {
    setConfirming(false);
    void action.run(async () => {
      await deleteEntries(paths, forced);
      onDeleted();
      return `Deleted ${what}.`;
    });
  };
  return (
    <div class="toolbar">
      {folders && (
        <label>
          <input type="checkbox" checked={forced} onChange={(e) => setForced(e.currentTarget.checked)} /> Delete folders
          with everything in them
        </label>
      )}
      <button type="button" class="danger" disabled={action.busy} onClick={() => setConfirming(true)}>
        Delete
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Delete ${what}?`}
          confirmLabel="Yes, delete"
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {forced ? 'Folders go with everything in them.' : 'A folder that is not empty stays.'} This cannot be
            undone.
          </p>
        </ConfirmDialog>
      )}
      <Status error={action.error}>{action.message}</Status>
    </div>
  );
}
