import { useEffect, useState } from 'preact/hooks';
import { count } from '../../plural.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { formatBytes, listFolder, namesOf, PAGE_SIZE, type FileRecord } from './storage.js';

/**
 * The folders of the storage as a tree, opened along the current location; each folder is loaded when opened and
 * shows its size and how many entries it holds. `version` changes when the page changed something: open folders
 * load again.
 */
export function FolderTree({ current, version }: { current: string[]; version: unknown }) {
  return (
    <nav aria-label="Folder tree" class="folder-tree">
      <ul>
        <Folder names={[]} current={current} version={version} />
      </ul>
    </nav>
  );
}

function Folder({
  names,
  record,
  current,
  version,
}: {
  names: string[];
  record?: FileRecord;
  current: string[];
  version: unknown;
}) {
  const onPath = names.length <= current.length && names.every((name, i) => current[i] === name);
  const [open, setOpen] = useState(onPath);
  useEffect(() => {
    if (onPath) setOpen(true);
  }, [onPath]);
  const children = useLoad(async () => {
    const records = open ? await listFolder(names, 0) : [];
    return { folders: records.filter((r) => r.isDirectory), more: records.length === PAGE_SIZE };
  }, [open, names.join('/'), version]);
  const label = names.length ? names[names.length - 1]! : 'Root';
  const here = names.length === current.length && onPath;
  return (
    <li>
      <button
        type="button"
        class="twisty"
        aria-expanded={open}
        aria-label={`${open ? 'Hide' : 'Show'} the folders in ${label}`}
        onClick={() => setOpen(!open)}
      >
        {open ? '▾' : '▸'}
      </button>{' '}
      <a href={href('files', ...names)} aria-current={here ? 'location' : undefined}>
        {label}
      </a>
      {record && (
        <small class="hint">
          {' '}
          {formatBytes(record.fileSizeInBytes)} · {count(record.numberOfDirectChildren, 'entry', 'entries')},{' '}
          {record.numberOfTotalChildren} in all
        </small>
      )}
      {open && children.data && (children.data.folders.length > 0 || children.data.more) && (
        <ul>
          {children.data.folders.map((child) => (
            <Folder key={child.guid} names={namesOf(child.url)} record={child} current={current} version={version} />
          ))}
          {children.data.more && <li class="hint">(folders among the first {PAGE_SIZE} entries only)</li>}
        </ul>
      )}
    </li>
  );
}
