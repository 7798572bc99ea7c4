// The Files page: the storage's folder tree, a folder's entries as a list or a grid of thumbnails (upload, new
// folder, copy, move, delete, search by name) or one file (preview, download, rename, copy, move, delete).
// URL: /files/<folder or file path>?page=<n>&q=<name>&view=grid.
import { Status } from '../components/status.js';
import { href, useRoute } from '../router.js';
import { useLoad } from '../use-load.js';
import type { PageProps } from './page-props.js';
import { FileView } from './files/file-view.js';
import { FolderView } from './files/folder-view.js';
import { locate } from './files/storage.js';
import { FolderTree } from './files/tree.js';

export default function FilesPage({ params }: PageProps) {
  const { query } = useRoute();
  const page = Number(query.get('page')) || 0;
  const search = query.get('q') ?? '';
  const located = useLoad(() => locate(params, page, search), [params.join('/'), page, search]);
  const { data } = located;
  return (
    <div class="files">
      <Breadcrumbs names={params} />
      <div class="files-columns">
        <FolderTree current={params} version={data} />
        <div>
          {data?.entry.isDirectory && (
            <FolderView key={params.join('/')} names={params} page={page} listing={data} reload={located.reload} />
          )}
          {data && !data.entry.isDirectory && <FileView key={params.join('/')} names={params} entry={data.entry} />}
          <Status error={located.error}>{located.loading ? 'Loading…' : ''}</Status>
        </div>
      </div>
    </div>
  );
}

/** Where the page is: a link per folder from the root. */
function Breadcrumbs({ names }: { names: string[] }) {
  return (
    <nav aria-label="Location" class="breadcrumbs">
      <ol>
        <li>
          <a href={href('files')} aria-current={names.length === 0 ? 'location' : undefined}>
            Root
          </a>
        </li>
        {names.map((name, i) => (
          <li key={i}>
            <a
              href={href('files', ...names.slice(0, i + 1))}
              aria-current={i === names.length - 1 ? 'location' : undefined}
            >
              {name}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
