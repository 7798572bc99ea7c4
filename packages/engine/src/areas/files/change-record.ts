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
  if (v !== FORMAT || !Array.isArray(steps))
    throw new Error(`a change of format ${JSON.stringify(v)}; this server reads format ${FORMAT}`);
  let size = 0;
  for (const step of steps) {
    const named = isPlainObject(step) && typeof step.t === 'number';
    const folder = named ? find(root, step.in ? step.in.split('/') : []) : undefined;
    if (folder?.kind !== 'folder') throw new Error('a step names no folder');
    if ('set' in step) {
      const [put, ...more] = fromEntries(step.set).children;
      if (!put || more.length > 0) throw new Error('a step puts one node');
      setChild(folder, put[0], put[1], step.t);
      size += step.set.length;
    } else {
      removeChild(folder, String(step.remove), step.t);
      size += 1;
    }
  }
  return size;
}
