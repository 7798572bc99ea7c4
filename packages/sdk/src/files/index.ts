/**
 * `@basekit/sdk/files`: the file storage (uploads with progress, folders, downloads), for an app that imports it
 * alone.
 *
 * @example
 * import { createCore } from '@basekit/sdk/core';
 * import { createFiles } from '@basekit/sdk/files';
 * const files = createFiles(createCore({ baseUrl, authenticationId, clientKey, storageId }));
 *
 * @module @basekit/sdk/files
 */
import { areaHttp, missingOption, type FilesOf } from '../core/area-ids.js';
import type { Core } from '../core/core.js';
import type { CallOptions, ClientOptions } from '../core/options.js';
import type { components } from '../generated/schema.js';
import { downloadUrl, type DownloadOptions } from './download-url.js';
import { progressFetch, type UploadProgress } from './progress-fetch.js';
import { uploadForm, type UploadItem } from './upload.js';

export { downloadUrl, type DownloadOptions } from './download-url.js';
export type { UploadProgress } from './progress-fetch.js';
export type { UploadItem, UploadSource } from './upload.js';

/**
 * A file or folder of a listing (the contract's `FileRecord`).
 *
 * @example
 * for (const record of await admin.files.list('photos')) console.log(record.url);
 */
export type FileRecord = components['schemas']['FileRecord'];
/**
 * A file's details (the contract's `FileRecord`).
 *
 * @example
 * const info: FileInfo = await admin.files.info('photos/cat.png');
 * console.log(info.fileSizeInBytes, info.md5Hash);
 */
export type FileInfo = components['schemas']['FileInfo'];

/**
 * Paging of a folder listing: `page` counts from 0, at most 50 records a page.
 *
 * @example
 * const second = await admin.files.list('photos', { page: 1, pageSize: 20 });
 */
export interface ListOptions extends CallOptions {
  page?: number;
  pageSize?: number;
}

/**
 * `force` for delete, copy and move: one flag for every path, or one per path.
 *
 * @example
 * await admin.files.delete(['photos/a.png', 'photos/old'], { force: [false, true] });
 */
export interface ForceOptions extends CallOptions {
  force?: boolean | boolean[];
}

const flags = (count: number, force: boolean | boolean[] = false) =>
  Array.isArray(force) ? force : Array<boolean>(count).fill(force);
const list = (paths: string | string[]) => (Array.isArray(paths) ? paths : [paths]);

/**
 * The file storage (openapi/areas/files.yaml).
 *
 * @example
 * const files: Files = client.files;
 * const [saved] = await files.upload([{ file, path: 'photos' }]);
 */
export type Files = ReturnType<typeof filesOn>;

/**
 * Creates the file storage client on a core; it sends `X-Service-Storage-Id` and the session's token to
 * `storageUrl`. Listing, info, copy and move need the master token. On a core without `storageId` it does not
 * compile, but for the downloads when a `bucket` is given (`FilesOf`); its other calls reject with
 * `MissingOptionError`.
 *
 * @example
 * const files = createFiles(createCore({ baseUrl, authenticationId, clientKey, storageId }));
 * const [url] = await files.upload([{ file: input.files[0], path: 'photos' }]);
 * img.src = files.downloadUrl(url, { resize: { width: 200, height: 200 } });
 */
export function createFiles<O extends ClientOptions>(core: Core<O>): FilesOf<O, Files> {
  return filesOn(core) as FilesOf<O, Files>;
}

