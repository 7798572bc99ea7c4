import { ErrorCode, badRequest } from '../../shared/errors.js';
import type { Project } from '../../shared/project.js';
import { type FilePath, publicUrl } from './paths.js';
import { filesState } from './state.js';
import { type FolderNode, type TreeNode, descendantCount, existing, sizeOf } from './tree.js';

/**
 * A folder listing item (the contract's `FileRecord`).
 *
 * @example
 * const { files }: { files: FileRecord[] } = await (await engine.fetch(directoryInfoRequest)).json();
 */
export interface FileRecord {
  guid: string;
  url: string;
  ownerId: string | null;
  isDirectory: boolean;
  fileSizeInBytes: number;
  numberOfDirectChildren: number;
  numberOfTotalChildren: number;
}

/**
 * File info (the contract's `FileInfo`): the listing item plus dates, hashes and the fields the spec shows as null.
 *
 * @example
 * const info: FileInfo = await (await engine.fetch(fileInfoRequest)).json();
 * console.log(info.md5Hash, info.fileSizeInBytes);
 */
export interface FileInfo extends FileRecord {
  creationDate: number;
  lastModificationDate: number;
  realFileSizeInBytes: number;
  md5Hash: string;
  crcHash: string;
  thumbnails: null;
  defaultThumbnail: null;
  metaData: null;
}

export const MAX_PAGE_SIZE = 50;
type SortingType = 'ASC' | 'DESC';

/** The listing item of the node at `path`. */
export function record(bucket: string, path: FilePath, node: TreeNode): FileRecord {
  const folder = node.kind === 'folder';
  return {
    guid: node.guid,
    url: publicUrl(bucket, path),
    ownerId: node.ownerId,
    isDirectory: folder,
    fileSizeInBytes: sizeOf(node),
    numberOfDirectChildren: folder ? node.children.size : 0,
    numberOfTotalChildren: descendantCount(node),
  };
}

/** One page of a folder's children sorted by name (code point order), `pageNumber` counting from 0. */
export function listFolder(
  project: Project,
  path: FilePath,
  pageNumber: number,
  pageSize: number,
  sortingType: SortingType,
): FileRecord[] {
  const { bucket } = project.config;
  const folder = existing(project.state(filesState).root, path, bucket);
  if (folder.kind !== 'folder')
    throw badRequest(ErrorCode.NOT_A_FOLDER, `${publicUrl(bucket, path)} is a file; fileInfo describes files`);
  const names = sortedNames(folder);
  if (sortingType === 'DESC') names.reverse();
  return names
    .slice(pageNumber * pageSize, pageNumber * pageSize + pageSize)
    .map((name) => record(bucket, [...path, name], folder.children.get(name)!));
}

/** A folder's names in code point order, the listing's order. */
export const sortedNames = (folder: FolderNode): string[] =>
  [...folder.children.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/** Everything known about one file. */
export function fileInfo(project: Project, path: FilePath): FileInfo {
  const { bucket } = project.config;
  const node = existing(project.state(filesState).root, path, bucket);
  if (node.kind !== 'file')
    throw badRequest(ErrorCode.NOT_A_FILE, `${publicUrl(bucket, path)} is a folder; directoryInfo lists folders`);
  return {
    ...record(bucket, path, node),
    creationDate: node.created,
    lastModificationDate: node.modified,
    realFileSizeInBytes: node.size,
    md5Hash: node.md5,
    crcHash: node.crc,
    thumbnails: null,
    defaultThumbnail: null,
    metaData: null,
  };
}
