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

/**
 * A folder keeps the totals of everything below it, kept up to date by `setChild` and `removeChild` (each change
 * walks up through `parent`, O(depth)), so a listing reads them instead of walking each listed folder's subtree.
 */
export interface FolderNode extends NodeBase {
  kind: 'folder';
  children: Map<string, TreeNode>;
  /** The folder this one is a child of (none for the root, or a folder no longer in the tree). */
  parent?: FolderNode | undefined;
  /** Its name in `parent` (empty for the root). */
  name: string;
  /** Told of every change below it (the root's, while a change is kept by a durable store). */
  watcher?: TreeWatcher | undefined;
  /** Bytes of every file below. */
  bytes: number;
  /** Files below, at any depth. */
  fileCount: number;
  /** Files and folders below, at any depth. */
  descendants: number;
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

/**
 * Told of each change of a tree just before it is made, by `setChild` and `removeChild` (every change of the tree
 * goes through them): what a durable store saves of the change, and what a failed save takes back.
 */
export interface TreeWatcher {
  setting(folder: FolderNode, name: string, node: TreeNode, now: number): void;
  removing(folder: FolderNode, name: string, now: number): void;
}

/** Who makes a new folder (null: the master token), at what time of the server clock, its guid drawn from `random`. */
interface Making {
  ownerId: string | null;
  now: number;
  random: RandomSource;
}

export function newFolder({ ownerId, now, random }: Making): FolderNode {
  return emptyFolder(newId(random, 24), ownerId, now, now);
}

/** A folder with no children yet (its totals 0). */
export function emptyFolder(guid: string, ownerId: string | null, created: number, modified: number): FolderNode {
  return {
    kind: 'folder',
    guid,
    ownerId,
    created,
    modified,
    children: new Map(),
    parent: undefined,
    name: '',
    bytes: 0,
    fileCount: 0,
    descendants: 0,
  };
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

/** Adds the totals of `node` (times `sign`: 1 or -1) to `folder` and every folder above it: O(depth). */
function count(folder: FolderNode, node: TreeNode, sign: 1 | -1): void {
  const bytes = sign * sizeOf(node);
  const files = sign * fileCountOf(node);
  const descendants = sign * (1 + descendantCount(node));
  for (let at: FolderNode | undefined = folder; at; at = at.parent) {
    at.bytes += bytes;
    at.fileCount += files;
    at.descendants += descendants;
  }
}

/**
 * Puts `node` under `name` in `folder` (in place of what was there), which counts as a change of the folder; the
 * totals of the folders above follow.
 */
export function setChild<T extends TreeNode>(folder: FolderNode, name: string, node: T, now: number): T {
  rootOf(folder).watcher?.setting(folder, name, node, now);
  const present = folder.children.get(name);
  if (present) count(folder, present, -1);
  folder.children.set(name, node);
  if (node.kind === 'folder') {
    node.parent = folder;
    node.name = name;
  }
  count(folder, node, 1);
  folder.modified = now;
  return node;
}

/** Takes `name` out of `folder`, which counts as a change of the folder; the totals of the folders above follow. */
export function removeChild(folder: FolderNode, name: string, now: number): void {
  rootOf(folder).watcher?.removing(folder, name, now);
  const present = folder.children.get(name);
  if (present) {
    folder.children.delete(name);
    count(folder, present, -1);
    // A folder moved elsewhere first (a move) keeps its new parent.
    if (present.kind === 'folder' && present.parent === folder) present.parent = undefined;
  }
  folder.modified = now;
}

/**
 * A folder holding `children` (nodes not in any other folder), its totals counted from theirs: O(children).
 * For trees built whole (a copy, an import).
 */
export function folderOf(base: NodeBase, children: Map<string, TreeNode>): FolderNode {
  const folder = emptyFolder(base.guid, base.ownerId, base.created, base.modified);
  folder.children = children;
  for (const [name, child] of children) {
    if (child.kind === 'folder') {
      child.parent = folder;
      child.name = name;
    }
    folder.bytes += sizeOf(child);
    folder.fileCount += fileCountOf(child);
    folder.descendants += 1 + descendantCount(child);
  }
  return folder;
}

/** The top of the tree `folder` is in: O(depth). */
function rootOf(folder: FolderNode): FolderNode {
  let at = folder;
  while (at.parent) at = at.parent;
  return at;
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

/** Number of files and folders below `node` (0 for a file): O(1). */
export const descendantCount = (node: TreeNode): number => (node.kind === 'file' ? 0 : node.descendants);

/** Number of files at or below `node` (1 for a file): O(1). */
export const fileCountOf = (node: TreeNode): number => (node.kind === 'file' ? 1 : node.fileCount);

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

/** Bytes of the file, or of every file inside the folder: O(1). */
export const sizeOf = (node: TreeNode): number => (node.kind === 'file' ? node.size : node.bytes);

/**
 * Where the totals kept in the folders at or below `folder` differ from a count of what is below them, or where a
 * folder's `parent` is not the folder holding it or its `name` not the name it is held under, as readable lines (none when all agree): O(subtree), for tests.
 */
export function totalsMismatches(folder: FolderNode, path = '/'): string[] {
  const found: string[] = [];
  const walk = (at: FolderNode, where: string): { bytes: number; files: number; descendants: number } => {
    const sum = { bytes: 0, files: 0, descendants: 0 };
    for (const [name, child] of at.children) {
      sum.descendants++;
      if (child.kind === 'file') {
        sum.bytes += child.size;
        sum.files++;
        continue;
      }
      if (child.parent !== at) found.push(`${where}${name}/: parent is not the folder holding it`);
      if (child.name !== name) found.push(`${where}${name}/: its name is "${child.name}"`);
      const inner = walk(child, `${where}${name}/`);
      sum.bytes += inner.bytes;
      sum.files += inner.files;
      sum.descendants += inner.descendants;
    }
    const kept = { bytes: at.bytes, files: at.fileCount, descendants: at.descendants };
    if (kept.bytes !== sum.bytes || kept.files !== sum.files || kept.descendants !== sum.descendants)
      found.push(`${where}: kept ${JSON.stringify(kept)}, counted ${JSON.stringify(sum)}`);
    return sum;
  };
  walk(folder, path);
  return found;
}
