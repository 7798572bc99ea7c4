import type { BlobStore } from '../../shared/capabilities.js';
import { isPlainObject } from '../../shared/http/body.js';
import { type EntryJson, fromEntries, subtreeEntries } from './entries.js';
import { checkName } from './paths.js';
import {
  type FolderNode,
  type TreeNode,
  type TreeWatcher,
  filesIn,
  find,
  pathOf,
  removeChild,
  setChild,
} from './tree.js';

/** The format of a change record in the tree's log (`v`); a later one stops the start-up, naming it. */
const FORMAT = 1;

/**
 * One step of a change as the log keeps it: in the folder at `in` (its names joined with `/`, empty for the root), at
 * the server time `t`, `set` puts a node under a name (the node and what is below it, as entries whose paths start
 * with that name) and `remove` takes the node of that name away.
 */
type Step = { in: string; t: number; set: EntryJson[] } | { in: string; t: number; remove: string };

/** One change of the files tree (an upload, a new folder, a delete, a copy, a move, a rename): one line of the log. */
export interface ChangeRecord {
  v: typeof FORMAT;
  steps: Step[];
}

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
  readonly #steps: Step[] = [];
  readonly #replaced: Replaced[] = [];
  /** The entries and removals the record holds: how much it adds to the log. */
  size = 0;

  setting(folder: FolderNode, name: string, node: TreeNode, now: number): void {
    const set = subtreeEntries(name, node);
    this.#steps.push({ in: pathOf(folder).join('/'), t: now, set });
    this.size += set.length;
    const put =
      node.kind === 'folder' ? { node, parent: node.parent, name: node.name } : { node, parent: undefined, name };
    this.#replaced.push({ folder, name, previous: folder.children.get(name), modified: folder.modified, put });
  }

  removing(folder: FolderNode, name: string, now: number): void {
    this.#steps.push({ in: pathOf(folder).join('/'), t: now, remove: name });
    this.size += 1;
    this.#replaced.push({ folder, name, previous: folder.children.get(name), modified: folder.modified });
  }

  get made(): boolean {
    return this.#steps.length > 0;
  }

  get record(): ChangeRecord {
    return { v: FORMAT, steps: this.#steps };
  }

  /**
   * Takes the change back, its last step first (call it with the watcher gone), and deletes the bytes it stored that
   * no file refers to any more. A name it removed comes back at the end of its folder's order (the listings sort).
   */
  async undo(blobs: BlobStore): Promise<void> {
    const before = new Set<string>();
    const after = new Set<string>();
    for (const { folder, name, previous, modified, put } of this.#replaced.reverse()) {
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

const isTime = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/** The node a `set` step puts, built from its entries (the first is the node, named by its path). */
function nodeOf(entries: EntryJson[]): { name: string; node: TreeNode } {
  const holder = fromEntries(entries);
  const [only, ...more] = holder.children;
  if (!only || more.length > 0) throw new Error('a set step must hold one node and what is below it');
  return { name: only[0], node: only[1] };
}

/** Makes the change `record` (read from the log) in `root`; returns its size (see `TreeChanges.size`). */
export function applyChange(root: FolderNode, record: unknown): number {
  if (!isPlainObject(record) || record['v'] !== FORMAT) {
    const format = isPlainObject(record) ? JSON.stringify(record['v']) : 'unknown';
    throw new Error(`a change is of format ${format}; this server reads format ${FORMAT}`);
  }
  const steps = record['steps'];
  if (!Array.isArray(steps)) throw new Error('a change needs its "steps"');
  let size = 0;
  for (const step of steps as Step[]) {
    if (!isPlainObject(step) || typeof step.in !== 'string' || !isTime(step.t))
      throw new Error('each step needs "in" and "t"');
    const path = step.in === '' ? [] : step.in.split('/').map((name) => checkName(name, `step in ${step.in}`));
    const folder = find(root, path);
    if (folder?.kind !== 'folder') throw new Error(`a step is in "${step.in}", which is not a folder`);
    if ('set' in step) {
      const { name, node } = nodeOf(step.set);
      setChild(folder, name, node, step.t);
      size += step.set.length;
    } else {
      removeChild(folder, checkName(String(step.remove), `step in ${step.in}`), step.t);
      size += 1;
    }
  }
  return size;
}
