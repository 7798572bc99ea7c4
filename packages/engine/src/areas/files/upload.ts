import type { BlobStore } from '../../shared/capabilities.js';
import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { contentTypes } from './content-type.js';
import type { FormPart } from '../../shared/http/multipart.js';
import { type Caller, checkOwnership } from './ownership.js';
import { type FilePath, checkName, checkPathLength, firstRepeated, parsePath, publicUrl, savedPath } from './paths.js';
import { mutate } from './state.js';
import { type FileNode, checkFolderPath, ensureFolder, find, setChild } from './tree.js';

/** A file of an upload, written but not yet committed to the blob store it arrived in, with its size and digests. */
export interface ReceivedFile {
  blobKey: string;
  size: number;
  md5: string;
  crc: string;
  /** Makes the content visible in `blobs`, the store of the files state the upload is applied to. */
  commit(blobs: BlobStore): Promise<void>;
}

/** One file of an upload request: `fileItems[i].fileToUpload`, `.path` and `.replacing`. */
export interface UploadItem {
  folder: FilePath;
  name: string;
  file: ReceivedFile;
  declaredType?: string;
  replacing: boolean;
}

const FIELD = /^fileItems\[(\d{1,4})\]\.(fileToUpload|path|replacing)$/;

/** Turns the parts of an upload body into items, in index order (400 for unknown, repeated or missing fields). */
export function uploadItems(bucket: string, parts: readonly FormPart<ReceivedFile>[]): UploadItem[] {
  const byIndex = new Map<number, Map<string, FormPart<ReceivedFile>>>();
  for (const part of parts) {
    const match = FIELD.exec(part.name);
    if (!match)
      throw badRequest(
        ErrorCode.VALIDATION_FAILED,
        `unknown field "${part.name}"; expected fileItems[i].fileToUpload, .path or .replacing`,
      );
    const fields = byIndex.get(Number(match[1])) ?? new Map<string, FormPart<ReceivedFile>>();
    if (fields.has(match[2]!)) throw badRequest(ErrorCode.VALIDATION_FAILED, `field "${part.name}" is repeated`);
    byIndex.set(Number(match[1]), fields.set(match[2]!, part));
  }
  if (byIndex.size === 0) throw badRequest(ErrorCode.VALIDATION_FAILED, 'the upload has no fileItems[i].fileToUpload');
  return [...byIndex].sort(([a], [b]) => a - b).map(([index, fields]) => item(bucket, index, fields));
}

function item(bucket: string, index: number, fields: Map<string, FormPart<ReceivedFile>>): UploadItem {
  const field = (name: string) => `fileItems[${index}].${name}`;
  const file = fields.get('fileToUpload');
  if (file?.file === undefined || file.filename === undefined)
    throw badRequest(
      ErrorCode.VALIDATION_FAILED,
      `${field('fileToUpload')} is required and must be a file with a file name`,
    );
  const text = (name: string) => {
    const part = fields.get(name);
    return part?.data && new TextDecoder().decode(part.data);
  };
  const replacing = text('replacing')?.trim().toLowerCase() ?? 'false';
  if (replacing !== 'true' && replacing !== 'false')
    throw badRequest(ErrorCode.VALIDATION_FAILED, `${field('replacing')} must be true or false`);
  const upload: UploadItem = {
    folder: parsePath(bucket, text('path') ?? '', field('path')),
    name: checkName(file.filename, `${field('fileToUpload')} file name`),
    file: file.file,
    replacing: replacing === 'true',
  };
  checkPathLength([...upload.folder, upload.name], `${field('path')} with the file name`);
  if (file.contentType) upload.declaredType = file.contentType;
  return upload;
}

/**
 * Stores every file of an upload, creating missing folders, or nothing when one of them cannot be stored
 * (417 when a file exists and `replacing` is false, or a file stands where a folder is needed; 403 when a user
 * replaces another user's file): the received contents are committed only once every check has passed. A replaced
 * file keeps its owner. Returns the saved path of each stored file, in item order.
 *
 * @param caller the owner of new files and folders: the user, or null for the master token
 */
export function upload(
  project: Project,
  moment: Moment,
  items: readonly UploadItem[],
  caller: Caller,
): Promise<string[]> {
  const { bucket } = project.config;
  const targets = items.map((i) => [...i.folder, i.name]);
  const repeated = firstRepeated(targets);
  if (repeated) throw badRequest(ErrorCode.VALIDATION_FAILED, `two items upload to ${publicUrl(bucket, repeated)}`);
  return mutate(project, async (state, release) => {
    for (const [i, target] of targets.entries()) {
      checkFolderPath(state.root, items[i]!.folder, bucket);
      const existing = find(state.root, target);
      if (existing?.kind === 'folder')
        throw new ApiError(417, ErrorCode.FILE_EXISTS, `${publicUrl(bucket, target)} is a folder`);
      if (existing && !items[i]!.replacing)
        throw new ApiError(
          417,
          ErrorCode.FILE_EXISTS,
          `${publicUrl(bucket, target)} already exists and replacing is false`,
        );
      if (existing) checkOwnership(bucket, caller, target, existing);
    }
    const typeFor = await contentTypes();
    try {
      await Promise.all(items.map((i) => i.file.commit(state.blobs)));
    } catch (error) {
      // Nothing refers to the new keys yet: whatever of them got committed goes, so the upload stores nothing.
      await Promise.all(items.map((i) => state.blobs.delete(i.file.blobKey).catch(() => undefined)));
      throw error;
    }
    const now = moment.now();
    const replaced: string[] = [];
    for (const i of items) {
      const { folder } = ensureFolder(state.root, i.folder, { ownerId: caller, now, random: moment });
      const old = folder.children.get(i.name) as FileNode | undefined;
      if (old) replaced.push(old.blobKey);
      setChild(
        folder,
        i.name,
        {
          kind: 'file',
          guid: old?.guid ?? newId(moment, 24),
          // The owner stays: nobody takes over a shared (ownerless) file by replacing it.
          ownerId: old ? old.ownerId : caller,
          created: old?.created ?? now,
          modified: now,
          size: i.file.size,
          md5: i.file.md5,
          crc: i.file.crc,
          contentType: typeFor(i.name, i.declaredType),
          blobKey: i.file.blobKey,
        },
        now,
      );
    }
    release(replaced);
    return targets.map(savedPath);
  });
}

/** Creates a folder and its missing parents; `created` is false when it already existed (417 when a file is in the way). */
export function createDirectory(
  project: Project,
  moment: Moment,
  path: FilePath,
  ownerId: string | null,
): Promise<{ path: string; created: boolean }> {
  return mutate(project, async (state) => {
    checkFolderPath(state.root, path, project.config.bucket);
    const { created } = ensureFolder(state.root, path, { ownerId, now: moment.now(), random: moment });
    return { path: savedPath(path), created };
  });
}
