import type { BlobStore } from '../../shared/capabilities.js';
import { isPlainObject } from '../../shared/http/body.js';
import { unrecorded } from '../../shared/ids.js';
import type { Project, StateSlice } from '../../shared/project.js';
import { hasSnapshots } from '../../shared/durability/snapshots.js';
import { MemoryBlobStore } from './memory-blobs.js';
import { checkName } from './paths.js';
import { ResizeCache } from './resize-cache.js';
import { type FileNode, type FolderNode, type TreeNode, emptyFolder, folderOf, newFolder } from './tree.js';
import { OneAtATime } from '../../shared/util/one-at-a-time.js';

export interface FilesState {
  root: FolderNode;
  blobs: BlobStore;
  /** Set when the bytes live in memory (no `blobs` capability): they are then part of the state export. */
  memory?: MemoryBlobStore;
  resized: ResizeCache;
  /** Mutations run one after another, so each validates and applies against a tree nobody else is changing. */
  queue: OneAtATime;
  /** The tree as last saved (with a durable store), which a change that cannot be saved returns to. */
  saved?: EntryJson[];
}

/** One folder or file in the JSON form: `path` is its names joined with `/` (names never contain `/`). */
interface EntryJson {
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

interface FilesJson {
  entries: EntryJson[];
  /** Base64 bytes by blob key, when the bytes live in memory. */
  blobs?: Record<string, string>;
}

function toEntries(folder: FolderNode, prefix: string, out: EntryJson[]): EntryJson[] {
  for (const [name, node] of folder.children) {
    const path = prefix + name;
    const base = {
      path,
      kind: node.kind,
      guid: node.guid,
      ownerId: node.ownerId,
      creationDate: node.created,
      lastModificationDate: node.modified,
    };
    if (node.kind === 'file') {
      out.push({
        ...base,
        size: node.size,
        md5Hash: node.md5,
        crcHash: node.crc,
        contentType: node.contentType,
        blobKey: node.blobKey,
      });
    } else {
      out.push(base);
      toEntries(node, `${path}/`, out);
    }
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

function fromEntries(entries: unknown): FolderNode {
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

/** The bucket's root folder, which no state export holds (its entries are what is under it). */
const newRoot = (now: number) => newFolder({ ownerId: null, now, random: unrecorded });

function newState(project: Project, root: FolderNode, memory?: MemoryBlobStore): FilesState {
  const base = { root, resized: new ResizeCache(), queue: new OneAtATime() };
  const durable = project.capabilities.blobs;
  if (durable) return { ...base, blobs: durable };
  const inMemory = memory ?? new MemoryBlobStore();
  return { ...base, blobs: inMemory, memory: inMemory };
}

function fromJSON(json: unknown, project: Project): FilesState {
  if (!isPlainObject(json)) throw new Error('the files state must be an object');
  const blobs = json['blobs'];
  const memory = isPlainObject(blobs) ? MemoryBlobStore.fromJSON(blobs as Record<string, string>) : undefined;
  return newState(project, fromEntries(json['entries']), memory);
}

function toJSON(state: FilesState): FilesJson {
  const entries = toEntries(state.root, '', []);
  return state.memory ? { entries, blobs: state.memory.toJSON() } : { entries };
}

/** A tree no later change of the original touches (file nodes are copied too; bytes are never changed in place). */
function copyTree(folder: FolderNode): FolderNode {
  const children = new Map<string, TreeNode>();
  for (const [name, node] of folder.children) children.set(name, node.kind === 'folder' ? copyTree(node) : { ...node });
  return folderOf(folder, children);
}

/**
 * The folder tree of the bucket (metadata) and where the bytes are. With a durable store (`--data-dir`), the tree
 * saved by the previous run is restored at start-up.
 */
export const filesState: StateSlice<FilesState> = {
  key: 'files',
  persistsItself: true,
  init(project) {
    const { persistence } = project.capabilities;
    const restored = persistence?.restore('files', (json) => fromJSON(json, project));
    if (restored) return { ...restored, saved: toEntries(restored.root, '', []) };
    const state = newState(project, newRoot(project.clock.now()));
    if (!persistence) return state;
    // After an admin reset, a restart must find the empty tree too; a failing disk shows on the next change's save.
    const json = toJSON(state);
    void persistence.save('files', json).then(
      () => (state.saved = json.entries),
      () => undefined,
    );
    return state;
  },
  toJSON,
  fromJSON(json, project) {
    const state = fromJSON(json, project);
    // An imported tree (`PUT /__admin/state`, `--import`) is kept at once, as every change of the tree is.
    const { persistence } = project.capabilities;
    if (persistence) {
      const saved = toJSON(state);
      void persistence.save('files', saved).then(
        () => void (state.saved = saved.entries),
        () => undefined,
      );
    }
    return state;
  },
  count: ({ root }) => ({ files: root.fileCount, folders: root.descendants - root.fileCount }),
  copy: (state, project) => newState(project, copyTree(state.root), state.memory?.clone()),
  async replaced(state, project) {
    const { persistence } = project.capabilities;
    if (!persistence) return;
    const json = toJSON(state);
    await persistence.save('files', json);
    state.saved = json.entries;
  },
};

/**
 * Takes a change whose tree could not be saved (a full disk) back: the tree as last saved, without the bytes the
 * change stored (the bytes it replaced are still there: they are deleted only after a save).
 */
async function undo(state: FilesState, changed: readonly EntryJson[]): Promise<void> {
  const saved = state.saved ?? [];
  state.root = fromEntries(saved);
  const kept = new Set(saved.map((entry) => entry.blobKey));
  const added = changed.filter((entry) => entry.blobKey !== undefined && !kept.has(entry.blobKey));
  await Promise.all(added.map((entry) => state.blobs.delete(entry.blobKey!).catch(() => undefined)));
}

/** Hands blob keys that a change no longer refers to back to `mutate`, which deletes them once that is safe. */
type Release = (keys: Iterable<string>) => void;

/**
 * Runs a change of the files state after the changes before it, then saves the tree when there is a durable store.
 * Validate inside `work` and only mutate once nothing can fail: a request changes all or nothing. Bytes the change
 * no longer refers to are given to `release`, never deleted inside `work`: they are deleted after the tree without
 * them is saved, so a crash in between leaves unreferenced bytes at worst, never a listed file without bytes.
 */
export function mutate<T>(project: Project, work: (state: FilesState, release: Release) => Promise<T>): Promise<T> {
  const state = project.state(filesState);
  return state.queue.run(async () => {
    const released: string[] = [];
    const result = await work(state, (keys) => released.push(...keys));
    const { persistence } = project.capabilities;
    if (persistence) {
      const json = toJSON(state);
      await persistence.save('files', json).catch(async (error: unknown) => {
        await undo(state, json.entries);
        throw error;
      });
      state.saved = json.entries;
    }
    // Bytes in a store of the whole server (a data folder) stay while a named snapshot may still list their file.
    if (state.memory || !hasSnapshots(project)) await Promise.all(released.map((key) => state.blobs.delete(key)));
    return result;
  });
}
