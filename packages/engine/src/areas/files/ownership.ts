import { forbidden } from '../../shared/errors.js';
import { type FilePath, publicUrl } from './paths.js';
import { type TreeNode, nodesIn } from './tree.js';

/** Who asks for a change: a user's id, or null for the master token, which may change everything. */
export type Caller = string | null;

/**
 * Refuses (403, code 119) a user's replace, rename, move or delete of `node` unless it is theirs: a file needs the
 * caller's or no owner; a folder needs the same of itself and of everything inside it, so nobody deletes another
 * user's files by deleting the folder around them.
 */
export function checkOwnership(bucket: string, caller: Caller, path: FilePath, node: TreeNode): void {
  if (caller === null) return;
  for (const inner of nodesIn(node)) {
    if (inner.ownerId !== null && inner.ownerId !== caller) {
      const what =
        inner === node
          ? `${publicUrl(bucket, path)} belongs`
          : `${publicUrl(bucket, path)} holds a file or folder that belongs`;
      throw forbidden(`${what} to another user`);
    }
  }
}
