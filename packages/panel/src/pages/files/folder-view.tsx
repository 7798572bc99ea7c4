import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { focusField, usePageCommands } from '../../commands.js';
import { ActionForm } from '../../components/action-form.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { DataTable } from '../../components/data-table.js';
import { InputField } from '../../components/input-field.js';
import { Pager } from '../../components/pager.js';
import { Status } from '../../components/status.js';
import { UserLink } from '../../components/user-link.js';
import { count } from '../../plural.js';
import { href, setQuery, useRoute } from '../../router.js';
import { useAction } from '../../use-action.js';
import {
  createFolder,
  deleteEntries,
  downloadUrl,
  formatBytes,
  namesOf,
  PAGE_SIZE,
  resizable,
  type FileEntry,
  type FileListing,
} from './storage.js';
import { TransferForm } from './transfer-form.js';
import { UploadZone } from './upload-zone.js';

const THUMBNAIL_BOX: [number, number] = [160, 160];

/**
 * One folder: its entries (or, searched, every entry below it whose name holds the text) as a list or as a grid of
 * thumbnails, with type, size, owner and date, and what can be done to them.
 */
export function FolderView({
  names,
  page,
  listing,
  reload,
}: {
  names: string[];
  page: number;
  listing: FileListing;
  reload: () => void;
}) {
  const { query } = useRoute();
  const search = query.get('q') ?? '';
  const grid = query.get('view') === 'grid';
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const records = listing.entries;
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
  const show = (values: { q?: string; view?: string }) =>
    setQuery({ q: search || undefined, view: grid ? 'grid' : undefined, ...values });
  usePageCommands([
    { title: 'Upload files', run: () => focusField('Choose files to upload') },
    { title: 'New folder', run: () => focusField('New folder') },
    {
      title: grid ? 'Show the files as a list' : 'Show the files as thumbnails',
      run: () => show({ view: grid ? undefined : 'grid' }),
    },
  ]);
  const title = names.length ? names[names.length - 1]! : 'Root';
  const where = names.length ? `/${names.join('/')}` : 'the root folder';
  // A search finds entries at any depth: each is named by its path from this folder.
  const nameOf = (record: FileEntry) =>
    namesOf(record.url).slice(names.length).join('/') + (record.isDirectory ? '/' : '');
  const select = (r: FileEntry) => (
    <input
      type="checkbox"
      aria-label={`Select ${nameOf(r).replace(/\/$/, '')}`}
      checked={selected.has(r.url)}
      onChange={() => toggle(r.url)}
    />
  );
  const caption = search ? `Entries named like “${search}” in ${where} (${listing.total})` : `Entries of ${where}`;
  return (
    <section aria-label={`Folder ${title}`}>
      <UploadZone folder={names} onUploaded={reload} />
      <NewFolder folder={names} onCreated={reload} />
      <SearchForm search={search} onSearch={(q) => show({ q: q || undefined })} />
      <div class="toolbar" role="group" aria-label="Show as">
        <button type="button" aria-pressed={!grid} onClick={() => show({ view: undefined })}>
          List
        </button>
        <button type="button" aria-pressed={grid} onClick={() => show({ view: 'grid' })}>
          Thumbnails
        </button>
      </div>
      {grid ? (
        <FileGrid caption={caption} records={records} nameOf={nameOf} select={select} />
      ) : (
        <DataTable
          caption={caption}
          rowKey={(r) => r.guid}
          rows={records}
          empty={search ? 'No entry has that name.' : 'This folder is empty.'}
          columns={[
            { title: 'Select', cell: select },
            { title: 'Name', cell: (r) => <a href={href('files', ...namesOf(r.url))}>{nameOf(r)}</a> },
            { title: 'Type', cell: (r) => (r.isDirectory ? 'folder' : r.contentType?.split(';')[0]) },
            { title: 'Size', cell: (r) => formatBytes(r.fileSizeInBytes) },
            {
              title: 'Entries',
              cell: (r) =>
                r.isDirectory ? `${r.numberOfDirectChildren} direct, ${r.numberOfTotalChildren} in all` : '',
            },
            { title: 'Owner', cell: (r) => (r.ownerId ? <UserLink userId={r.ownerId} /> : 'master') },
            { title: 'Modified', cell: (r) => <Modified at={r.lastModificationDate} /> },
          ]}
        />
      )}
      <Pager
        label="Paging of this folder"
        page={page}
        hasNext={(page + 1) * PAGE_SIZE < listing.total}
        onPage={(p) => setQuery({ q: search || undefined, view: grid ? 'grid' : undefined, page: p || undefined })}
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

/** A date of the server clock, to the second, in UTC. */
function Modified({ at }: { at: number }) {
  const iso = new Date(at).toISOString();
  return <time dateTime={iso}>{iso.slice(0, 19).replace('T', ' ')}</time>;
}

/** The entries as cards: a thumbnail of each image (resized by the server), the type of anything else. */
function FileGrid({
  caption,
  records,
  nameOf,
  select,
}: {
  caption: string;
  records: FileEntry[];
  nameOf: (record: FileEntry) => string;
  select: (record: FileEntry) => ComponentChildren;
}) {
  return (
    <>
      {records.length === 0 && <p>Nothing here.</p>}
      <ul class="file-grid" aria-label={caption}>
        {records.map((r) => {
          const names = namesOf(r.url);
          const type = r.contentType ?? '';
          return (
            <li key={r.guid}>
              <a href={href('files', ...names)} class="file-card">
                {type.startsWith('image/') ? (
                  <img
                    src={downloadUrl(names, resizable(type) ? { resize: THUMBNAIL_BOX } : {})}
                    alt=""
                    loading="lazy"
                  />
                ) : (
                  <span class="file-kind" aria-hidden="true">
                    {r.isDirectory ? 'folder' : type.split(';')[0]}
                  </span>
                )}
                <span class="file-name">{nameOf(r)}</span>
              </a>
              <span class="file-meta">
                {select(r)}{' '}
                {r.isDirectory ? count(r.numberOfTotalChildren, 'entry', 'entries') : formatBytes(r.fileSizeInBytes)}
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** Finds entries by name in this folder and every folder below it (`?q=`). */
function SearchForm({ search, onSearch }: { search: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(search);
  return (
    <form
      class="toolbar"
      role="search"
      aria-label="Search files"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(text.trim());
      }}
    >
      <InputField
        label="Search by name"
        hint="In this folder and every folder below it; case and accents ignored."
        type="search"
        value={text}
        onValue={setText}
      />
      <button type="submit">Search</button>
      {search && (
        <button type="button" onClick={() => onSearch('')}>
          Clear the search
        </button>
      )}
    </form>
  );
}

function NewFolder({ folder, onCreated }: { folder: string[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const submit = async () => {
    await createFolder([...folder, name]);
    setName('');
    onCreated();
    return `Folder ${name} created.`;
  };
  return (
    <ActionForm class="toolbar" submit="Create folder" run={submit}>
      <InputField label="New folder" required value={name} onValue={setName} />
    </ActionForm>
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
  const what = paths.length === 1 ? paths[0]!.join('/') : count(paths.length, 'entry', 'entries');
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
