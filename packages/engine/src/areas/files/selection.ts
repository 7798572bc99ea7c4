import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import { type FilePath, firstRepeated, parentOf, publicUrl, samePath } from './paths.js';
import { type FolderNode, type TreeNode, existing } from './tree.js';

/** The entries a delete, copy or move names: all in one folder, each with its `forced`/`forces` flag. */
interface Selection {
  parent: FilePath;
  items: { path: FilePath; node: TreeNode; forced: boolean }[];
}

/**
 * Resolves the paths of a delete, copy or move: 400 for the root or a path named twice, 404 for a missing one,
 * 417 when they do not share one parent folder.
 */
export function select(
  root: FolderNode,
  bucket: string,
  paths: readonly FilePath[],
  flags: readonly boolean[],
): Selection {
  if (paths.some((path) => path.length === 0))
    throw badRequest(ErrorCode.INVALID_PATH, 'the root folder cannot be deleted, copied or moved');
  const repeated = firstRepeated(paths);
  if (repeated) throw badRequest(ErrorCode.VALIDATION_FAILED, `${publicUrl(bucket, repeated)} is named twice`);
  const items = paths.map((path, i) => ({ path, node: existing(root, path, bucket), forced: flags[i]! }));
  const parent = parentOf(paths[0]!);
  const stray = paths.find((path) => !samePath(parentOf(path), parent));
  if (stray) {
    throw new ApiError(
      417,
      ErrorCode.NOT_SAME_PARENT,
      `${publicUrl(bucket, stray)} is not in the same folder as ${publicUrl(bucket, paths[0]!)}`,
    );
  }
  return { parent, items };
}

export function tooMany(limit: number, what: string): ApiError {
  return new ApiError(417, ErrorCode.TOO_MANY_FILES, `the operation involves more than ${limit} ${what}`);
}
