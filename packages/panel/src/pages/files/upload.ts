// Uploads with progress: fetch has no upload events, so the request goes through XMLHttpRequest and its
// `upload.onprogress`, behind a fetch-shaped function that the SDK's transport takes for one call.
import { dataOf, service, withMasterToken } from '../../api.js';
import { savedPath } from './storage.js';

/** Bytes sent so far and the body's size. */
export interface Progress {
  loaded: number;
  total: number;
}

/**
 * A fetch over XMLHttpRequest that reports upload progress (the answer is read whole). A form goes as a form, so that
 * the browser streams its files (and sets its boundary) as fetch would.
 */
function xhrFetch(onProgress: (progress: Progress) => void): (request: Request) => Promise<Response> {
  return async (request) => {
    const form = request.headers.get('content-type')?.startsWith('multipart/form-data');
    const body = form ? await request.formData() : await request.arrayBuffer();
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => {
        if (!form || name !== 'content-type') xhr.setRequestHeader(name, value);
      });
      xhr.responseType = 'arraybuffer';
      xhr.upload.onprogress = ({ loaded, total }) => onProgress({ loaded, total });
      xhr.onload = () =>
        resolve(
          new Response(xhr.status === 204 ? null : (xhr.response as ArrayBuffer), {
            status: xhr.status,
            statusText: xhr.statusText,
          }),
        );
      xhr.onerror = () => reject(new TypeError('the upload could not be sent'));
      xhr.send(body);
    });
  };
}

/**
 * Uploads files into a folder (the contract's `uploadFiles`), reporting progress; answers the saved paths. `replacing` overwrites
 * files of the same name (otherwise the service refuses them with 417 and nothing is stored).
 */
export async function uploadFiles(
  folder: readonly string[],
  files: File[],
  replacing: boolean,
  onProgress: (progress: Progress) => void,
): Promise<string[]> {
  const form = new FormData();
  files.forEach((file, i) => {
    form.append(`fileItems[${i}].fileToUpload`, file, file.name);
    form.append(`fileItems[${i}].path`, savedPath(folder));
    form.append(`fileItems[${i}].replacing`, String(replacing));
  });
  const upload = service().POST('/files', {
    body: form as never,
    bodySerializer: (body) => body,
    fetch: withMasterToken(xhrFetch(onProgress)),
  });
  return (await dataOf(upload)).savedFilesUrls;
}
