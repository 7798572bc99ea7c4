/**
 * Bytes of the request body sent so far, and the body's size when known.
 *
 * @example
 * await client.files.upload(items, {
 *   onProgress: ({ loaded, total }: UploadProgress) => (bar.value = total ? loaded / total : 0),
 * });
 */
export interface UploadProgress {
  loaded: number;
  total?: number;
}

type OnProgress = (progress: UploadProgress) => void;

/** How much of the body a streamed upload hands to the connection at a time, so progress moves in steps this size. */
const CHUNK_BYTES = 64 * 1024;

/** Statuses whose response may carry no body (`new Response` refuses one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A fetch that reports upload progress. fetch itself has no upload events, so: where `XMLHttpRequest` exists
 * (browsers, jsdom, happy-dom) the request goes through it and its upload events; elsewhere (Node) the body is
 * streamed to fetch and counted as the connection takes it. The body is read into memory once either way. Every
 * upload that is answered reports a last event with `loaded === total`, whatever events the platform gave before.
 */
export function progressFetch(onProgress: OnProgress) {
  return async (request: Request): Promise<Response> => {
    const body = new Uint8Array(await request.arrayBuffer());
    return typeof XMLHttpRequest === 'function'
      ? sendWithXhr(request, body, onProgress)
      : sendStreamed(request, body, onProgress);
  };
}

function sendStreamed(request: Request, body: Uint8Array<ArrayBuffer>, onProgress: OnProgress): Promise<Response> {
  let sent = 0;
  // highWaterMark 0: a chunk is made only when fetch asks for one, i.e. when the connection took the previous one.
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent === body.length) return controller.close();
        const chunk = body.subarray(sent, sent + CHUNK_BYTES);
        controller.enqueue(chunk);
        sent += chunk.length;
        onProgress({ loaded: sent, total: body.length });
      },
    },
    { highWaterMark: 0 },
  );
  // Copied entry by entry: msw (its interceptors) patches `Headers` so that `new Headers(request.headers)` keeps only
  // what it recorded, the body's Content-Type, and drops the ids and the token.
  const headers = new Headers([...request.headers]);
  // A known length instead of chunked encoding: the server sees the same request as without progress.
  headers.set('content-length', String(body.length));
  // `duplex` is required by fetch for a streamed body; the DOM typings do not know it yet.
  const init = { method: request.method, headers, body: stream, signal: request.signal, duplex: 'half' };
  return fetch(request.url, init as RequestInit);
}

function sendWithXhr(request: Request, body: Uint8Array<ArrayBuffer>, onProgress: OnProgress): Promise<Response> {
  return new Promise((resolve, reject) => {
    const { signal } = request;
    // Rejects with the signal's reason, as fetch does (an AbortError unless the caller gave another reason).
    if (signal.aborted) return reject(signal.reason);
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const settle = () => signal.removeEventListener('abort', abort);
    xhr.open(request.method, request.url);
    for (const [name, value] of request.headers) xhr.setRequestHeader(name, value);
    xhr.responseType = 'arraybuffer';
    let loaded = 0;
    xhr.upload.onprogress = (event) => {
      loaded = event.loaded;
      onProgress(event.lengthComputable ? { loaded, total: event.total } : { loaded });
    };
    xhr.onload = () => {
      settle();
      // Chromium fires no upload event for a request a service worker answers (msw's in a browser): once the answer
      // is there, the whole body was taken.
      if (loaded !== body.length) onProgress({ loaded: body.length, total: body.length });
      const headers = responseHeaders(xhr.getAllResponseHeaders());
      resolve(
        new Response(NULL_BODY_STATUSES.has(xhr.status) ? null : (xhr.response as ArrayBuffer), {
          status: xhr.status,
          statusText: xhr.statusText,
          headers,
        }),
      );
    };
    // The errors fetch gives, so the SDK maps them the same way (NetworkError, AbortError).
    xhr.onerror = () => {
      settle();
      reject(new TypeError(`upload to ${request.url} failed`));
    };
    xhr.onabort = () => {
      settle();
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
    xhr.send(body);
  });
}

/** `getAllResponseHeaders()` text (`name: value` lines) as `Headers`. */
function responseHeaders(text: string): Headers {
  const headers = new Headers();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}