function filesOn(core: Core) {
  const { storageUrl, storageId, bucket = storageId } = core.options;
  const http = areaHttp(core, storageUrl, 'storageId');
  // Downloads are public: they need the bucket's name, which is the storage id unless given apart.
  const bucketName = () => {
    if (bucket === undefined) throw missingOption('storageId');
    return bucket;
  };

  const transfer = (
    operation: '/files/copy' | '/files/move',
    sources: string | string[],
    destination: string,
    { force, signal }: ForceOptions,
  ) => {
    const sourceUrls = list(sources);
    const body = { sourceUrls, forces: flags(sourceUrls.length, force), destinationUrl: destination };
    return core.call(http.POST(operation, { body, signal })).then((answer) => answer.newPaths);
  };

  async function* listAll(
    folder: string,
    { pageSize = 50, signal }: Omit<ListOptions, 'page'> = {},
  ): AsyncGenerator<FileRecord, void, undefined> {
    for (let page = 0; ; page += 1) {
      const records = await files.list(folder, { page, pageSize, signal });
      yield* records;
      if (records.length < pageSize) return;
    }
  }

  const files = {
    /**
     * Uploads files (the contract's `uploadFiles`) and returns their saved paths (relative to the bucket, percent-encoded), in
     * order. Takes `Blob`/`File`, bytes, or file paths in Node. With `onProgress`, reports the bytes sent.
     *
     * @example
     * const [saved] = await files.upload([{ file: 'video.mp4', path: 'videos', replacing: true }], {
     *   onProgress: ({ loaded, total }) => console.log(loaded, total),
     * });
     */
    async upload(
      items: UploadItem[],
      { onProgress, signal }: CallOptions & { onProgress?: (progress: UploadProgress) => void } = {},
    ): Promise<string[]> {
      const form = await uploadForm(items);
      const answer = await core.call(
        http.POST('/files', {
          body: form as never,
          bodySerializer: (body) => body,
          signal,
          ...(onProgress && { fetch: progressFetch(onProgress) }),
        }),
      );
      return answer.savedFilesUrls;
    },

    /**
     * Creates a folder and its missing parents (the contract's `createDirectory`); `created` is false when it existed.
     *
     * @example
     * await files.createFolder('photos/2024');
     */
    async createFolder(path: string, { signal }: CallOptions = {}): Promise<{ created: boolean }> {
      const pending = http.POST('/directories', { body: { path }, signal });
      await core.call(pending);
      return { created: (await pending).response.status === 201 };
    },

    /**
     * One page of a folder's records (the contract's `listDirectory`). Master only.
     *
     * @example
     * const records = await admin.files.list('photos', { page: 0, pageSize: 50 });
     */
    async list(folder: string, { page = 0, pageSize = 50, signal }: ListOptions = {}): Promise<FileRecord[]> {
      const body = { url: folder, pageNumber: page, pageSize, sortingType: 'ASC' as const };
      return (await core.call(http.POST('/files/directoryInfo', { body, signal }))).files;
    },

    /**
     * Every record of a folder, page after page. Master only.
     *
     * @example
     * for await (const record of admin.files.listAll('photos')) console.log(record.url);
     */
    listAll,

    /** A file's details (the contract's `getFileInfo`). Master only. */
    info: (path: string, { signal }: CallOptions = {}): Promise<FileInfo> =>
      core.call(http.POST('/files/fileInfo', { body: { url: path }, signal })),

    /**
     * Deletes files and folders of one parent (the contract's `deleteFiles`); a non-empty folder needs `force`.
     *
     * @example
     * await files.delete(['photos/a.jpg', 'photos/old'], { force: [false, true] });
     */
    async delete(paths: string | string[], { force, signal }: ForceOptions = {}): Promise<void> {
      const urls = list(paths);
      await core.call(http.POST('/files/delete', { body: { urls, forced: flags(urls.length, force) }, signal }));
    },

    /**
     * Copies files and folders of one parent into a folder (the contract's `copyFiles`); `force` replaces what exists there.
     * Returns the new paths. Master only.
     *
     * @example
     * const [copy] = await admin.files.copy(['photos/a.jpg'], 'backup');
     */
    copy: (sources: string | string[], destination: string, options: ForceOptions = {}): Promise<string[]> =>
      transfer('/files/copy', sources, destination, options),

    /** Moves files and folders of one parent into a folder (the contract's `moveFiles`); `force` replaces what exists there. Returns the new paths. Master only. */
    move: (sources: string | string[], destination: string, options: ForceOptions = {}): Promise<string[]> =>
      transfer('/files/move', sources, destination, options),

    /**
     * Renames a file (the contract's `renameFiles`; folders cannot be renamed) and returns its new path.
     *
     * @example
     * const path = await files.rename('photos/a.jpg', 'cat.jpg');
     */
    async rename(path: string, newName: string, { signal }: CallOptions = {}): Promise<string> {
      const [renamed] = await files.renameAll([{ path, newName }], { signal });
      return renamed!;
    },

    /** Renames several files in one request; returns the new paths in order. */
    async renameAll(items: { path: string; newName: string }[], { signal }: CallOptions = {}): Promise<string[]> {
      const body = { items: items.map(({ path, newName }) => ({ pathToRename: path, newFileName: newName })) };
      return (await core.call(http.POST('/files/rename', { body, signal }))).newPaths;
    },

    /**
     * The public address of a stored file, optionally resized and with a download name (the contract's `downloadFile`).
     *
     * @example
     * files.downloadUrl('photos/cat.jpg', { resize: { width: 64, height: 64 }, filename: 'avatar.jpg' });
     */
    downloadUrl: (path: string, options?: DownloadOptions): string =>
      downloadUrl(storageUrl, bucketName(), path, options),

    /**
     * Downloads a stored file (its public address, see `downloadUrl`), resized when asked.
     *
     * @example
     * const thumbnail = await files.download('photos/cat.jpg', { resize: { width: 64, height: 64 } });
     */
    async download(path: string, { signal, ...options }: DownloadOptions & CallOptions = {}): Promise<Blob> {
      const request = new Request(downloadUrl(storageUrl, bucketName(), path, options), { signal: signal ?? null });
      return (await core.send('GET /{bucket}/{path}', request)).blob();
    },
  };
  return files;
}
