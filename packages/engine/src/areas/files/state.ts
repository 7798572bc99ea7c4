import type { BlobStore, Persistence } from '../../shared/capabilities.js';
import { isPlainObject } from '../../shared/http/body.js';
import type { Project, StateSlice } from '../../shared/project.js';
import { hasSnapshots } from '../../shared/durability/snapshots.js';
import { OneAtATime } from '../../shared/util/one-at-a-time.js';
import { loadOnce } from '../../shared/util/load-once.js';
import { type EntryJson, entryOf, fromEntries, newRoot, toEntries } from './entries.js';
import { MemoryBlobStore } from './memory-blobs.js';
import { ResizeCache } from './resize-cache.js';
import { FORMAT, applyChange } from './change-record.js';
import type { TreeChanges, TreeTools } from './tree-changes.js';
import { type FolderNode, type TreeNode, folderOf, removeChild, setChild } from './tree.js';

export interface FilesState {
  root: FolderNode;
  blobs: BlobStore;
  /** Set when the bytes live in memory (no `blobs` capability): they are then part of the state export. */
  memory?: MemoryBlobStore;
  resized: ResizeCache;
  /** Mutations run one after another, so each validates and applies against a tree nobody else is changing. */
  queue: OneAtATime;
  /** With a durable store: the tree as saved whole and the changes logged after it. */
  saved?: SavedTree;
}

/** The tree as a durable store keeps it: saved whole, then each change appended to a log after it. */
interface SavedTree {
  /** Entries and removals logged since the tree was saved whole; past the tree's size, it is saved whole again. */
  logged: number;
  /** Whether the last whole save of the tree succeeded: the log follows only that tree. */
  whole: Promise<boolean>;
}

interface FilesJson {
  entries: EntryJson[];
  /** Base64 bytes by blob key, when the bytes live in memory. */
  blobs?: Record<string, string>;
}

/** The log is folded into the saved tree once it holds more entries than the tree, and at least this many. */
const LOG_AT_LEAST = 1024;

function newState(project: Project, root: FolderNode, memory?: MemoryBlobStore): FilesState {
  const base = { root, resized: new ResizeCache(), queue: new OneAtATime() };
  const durable = project.capabilities.blobs;
  if (durable) return { ...base, blobs: durable };
  const inMemory = memory ?? new MemoryBlobStore();
  return { ...base, blobs: inMemory, memory: inMemory };
}

function parseState(json: unknown, project: Project): FilesState {
  if (!isPlainObject(json)) throw new Error('the files state must be an object');
  const blobs = json['blobs'];
  const memory = isPlainObject(blobs) ? MemoryBlobStore.fromJSON(blobs as Record<string, string>) : undefined;
  return newState(project, fromEntries(json['entries']), memory);
}

function toJSON(state: FilesState): FilesJson {
  const entries = toEntries(state.root, '', []);
  return state.memory ? { entries, blobs: state.memory.toJSON() } : { entries };
}

/**
 * Saves the tree whole, which the log then starts after. Its failure leaves the tree saved before and its log, which
 * no longer lead to this one: the next change saves the tree whole again.
 */
function saveWhole(state: FilesState, persistence: Persistence): Promise<void> {
  const saving = persistence.save('files', toJSON(state));
  state.saved = {
    logged: 0,
    whole: saving.then(
      () => true,
      () => false,
    ),
  };
  return saving;
}

/**
 * Keeps one change: appended to the log (O(change)), or the tree saved whole when the log does not follow the saved
 * tree. A log that has outgrown the tree is then folded into it (O(files), once per as many logged entries, so O(1)
 * per change on average); should that fail, the change is kept all the same (in the log, which still follows the
 * tree saved before) and the fold is tried again after as many changes.
 */
async function keep(state: FilesState, persistence: Persistence, change: TreeChanges): Promise<void> {
  const saved = state.saved;
  if (!saved || !(await saved.whole)) return saveWhole(state, persistence);
  await persistence.append('files', { v: FORMAT, steps: change.steps });
  saved.logged += change.size;
  if (saved.logged <= Math.max(state.root.descendants, LOG_AT_LEAST)) return;
  saved.logged = 0;
  await persistence.save('files', toJSON(state)).catch(() => undefined);
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
    const restored = persistence?.restore('files', (json, changes) => {
      const state = parseState(json, project);
      let logged = 0;
      for (const change of changes) logged += applyChange(state.root, change);
      return { ...state, saved: { logged, whole: Promise.resolve(true) } };
    });
    if (restored) return restored;
    const state = newState(project, newRoot(project.clock.now()));
    // After an admin reset, a restart must find the empty tree too; a failing disk shows on the next change's save.
    if (persistence) void saveWhole(state, persistence).catch(() => undefined);
    return state;
  },
  toJSON,
  fromJSON(json, project) {
    const state = parseState(json, project);
    // An imported tree (`PUT /__admin/state`, `--import`) is kept at once, as every change of the tree is.
    const { persistence } = project.capabilities;
    if (persistence) void saveWhole(state, persistence).catch(() => undefined);
    return state;
  },
  count: ({ root }) => ({ files: root.fileCount, folders: root.descendants - root.fileCount }),
  copy: (state, project) => newState(project, copyTree(state.root), state.memory?.clone()),
  async replaced(state, project) {
    const { persistence } = project.capabilities;
    if (persistence) await saveWhole(state, persistence);
  },
};

const TREE_TOOLS: TreeTools = [setChild, removeChild, entryOf, toEntries];
/** `tree-changes.ts`, loaded with the first change of a durable project. */
const treeChanges = loadOnce(() => import('./tree-changes.js'));

/** Hands blob keys that a change no longer refers to back to `mutate`, which deletes them once that is safe. */
type Release = (keys: Iterable<string>) => void;

/**
 * Runs a change of the files state after the changes before it, then keeps it when there is a durable store (its
 * steps appended to the tree's log; when that fails, the steps are taken back and the bytes it stored deleted).
 * Validate inside `work` and only mutate once nothing can fail: a request changes all or nothing. Bytes the change
 * no longer refers to are given to `release`, never deleted inside `work`: they are deleted after the change is kept,
 * so a crash in between leaves unreferenced bytes at worst, never a listed file without bytes.
 */
export function mutate<T>(project: Project, work: (state: FilesState, release: Release) => Promise<T>): Promise<T> {
  const state = project.state(filesState);
  return state.queue.run(async () => {
    const released: string[] = [];
    const { persistence } = project.capabilities;
    const { root } = state;
    const changes = persistence && new (await treeChanges()).TreeChanges(TREE_TOOLS);
    root.watcher = changes;
    let result: T;
    try {
      result = await work(state, (keys) => released.push(...keys));
    } finally {
      root.watcher = undefined;
    }
    if (persistence && changes && changes.steps.length > 0) {
      await keep(state, persistence, changes).catch(async (error: unknown) => {
        await changes.undo(state.blobs);
        throw error;
      });
    }
    // Bytes in a store of the whole server (a data folder) stay while a named snapshot may still list their file.
    if (state.memory || !hasSnapshots(project)) await Promise.all(released.map((key) => state.blobs.delete(key)));
    return result;
  });
}
