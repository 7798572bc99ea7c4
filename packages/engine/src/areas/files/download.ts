import { ErrorCode, badRequest, notFound } from '../../shared/errors.js';
import type { Project } from '../../shared/project.js';
import { isActiveContent, isImage } from './content-type.js';
import { contentDisposition } from './disposition.js';
import { type FilePath, nameOf, publicUrl } from './paths.js';
import type { ResizedImage } from './resize-cache.js';
import { type Representation, serveBytes } from './serve.js';
import { type FilesState, filesState } from './state.js';
import { readAll } from './stored-bytes.js';
import { type FileNode, find } from './tree.js';

interface Target {
  path: FilePath;
  file: FileNode;
  resize?: { width: number; height: number };
}

/** The file a download path names: the path itself, or `<image path>/r/<width>x<height>` (each side 1 to `maxSide`). */
function resolve(root: FilesState['root'], bucket: string, path: FilePath, maxSide: number): Target {
  const node = find(root, path);
  if (node?.kind === 'file') return { path, file: node };
  const size = /^(\d{1,5})x(\d{1,5})$/.exec(nameOf(path));
  const imagePath = path.slice(0, -2);
  const image = size && path[path.length - 2] === 'r' ? find(root, imagePath) : undefined;
  if (image?.kind !== 'file') throw notFound(ErrorCode.FILE_NOT_FOUND, `${publicUrl(bucket, path)} is not a file`);
  const [width, height] = [Number(size![1]), Number(size![2])];
  if (!(width >= 1 && width <= maxSide && height >= 1 && height <= maxSide)) {
    throw badRequest(ErrorCode.RESIZE_OUT_OF_RANGE, `resize width and height must be between 1 and ${maxSide}`);
  }
  return { path: imagePath, file: image, resize: { width, height } };
}

function resized(
  project: Project,
  state: FilesState,
  file: FileNode,
  width: number,
  height: number,
): Promise<ResizedImage | undefined> {
  const resizer = project.capabilities.images;
  if (!resizer) return Promise.resolve(undefined);
  const limits = { bytes: project.config.resizeCacheBytes, entries: project.config.resizeCacheEntries };
  return state.resized.produce(
    `${file.blobKey}/${width}x${height}`,
    async () => {
      const stored = await state.blobs.get(file.blobKey);
      if (!stored) return undefined;
      const image = await resizer.resize(await readAll(stored), width, height);
      if (!image) throw badRequest(ErrorCode.NOT_AN_IMAGE, 'the file cannot be read as an image');
      return image;
    },
    limits,
  );
}

/** Attachment when a download name is asked for or the type could run scripts, else inline under the file's name. */
function disposition(contentType: string, name: string, downloadAs: string | undefined): string {
  if (downloadAs) return contentDisposition('attachment', downloadAs);
  return contentDisposition(isActiveContent(contentType) ? 'attachment' : 'inline', name);
}

/**
 * Answers a download of `/<bucket>/<path>` (or its resize form) with the file's bytes. Without an image resizer
 * (in browsers) a resize serves the original image.
 *
 * @param downloadAs the `?name=`/`?filename=` name: served as an attachment under that name
 */
export async function download(
  project: Project,
  path: FilePath,
  headers: Headers,
  downloadAs?: string,
): Promise<Response> {
  const state = project.state(filesState);
  const {
    file,
    path: filePath,
    resize,
  } = resolve(state.root, project.config.bucket, path, project.config.maxResizeSide);
  if (resize && !isImage(file.contentType))
    throw badRequest(ErrorCode.NOT_AN_IMAGE, `${publicUrl(project.config.bucket, filePath)} is not an image`);
  const name = nameOf(filePath);
  const base = {
    etag: `"${file.md5}"`,
    lastModified: file.modified,
    contentType: file.contentType,
    contentDisposition: disposition(file.contentType, name, downloadAs),
  };
  const image = resize && (await resized(project, state, file, resize.width, resize.height));
  if (image) {
    const { bytes, contentType } = image;
    return serveBytes(headers, {
      ...base,
      bytes: [bytes],
      contentType,
      contentDisposition: disposition(contentType, name, downloadAs),
      etag: `"${file.md5}-${resize.width}x${resize.height}"`,
    });
  }
  const bytes = await state.blobs.get(file.blobKey);
  // Deleted or replaced between the lookup and the read.
  if (!bytes) throw notFound(ErrorCode.FILE_NOT_FOUND, `${publicUrl(project.config.bucket, filePath)} does not exist`);
  return serveBytes(headers, { ...base, bytes } satisfies Representation);
}
