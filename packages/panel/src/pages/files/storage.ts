// The file storage calls of the Files page (openapi/areas/files.yaml), with the master token, and the paths they take. A location
// is a list of decoded names, root first; the service takes it percent-encoded and relative to the bucket.
import type { components } from '@basekit/sdk';
import type { FileEntry, FileListing } from '@basekit/sdk/admin';
import { admin, dataOf, project, service } from '../../api.js';

export type { FileEntry, FileListing };

/** A record of a folder listing (the contract's `FileRecord`). */
export type FileRecord = components['schemas']['FileRecord'];
/** A file's info (the contract's `FileInfo`). */
export type FileInfo = components['schemas']['FileInfo'];

/** Records per listing request: the service's maximum. */
export const PAGE_SIZE = 50;

/** A location as the service takes it: names percent-encoded, joined, relative to the bucket (`""` is the root). */
export const savedPath = (names: readonly string[]): string => names.map(encodeURIComponent).join('/');

/** The names of a listing `url` or of a saved path (as upload, copy, move and rename answer them). */
export function namesOf(url: string): string[] {
  const names = url.split('/').filter(Boolean).map(decodeURIComponent);
  return url.startsWith('/') ? names.slice(1) : names; // a listing url starts with /<bucket>
}

/** The download address of a file on this server (the contract's `downloadFile`): resized with `r/<w>x<h>`, saved under `name`. */
export function downloadUrl(
  names: readonly string[],
  { resize, name }: { resize?: [number, number]; name?: string } = {},
): string {
  let url = `/${encodeURIComponent(project().bucket)}/${savedPath(names)}`;
  if (resize) url += `/r/${resize[0]}x${resize[1]}`;
  return name ? `${url}?name=${encodeURIComponent(name)}` : url;
}

/** Whether the server resizes images of this Content-Type (`r/<w>x<h>`); others are shown as they are. */
export const resizable = (type: string): boolean => /^image\/(jpeg|png|webp|gif|avif|tiff)\b/.test(type);

/**
 * What is at a location (`GET /__admin/files`): the file or folder, and one page of a folder's entries, or with
 * `name` of every entry below it whose name holds it. One call whatever the location holds.
 */
export const locate = (names: readonly string[], page: number, name?: string): Promise<FileListing> =>
  admin().files.list({ path: savedPath(names), page, pageSize: PAGE_SIZE, ...(name && { name }) });

/** One page of a folder, sorted by name. */
export async function listFolder(names: readonly string[], page: number): Promise<FileRecord[]> {
  const body = { url: savedPath(names), pageNumber: page, pageSize: PAGE_SIZE, sortingType: 'ASC' as const };
  return (await dataOf(service().POST('/files/directoryInfo', { body }))).files;
}

export function fileInfo(names: readonly string[]): Promise<FileInfo> {
  return dataOf(service().POST('/files/fileInfo', { body: { url: savedPath(names) } }));
}

export function createFolder(names: readonly string[]): Promise<unknown> {
  return dataOf(service().POST('/directories', { body: { path: savedPath(names) } }));
}

/** Deletes entries of one folder; `forced` lets a non-empty folder go with everything in it. */
export function deleteEntries(paths: (readonly string[])[], forced: boolean): Promise<unknown> {
  const body = { urls: paths.map(savedPath), forced: paths.map(() => forced) };
  return dataOf(service().POST('/files/delete', { body }));
}

/** Copies or moves entries of one folder into `destination`; `replace` overwrites (and merges folders) of the same name. */
export async function transfer(
  mode: 'copy' | 'move',
  paths: (readonly string[])[],
  destination: readonly string[],
  replace: boolean,
): Promise<string[]> {
  const body = {
    sourceUrls: paths.map(savedPath),
    forces: paths.map(() => replace),
    destinationUrl: savedPath(destination),
  };
  const operation = mode === 'copy' ? '/files/copy' : '/files/move';
  return (await dataOf(service().POST(operation, { body }))).newPaths;
}

export async function rename(path: readonly string[], newName: string): Promise<string> {
  const body = { items: [{ pathToRename: savedPath(path), newFileName: newName }] };
  const { newPaths } = await dataOf(service().POST('/files/rename', { body }));
  return newPaths[0]!;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `1536` -> `"1.5 KB"` (powers of 1024, as file managers show sizes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
