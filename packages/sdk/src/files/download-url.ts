/**
 * How to serve a downloaded file (the contract's `downloadFile`).
 *
 * @example
 * const options: DownloadOptions = { resize: { width: 64, height: 64 }, filename: 'avatar.png' };
 * img.src = client.files.downloadUrl('photos/cat.png', options);
 */
export interface DownloadOptions {
  /** Resize an image to fit these pixels (`/r/<width>x<height>`). */
  resize?: { width: number; height: number };
  /** The name the browser saves the file under (`?name=`). `&`, `#` and `%` are encoded, so they are safe here. */
  filename?: string;
}

// A saved path comes back percent-encoded (the contract's `uploadFiles`); a path typed by hand is not. Decoding first encodes both the same.
function encodeSegment(segment: string): string {
  try {
    return encodeURIComponent(decodeURIComponent(segment));
  } catch {
    return encodeURIComponent(segment);
  }
}

/**
 * The public address of a stored file: `{storage_url}/<bucket>/<path>`, with the resize segment and the download
 * name when asked for, each part correctly encoded. `path` is relative to the bucket, as `upload` returns it, or
 * starts with `/<bucket>/` as listing URLs do.
 *
 * @example
 * downloadUrl('https://storage.example.com', 'my-bucket', 'photos/cat one.jpg', { resize: { width: 200, height: 200 }, filename: 'cat.jpg' });
 * // https://storage.example.com/my-bucket/photos/cat%20one.jpg/r/200x200?name=cat.jpg
 */
export function downloadUrl(
  storageUrl: string,
  bucket: string,
  path: string,
  { resize, filename }: DownloadOptions = {},
): string {
  const relative = path.startsWith(`/${bucket}/`) ? path.slice(bucket.length + 2) : path;
  const segments = relative.split('/').filter(Boolean).map(encodeSegment);
  let url = `${storageUrl.replace(/\/+$/, '')}/${encodeSegment(bucket)}/${segments.join('/')}`;
  if (resize) {
    const { width, height } = resize;
    if (![width, height].every((n) => Number.isInteger(n) && n > 0))
      throw new RangeError('resize width and height must be positive integers');
    url += `/r/${width}x${height}`;
  }
  return filename ? `${url}?name=${encodeURIComponent(filename)}` : url;
}
