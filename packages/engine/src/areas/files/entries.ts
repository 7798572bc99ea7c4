import { isPlainObject } from '../../shared/http/body.js';
import { unrecorded } from '../../shared/ids.js';
import { checkName } from './paths.js';
import { type FileNode, type FolderNode, type TreeNode, emptyFolder, folderOf, newFolder } from './tree.js';

// The tree in its JSON form: the state export, the saved tree and the changes of its log.

/** One folder or file in the JSON form: `path` is its names joined with `/` (names never contain `/`). */
export interface EntryJson {
  path: string;
  kind: 'folder' | 'file';
  guid: string;
  ownerId: string | null;
  creationDate: number;
  lastModificationDate: number;
  size?: number;
  md5Hash?: string;
  crcHash?: string;
  contentType?: string;
  blobKey?: string;
}

/** `node` alone (not what is below it) as an entry at `path`. */
export function entryOf(path: string, node: TreeNode): EntryJson {
  const base = {
    path,
    kind: node.kind,
    guid: node.guid,
    ownerId: node.ownerId,
    creationDate: node.created,
    lastModificationDate: node.modified,
  };
  if (node.kind === 'folder') return base;
  return {
    ...base,
    size: node.size,
    md5Hash: node.md5,
    crcHash: node.crc,
    contentType: node.contentType,
    blobKey: node.blobKey,
  };
}

/** Every entry below `folder`, each folder before what is in it, in the folders' order; paths start with `prefix`. */
export function toEntries(folder: FolderNode, prefix: string, out: EntryJson[]): EntryJson[] {
  for (const [name, node] of folder.children) {
    const path = prefix + name;
    out.push(entryOf(path, node));
    if (node.kind === 'folder') toEntries(node, `${path}/`, out);
  }
  return out;
}

const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
/** Blob keys are made by the engine (`newId`): letters and digits only, so no key can name a path. */
const BLOB_KEY = /^[A-Za-z0-9]{1,64}$/;

function toNode(entry: EntryJson): TreeNode {
  const { path, kind, guid, ownerId, creationDate, lastModificationDate } = entry;
  if (
    typeof guid !== 'string' ||
    !(ownerId === null || typeof ownerId === 'string') ||
    !isTime(creationDate) ||
    !isTime(lastModificationDate)
  ) {
    throw new Error(
      `entry "${path}" needs a guid, an ownerId (a string or null), a creationDate and a lastModificationDate`,
    );
  }
  const base = { guid, ownerId, created: creationDate, modified: lastModificationDate };
  if (kind === 'folder') return emptyFolder(guid, ownerId, creationDate, lastModificationDate);
  if (kind !== 'file')
    throw new Error(`entry "${path}" has the kind ${JSON.stringify(kind)}; "folder" or "file" expected`);
  const { size, md5Hash, crcHash, contentType, blobKey } = entry;
  if (
    !(Number.isInteger(size) && size! >= 0) ||
    typeof md5Hash !== 'string' ||
    typeof crcHash !== 'string' ||
    typeof contentType !== 'string' ||
    !(typeof blobKey === 'string' && BLOB_KEY.test(blobKey))
  ) {
    throw new Error(`file entry "${path}" lacks size, md5Hash, crcHash, contentType or blobKey (letters and digits)`);
  }
  return { kind: 'file', ...base, size: size!, md5: md5Hash, crc: crcHash, contentType, blobKey } satisfies FileNode;
}

/** The bucket's root folder, which no state export holds (its entries are what is under it). */
export const newRoot = (now: number) => newFolder({ ownerId: null, now, random: unrecorded });

/** A root folder holding `entries` (each folder listed before what is in it), with its totals counted. */
export function fromEntries(entries: unknown): FolderNode {
  if (!Array.isArray(entries)) throw new Error('"entries" must be an array');
  const root = newRoot(0);
  for (const entry of entries as EntryJson[]) {
    if (!isPlainObject(entry) || typeof entry.path !== 'string') throw new Error('each entry needs a "path"');
    const names = entry.path.split('/');
    for (const name of names) checkName(name, `entry ${entry.path}`);
    let parent: TreeNode | undefined = root;
    for (const name of names.slice(0, -1)) parent = parent?.kind === 'folder' ? parent.children.get(name) : undefined;
    if (parent?.kind !== 'folder') throw new Error(`the folder of entry "${entry.path}" is not listed before it`);
    parent.children.set(names[names.length - 1]!, toNode(entry));
  }
  return withTotals(root);
}

/** `folder` with its totals and those of every folder below counted from what is below them (a tree built whole). */
function withTotals(folder: FolderNode): FolderNode {
  const children = new Map<string, TreeNode>();
  for (const [name, node] of folder.children) children.set(name, node.kind === 'folder' ? withTotals(node) : node);
  return folderOf(folder, children);
}
