import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import { type RandomSource, newId } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { type FilePath, checkPathLength, isWithin, nameOf, publicUrl, samePath, savedPath } from './paths.js';
import { select, tooMany } from './selection.js';
import { mutate } from './state.js';
import {
  type FolderNode,
  type TreeNode,
  checkFolderPath,
  descendantCount,
  ensureFolder,
  find,
  folderOf,
  longestPathIn,
  removeChild,
  setChild,
} from './tree.js';

/** The copy and move limit of docs/files.md#limits: the named elements plus all their children. */
const MAX_TRANSFER_ENTRIES = 100;

export type TransferMode = 'copy' | 'move';

/** 417 when `incoming` cannot be merged onto `present` (a file and a folder of the same name, at any depth). */
function checkMerge(bucket: string, path: FilePath, present: TreeNode, incoming: TreeNode): void {
  if (present.kind !== incoming.kind) {
    throw new ApiError(
      417,
      ErrorCode.FILE_EXISTS,
      `${publicUrl(bucket, path)} exists as a ${present.kind}; a ${incoming.kind} cannot replace it`,
    );
  }
  if (present.kind === 'folder' && incoming.kind === 'folder') {
    for (const [name, child] of incoming.children) {
      const clash = present.children.get(name);
      if (clash) checkMerge(bucket, [...path, name], clash, child);
    }
  }
}

/** A deep copy with new ids, dates and blob keys; `blobCopies` collects the bytes to copy, `[from, to]`. */
function cloneNode(node: TreeNode, now: number, random: RandomSource, blobCopies: [string, string][]): TreeNode {
  const fresh = { guid: newId(random, 24), created: now, modified: now };
  if (node.kind === 'file') {
    const blobKey = newId(random, 24);
    blobCopies.push([node.blobKey, blobKey]);
    return { ...node, ...fresh, blobKey };
  }
  const children = new Map(
    [...node.children].map(([name, child]) => [name, cloneNode(child, now, random, blobCopies)]),
  );
  return folderOf({ ...node, ...fresh }, children);
}

/** Puts `node` under `name`, merging folders into folders and replacing files; `replaced` collects the blob keys let go. */
function graft(folder: FolderNode, name: string, node: TreeNode, now: number, replaced: string[]): void {
  const present = folder.children.get(name);
  if (present?.kind === 'folder' && node.kind === 'folder') {
    for (const [childName, child] of node.children) graft(present, childName, child, now, replaced);
    return;
  }
  if (present?.kind === 'file') replaced.push(present.blobKey);
  setChild(folder, name, node, now);
}

/**
 * Copies or moves entries of one folder into the destination folder (created when missing), or nothing.
 * An entry whose name exists at the destination needs its `forces` flag (417); folders are then merged and files
 * replaced. At most 100 entries, children included (417). Returns the new saved path of each entry.
 */
export function transfer(
  project: Project,
  moment: Moment,
  mode: TransferMode,
  sources: readonly FilePath[],
  forces: readonly boolean[],
  destination: FilePath,
): Promise<string[]> {
  const { bucket } = project.config;
  if (sources.length > MAX_TRANSFER_ENTRIES) throw tooMany(MAX_TRANSFER_ENTRIES, 'elements');
  return mutate(project, async (state, release) => {
    const { parent, items } = select(state.root, bucket, sources, forces);
    if (samePath(destination, parent))
      throw badRequest(ErrorCode.INVALID_PATH, `the sources are already in ${publicUrl(bucket, destination)}`);
    const inside = items.find(({ path }) => isWithin(destination, path));
    if (inside)
      throw badRequest(ErrorCode.INVALID_PATH, `${publicUrl(bucket, inside.path)} cannot be put inside itself`);
    if (items.reduce((n, { node }) => n + 1 + descendantCount(node), 0) > MAX_TRANSFER_ENTRIES)
      throw tooMany(MAX_TRANSFER_ENTRIES, 'elements');
    for (const { path, node } of items)
      checkPathLength([...destination, ...longestPathIn(nameOf(path), node)], 'destinationUrl with the sources');
    checkFolderPath(state.root, destination, bucket);
    const target = find(state.root, destination) as FolderNode | undefined;
    for (const { path, node, forced } of items) {
      const clash = target?.children.get(nameOf(path));
      if (!clash) continue;
      const url = publicUrl(bucket, [...destination, nameOf(path)]);
      if (!forced)
        throw new ApiError(417, ErrorCode.FILE_EXISTS, `${url} already exists; set its forces flag to ${mode} over it`);
      checkMerge(bucket, [...destination, nameOf(path)], clash, node);
    }

    const now = moment.now();
    const blobCopies: [string, string][] = [];
    const incoming = items.map(({ node }) => (mode === 'copy' ? cloneNode(node, now, moment, blobCopies) : node));
    const copies = await Promise.allSettled(blobCopies.map(([from, to]) => state.blobs.copy(from, to)));
    const failed = copies.find((copy) => copy.status === 'rejected');
    if (failed) {
      // A copy that cannot be made in full (a full disk) leaves none of its bytes behind.
      await Promise.all(blobCopies.map(([, to]) => state.blobs.delete(to).catch(() => undefined)));
      throw failed.reason;
    }
    const { folder } = ensureFolder(state.root, destination, { ownerId: null, now, random: moment });
    const replaced: string[] = [];
    for (const [i, { path }] of items.entries()) graft(folder, nameOf(path), incoming[i]!, now, replaced);
    if (mode === 'move') {
      const source = find(state.root, parent) as FolderNode;
      for (const { path } of items) removeChild(source, nameOf(path), now);
    }
    release(replaced);
    return items.map(({ path }) => savedPath([...destination, nameOf(path)]));
  });
}
