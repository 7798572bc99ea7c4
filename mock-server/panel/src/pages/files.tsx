// The Files page: the storage's folder tree, a folder's entries (upload, new folder, copy, move, delete) or one
// file (preview, download, rename, copy, move, delete). URL: /files/<folder or file path>?page=<n>.
import { ServiceError } from '@basekit/sdk/core';
import { Status } from '../components/status.js';
import { href, useRoute } from '../router.js';
import { useLoad } from '../use-load.js';
import type { PageProps } from './page-props.js';
import { FileView } from './files/file-view.js';
import { FolderView } from './files/folder-view.js';
import { fileInfo, listFolder } from './files/storage.js';
import { FolderTree } from './files/tree.js';

/** The service's code for a listing asked of a file. */
const NOT_A_FOLDER = 609;

/** What the URL names: a folder with one page of its entries, or a file with its info. */
async function locate(names: string[], page: number) {
  try {
    return { kind: 'folder' as const, records: await listFolder(names, page) };
  } catch (error) {
    if (!(error instanceof ServiceError && error.code === NOT_A_FOLDER)) throw error;
    return { kind: 'file' as const, info: await fileInfo(names) };
  }
}

export default function FilesPage({ params }: PageProps) {
  const page = Number(useRoute().query.get('page')) || 0;
  const located = useLoad(() => locate(params, page), [params.join('/'), page]);
  const { data } = located;
  return (
    <div class="files">
      <Breadcrumbs names={params} />
      <div class="files-columns">
        <FolderTree current={params} version={data} />
        <div>
          {data?.kind === 'folder' && (
            <FolderView
              key={params.join('/')}
              names={params}
              page={page}
              records={data.records}
              reload={located.reload}
            />
          )}
          {data?.kind === 'file' && <FileView key={params.join('/')} names={params} info={data.info} />}
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
