// The admin API's view of the storage (the panel's Files page): what the service's listing lacks, one call for any
// location (a file or a folder, no 4xx for guessing wrong), each entry's content type and date, and a search by name.
import type { Project } from '../../shared/project.js';
import { foldText } from '../../shared/util/text-search.js';
import { type FileRecord, record, sortedNames } from './listing.js';
import type { FilePath } from './paths.js';
import { filesState } from './state.js';
import { type TreeNode, existing } from './tree.js';

/** A listing item with what the admin view adds: a file's Content-Type and the last change. */
interface AdminFileEntry extends FileRecord {
  /** The type the file is served with (files only). */
  contentType?: string;
  /** Epoch milliseconds of the server clock. */
  lastModificationDate: number;
}

/** The entry at a location and one page of what is below it; `total` counts every entry the page is taken from. */
export interface AdminFileListing {
  entry: AdminFileEntry;
  entries: AdminFileEntry[];
  total: number;
}

/** Which entries below a location a listing holds: a folder's own (no `name`), or every one whose name holds `name`. */
interface AdminFileQuery {
  name: string | undefined;
  page: number;
  pageSize: number;
}

function entryOf(bucket: string, path: FilePath, node: TreeNode): AdminFileEntry {
  return {
    ...record(bucket, path, node),
    ...(node.kind === 'file' && { contentType: node.contentType }),
    lastModificationDate: node.modified,
  };
}

/** Every entry below `node` whose name holds `needle` (folded), in path order, as [path, node]. */
function* matchesBelow(node: TreeNode, path: FilePath, needle: string): Generator<[FilePath, TreeNode]> {
  if (node.kind !== 'folder') return;
  for (const name of sortedNames(node)) {
    const child = node.children.get(name)!;
    const childPath = [...path, name];
    if (foldText(name).includes(needle)) yield [childPath, child];
    yield* matchesBelow(child, childPath, needle);
  }
}

/**
 * The entry at `path` (404, code 602, when there is none) and a page of entries below it: a folder's children by
 * name, or with `name` every file and folder at any depth whose name holds it, ignoring case and accents.
 */
export function adminListing(
  project: Project,
  path: FilePath,
  { name, page, pageSize }: AdminFileQuery,
): AdminFileListing {
  const { bucket } = project.config;
  const node = existing(project.state(filesState).root, path, bucket);
  const below: [FilePath, TreeNode][] =
    name !== undefined
      ? [...matchesBelow(node, path, foldText(name))]
      : node.kind === 'folder'
        ? sortedNames(node).map((child) => [[...path, child], node.children.get(child)!])
        : [];
  const start = page * pageSize;
  return {
    entry: entryOf(bucket, path, node),
    entries: below.slice(start, start + pageSize).map(([at, inner]) => entryOf(bucket, at, inner)),
    total: below.length,
  };
}
