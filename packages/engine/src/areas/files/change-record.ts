import { isPlainObject } from '../../shared/http/body.js';
import { type EntryJson, fromEntries } from './entries.js';
import { type FolderNode, find, removeChild, setChild } from './tree.js';

// A change of the files tree as its log keeps it, and how a start makes it again.

/** The format of a change record in the tree's log (`v`); a later one stops the start-up, naming it. */
export const FORMAT = 1;

/**
 * One step of a change as the log keeps it: in the folder at `in` (its names joined with `/`, empty for the root), at
 * the server time `t`, `set` puts a node under a name (the node and what is below it, as entries whose paths start
 * with that name) and `remove` takes the node of that name away.
 */
export type Step = { in: string; t: number; set: EntryJson[] } | { in: string; t: number; remove: string };

/**
 * Makes one change read from the log (`{v, steps}`, one line) in `root`, through `setChild` and `removeChild` as it
 * was made; returns its size (entries put and names removed). A step names only folders and names of the tree (what
 * it puts is checked as an import's entries are), so a line edited by hand cannot put anything elsewhere.
 */
export function applyChange(root: FolderNode, record: unknown): number {
  const { v, steps } = (isPlainObject(record) ? record : {}) as { v?: unknown; steps?: Step[] };
  if (v !== FORMAT || !Array.isArray(steps)) throw new Error(`a change of format ${JSON.stringify(v)}, not ${FORMAT}`);
  let size = 0;
  for (const step of steps) {
    const folder = find(root, step.in ? step.in.split('/') : []);
    const set = 'set' in step ? [...fromEntries(step.set).children] : undefined;
    if (folder?.kind !== 'folder' || typeof step.t !== 'number' || (set && set.length !== 1))
      throw new Error('a step off the tree');
    if (set) setChild(folder, set[0]![0], set[0]![1], step.t);
    else removeChild(folder, String((step as { remove: unknown }).remove), step.t);
    size += set ? (step as { set: EntryJson[] }).set.length : 1;
  }
  return size;
}
