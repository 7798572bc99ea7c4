import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { contentTypes } from './content-type.js';
import { type Caller, checkOwnership } from './ownership.js';
import { type FilePath, checkPathLength, firstRepeated, nameOf, parentOf, publicUrl, savedPath } from './paths.js';
import { mutate } from './state.js';
import { type FileNode, type FolderNode, existing, find, removeChild, setChild } from './tree.js';

/** At most as many files as one delete takes (the service's interface gives rename no limit of its own). */
export const MAX_RENAME_FILES = 1000;

interface RenameItem {
  path: FilePath;
  /** A checked name (see `checkName`). */
  newName: string;
}

/**
 * Renames files in place, or nothing: folders cannot be renamed (400), a user may rename only files that are
 * theirs (403), the new name must be free (417). Returns the new saved path of each file, in item order.
 */
export function renameFiles(
  project: Project,
  moment: Moment,
  caller: Caller,
  items: readonly RenameItem[],
): Promise<string[]> {
  const { bucket } = project.config;
  const targets = items.map(({ path, newName }) =>
    checkPathLength([...parentOf(path), newName], 'pathToRename with newFileName'),
  );
  const repeated = firstRepeated(items.map((i) => i.path)) ?? firstRepeated(targets);
  if (repeated)
    throw badRequest(ErrorCode.VALIDATION_FAILED, `${publicUrl(bucket, repeated)} appears twice in the request`);
  return mutate(project, async (state) => {
    const files = items.map(({ path, newName }, i) => {
      const node = existing(state.root, path, bucket);
      if (node.kind !== 'file')
        throw badRequest(ErrorCode.NOT_A_FILE, `${publicUrl(bucket, path)} is a folder; only files can be renamed`);
      checkOwnership(bucket, caller, path, node);
      if (newName !== nameOf(path) && find(state.root, targets[i]!)) {
        throw new ApiError(417, ErrorCode.FILE_EXISTS, `${publicUrl(bucket, targets[i]!)} already exists`);
      }
      return node;
    });
    const typeFor = await contentTypes();
    const now = moment.now();
    items.forEach(({ path, newName }, i) => {
      const folder = find(state.root, parentOf(path)) as FolderNode;
      const file: FileNode = files[i]!;
      removeChild(folder, nameOf(path), now);
      setChild(folder, newName, { ...file, contentType: typeFor(newName, file.contentType) }, now);
    });
    return targets.map(savedPath);
  });
}
