import { ApiError, ErrorCode } from '../../shared/errors.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { type Caller, checkOwnership } from './ownership.js';
import { type FilePath, nameOf, publicUrl } from './paths.js';
import { select, tooMany } from './selection.js';
import { mutate } from './state.js';
import { type FolderNode, fileCountOf, filesIn, find, removeChild } from './tree.js';

/** The delete limit of docs/files.md#limits: named files plus the files inside named folders. */
export const MAX_DELETE_FILES = 1000;

/**
 * Deletes files and folders of one parent folder, or nothing: a user may delete only what is theirs (403), a
 * non-empty folder needs its `forced` flag (417), and at most 1000 files go at once (417).
 */
export function deleteEntries(
  project: Project,
  moment: Moment,
  caller: Caller,
  paths: readonly FilePath[],
  forced: readonly boolean[],
): Promise<void> {
  const { bucket } = project.config;
  return mutate(project, async (state, release) => {
    const { parent, items } = select(state.root, bucket, paths, forced);
    let files = 0;
    for (const { path, node, forced: force } of items) {
      checkOwnership(bucket, caller, path, node);
      if (node.kind === 'folder' && node.children.size > 0 && !force) {
        throw new ApiError(
          417,
          ErrorCode.FOLDER_NOT_EMPTY,
          `${publicUrl(bucket, path)} is not empty; set its forced flag to delete it with its contents`,
        );
      }
      files += fileCountOf(node);
    }
    if (files > MAX_DELETE_FILES) throw tooMany(MAX_DELETE_FILES, 'files');
    const folder = find(state.root, parent) as FolderNode;
    const now = moment.now();
    for (const { path } of items) removeChild(folder, nameOf(path), now);
    release(items.flatMap(({ node }) => [...filesIn(node)].map((file) => file.blobKey)));
  });
}
