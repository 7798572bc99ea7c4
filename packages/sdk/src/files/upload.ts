/**
 * Where a file's bytes come from: a `Blob`/`File` (browsers and Node), bytes, or a file path (Node only).
 *
 * @example
 * const sources: UploadSource[] = [input.files![0]!, new Uint8Array([1, 2, 3]), 'video.mp4']; // a path: Node only
 */
export type UploadSource = Blob | Uint8Array | ArrayBuffer | string;

/**
 * One file of an upload. `name` is required unless the source is a `File` or a path, which carry one.
 *
 * @example
 * const items: UploadItem[] = [{ file: input.files![0]!, path: 'photos', replacing: true }, { file: bytes, name: 'notes.txt', path: 'docs' }];
 * await client.files.upload(items);
 */
export type UploadItem = {
  /** The destination folder; missing folders are created. */
  path: string;
  /** Overwrite a file of the same name (otherwise that fails with `ExpectationFailedError`). */
  replacing?: boolean;
} & ({ file: File | string; name?: string } | { file: Blob | Uint8Array | ArrayBuffer; name: string });

const NODE_FS = 'node:fs';

async function blobOf(file: UploadSource): Promise<Blob> {
  if (file instanceof Blob) return file;
  if (typeof file !== 'string') return new Blob([file as BlobPart]);
  if (!('process' in globalThis)) throw new TypeError('a file path can be uploaded only in Node; pass a Blob or File');
  // A variable specifier: bundlers for browsers leave this Node-only import alone.
  const fs = (await import(/* @vite-ignore */ NODE_FS)) as { openAsBlob(path: string): Promise<Blob> };
  return fs.openAsBlob(file);
}

const nameOf = (item: UploadItem) =>
  item.name ?? (typeof item.file === 'string' ? item.file.split(/[\\/]/).pop() : (item.file as File).name) ?? 'file';

/**
 * The multipart body of an upload (the contract's `uploadFiles`): `fileItems[i].fileToUpload`, `fileItems[i].path` and
 * `fileItems[i].replacing` for each file.
 */
export async function uploadForm(items: UploadItem[]): Promise<FormData> {
  const form = new FormData();
  for (const [i, item] of items.entries()) {
    form.append(`fileItems[${i}].fileToUpload`, await blobOf(item.file), nameOf(item));
    form.append(`fileItems[${i}].path`, item.path);
    form.append(`fileItems[${i}].replacing`, String(item.replacing ?? false));
  }
  return form;
}
