// The admin API's view of the storage (the panel's Files page): what the service's listing lacks, one call for any
// location (a file or a folder, no 4xx for guessing wrong), each entry's content type and date, and a search by name.
import type { Project } from '../../shared/project.js';
import { foldText } from '../../shared/util/text-search.js';
import { type FileRecord, record, sortedNames } from './listing.js';
import type { FilePath } from './paths.js';
import { filesState } from './state.js';
import { type FolderNode, type TreeNode, existing } from './tree.js';

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

/** Path order: segment by segment, a folder before what it holds (the order of a walk taking each folder by name). */
function comparePaths(a: FilePath, b: FilePath): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

/**
 * Every entry below `node` whose name holds `needle` (folded), in path order, as [path, node]. One walk in the
 * folders' own order, and only the matches sorted: sorting each folder's names on the way took most of the time.
 */
function matchesBelow(node: TreeNode, path: FilePath, needle: string): [FilePath, TreeNode][] {
  const found: [FilePath, TreeNode][] = [];
  const walk = (folder: FolderNode, at: FilePath): void => {
    for (const [name, child] of folder.children) {
      const childPath = [...at, name];
      if (foldText(name).includes(needle)) found.push([childPath, child]);
      if (child.kind === 'folder') walk(child, childPath);
    }
  };
  if (node.kind === 'folder') walk(node, path);
  return found.sort(([a], [b]) => comparePaths(a, b));
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
      ? matchesBelow(node, path, foldText(name))
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
