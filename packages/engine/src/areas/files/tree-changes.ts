import type { BlobStore } from '../../shared/capabilities.js';
import type { Step } from './change-record.js';
import type { EntryJson } from './entries.js';
import type { FileNode, FolderNode, TreeNode, TreeWatcher } from './tree.js';

// Loaded with the first change where there is a log to keep it (browsers have none), so it imports no code: what it
// uses of the tree is handed to it (a module loaded on demand that imports the engine's own moves those into a chunk
// of their own in a browser bundle, which then costs more than this module).

/** The names from the root down to `folder` (none for the root): O(depth). */
function pathOf(folder: FolderNode): string[] {
  const names: string[] = [];
  for (let at = folder; at.parent; at = at.parent) names.push(at.name);
  return names.reverse();
}

/** Every file at or below `node`. */
function* filesIn(node: TreeNode): Generator<FileNode> {
  if (node.kind === 'file') yield node;
  else for (const child of node.children.values()) yield* filesIn(child);
}

/** What `TreeChanges` uses of the tree (`tree.ts`, `entries.ts`), in this order: a list ships no names to a page. */
export type TreeTools = [
  setChild: (folder: FolderNode, name: string, node: TreeNode, now: number) => unknown,
  removeChild: (folder: FolderNode, name: string, now: number) => void,
  entryOf: (path: string, node: TreeNode) => EntryJson,
  toEntries: (folder: FolderNode, prefix: string, out: EntryJson[]) => EntryJson[],
];

/** What a step replaced, to put it back. */
interface Replaced {
  folder: FolderNode;
  name: string;
  previous: TreeNode | undefined;
  modified: number;
  /** The node a `set` put, and where it was before (a folder moved from elsewhere). */
  put?: { node: TreeNode; parent: FolderNode | undefined; name: string };
}

/**
 * The steps of one change, noted as the tree makes them (the root's `watcher`): the record the log keeps, and what
 * `undo` needs to take the change back when that record cannot be kept. O(what changed): a new file or folder, a
 * removed name, a copied or moved subtree (at most 100 entries).
 */
export class TreeChanges implements TreeWatcher {
  /** The steps, in the order they were made: the record's `steps`. */
  readonly steps: Step[] = [];
  private readonly replaced: Replaced[] = [];
  /** The entries and removals the record holds: how much it adds to the log. */
  size = 0;

  setting(folder: FolderNode, name: string, node: TreeNode, now: number): void {
    const set = this.subtree(name, node);
    this.steps.push({ in: pathOf(folder).join('/'), t: now, set });
    this.size += set.length;
    const put =
      node.kind === 'folder' ? { node, parent: node.parent, name: node.name } : { node, parent: undefined, name };
    this.replaced.push({ folder, name, previous: folder.children.get(name), modified: folder.modified, put });
  }

  /** `node` under `name` and everything below it, as entries whose paths start with `name`. */
  private subtree(name: string, node: TreeNode): EntryJson[] {
    const [, , entryOf, toEntries] = this.tree;
    const out = [entryOf(name, node)];
    return node.kind === 'folder' ? toEntries(node, `${name}/`, out) : out;
  }

  removing(folder: FolderNode, name: string, now: number): void {
    this.steps.push({ in: pathOf(folder).join('/'), t: now, remove: name });
    this.size += 1;
    this.replaced.push({ folder, name, previous: folder.children.get(name), modified: folder.modified });
  }

  constructor(private readonly tree: TreeTools) {}

  /**
   * Takes the change back, its last step first (call it with the watcher gone), and deletes the bytes it stored that
   * no file refers to any more. A name it removed comes back at the end of its folder's order (the listings sort).
   */
  async undo(blobs: BlobStore): Promise<void> {
    const [setChild, removeChild] = this.tree;
    const before = new Set<string>();
    const after = new Set<string>();
    for (const { folder, name, previous, modified, put } of this.replaced.reverse()) {
      if (put) for (const file of filesIn(put.node)) after.add(file.blobKey);
      if (previous) {
        for (const file of filesIn(previous)) before.add(file.blobKey);
        setChild(folder, name, previous, modified);
      } else removeChild(folder, name, modified);
      if (put?.node.kind === 'folder') {
        put.node.parent = put.parent;
        put.node.name = put.name;
      }
    }
    const added = [...after].filter((key) => !before.has(key));
    await Promise.all(added.map((key) => blobs.delete(key).catch(() => undefined)));
  }
}
