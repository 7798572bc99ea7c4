import { ApiError, ErrorCode, notFound } from '../../shared/errors.js';
import { type RandomSource, newId } from '../../shared/ids.js';
import { type FilePath, publicUrl } from './paths.js';

interface NodeBase {
  guid: string;
  /** The user who created it; null when made with the master token. */
  ownerId: string | null;
  /** Epoch milliseconds of the server clock. */
  created: number;
  modified: number;
}

export interface FolderNode extends NodeBase {
  kind: 'folder';
  children: Map<string, TreeNode>;
}

export interface FileNode extends NodeBase {
  kind: 'file';
  size: number;
  md5: string;
  crc: string;
  contentType: string;
  /** Where the bytes are in the blob store; a new key for every new content, so it also names the version. */
  blobKey: string;
}

export type TreeNode = FolderNode | FileNode;

/** Who makes a new folder (null: the master token), at what time of the server clock, its guid drawn from `random`. */
interface Making {
  ownerId: string | null;
  now: number;
  random: RandomSource;
}

export function newFolder({ ownerId, now, random }: Making): FolderNode {
  return { kind: 'folder', guid: newId(random, 24), ownerId, created: now, modified: now, children: new Map() };
}

export function find(root: FolderNode, path: FilePath): TreeNode | undefined {
  let node: TreeNode | undefined = root;
  for (const name of path) {
    if (node?.kind !== 'folder') return undefined;
    node = node.children.get(name);
  }
  return node;
}

/** The node at `path`, or 404. */
export function existing(root: FolderNode, path: FilePath, bucket: string): TreeNode {
  const node = find(root, path);
  if (!node) throw notFound(ErrorCode.FILE_NOT_FOUND, `${publicUrl(bucket, path)} does not exist`);
  return node;
}

/** Checks that every existing node along `path` is a folder, so `ensureFolder` cannot fail (417 otherwise). */
export function checkFolderPath(root: FolderNode, path: FilePath, bucket: string): void {
  let node: TreeNode = root;
  for (let i = 0; i < path.length; i++) {
    const next: TreeNode | undefined = node.children.get(path[i]!);
    if (!next) return;
    if (next.kind === 'file') throw fileInTheWay(bucket, path.slice(0, i + 1));
    node = next;
  }
}

function fileInTheWay(bucket: string, path: FilePath): ApiError {
  return new ApiError(417, ErrorCode.FILE_EXISTS, `${publicUrl(bucket, path)} is a file, not a folder`);
}

/** The folder at `path`, creating missing folders (call `checkFolderPath` first). Returns whether the last one was created. */
export function ensureFolder(
  root: FolderNode,
  path: FilePath,
  making: Making,
): { folder: FolderNode; created: boolean } {
  let folder = root;
  let created = false;
  for (const name of path) {
    const next = folder.children.get(name);
    if (next?.kind === 'file') throw new Error('ensureFolder called over a file');
    created = !next;
    folder = next ?? setChild(folder, name, newFolder(making), making.now);
  }
  return { folder, created };
}

/** Puts `node` under `name` in `folder`, which counts as a change of the folder. */
export function setChild<T extends TreeNode>(folder: FolderNode, name: string, node: T, now: number): T {
  folder.children.set(name, node);
  folder.modified = now;
  return node;
}

export function removeChild(folder: FolderNode, name: string, now: number): void {
  folder.children.delete(name);
  folder.modified = now;
}

/** `node` and every file and folder below it. */
export function* nodesIn(node: TreeNode): Generator<TreeNode> {
  yield node;
  if (node.kind === 'folder') for (const child of node.children.values()) yield* nodesIn(child);
}

/** Every file at or below `node`. */
export function* filesIn(node: TreeNode): Generator<FileNode> {
  for (const inner of nodesIn(node)) if (inner.kind === 'file') yield inner;
}

/** Number of files and folders below `node` (0 for a file). */
export function descendantCount(node: TreeNode): number {
  if (node.kind === 'file') return 0;
  let count = 0;
  for (const child of node.children.values()) count += 1 + descendantCount(child);
  return count;
}

/** The longest path (by characters) from `name`, the name of `node`, down to anything inside it. */
export function longestPathIn(name: string, node: TreeNode): FilePath {
  let longest: FilePath = [name];
  if (node.kind === 'folder') {
    for (const [childName, child] of node.children) {
      const path = [name, ...longestPathIn(childName, child)];
      if (path.join('/').length > longest.join('/').length) longest = path;
    }
  }
  return longest;
}

/** Bytes of the file, or of every file inside the folder. */
export function sizeOf(node: TreeNode): number {
  let size = 0;
  for (const file of filesIn(node)) size += file.size;
  return size;
}
