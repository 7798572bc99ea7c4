import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type TestServer, startTestServer } from '../support/server.js';
import { createUser, masterAuth } from '../support/users.js';

/** `X-Service-Storage-Id` plus the given auth headers. */
export function storageHeaders(server: TestServer, auth: Record<string, string>): Record<string, string> {
  return { 'X-Service-Storage-Id': server.config.storageId, ...auth };
}

export interface UploadFile {
  name: string;
  content: string | Uint8Array;
  path?: string;
  replacing?: boolean;
  type?: string;
}

/** The multipart body of an upload, as the spec names its fields. */
export function uploadForm(files: readonly UploadFile[]): FormData {
  const form = new FormData();
  files.forEach((file, i) => {
    form.append(
      `fileItems[${i}].fileToUpload`,
      new Blob([file.content as BlobPart], file.type ? { type: file.type } : {}),
      file.name,
    );
    if (file.path !== undefined) form.append(`fileItems[${i}].path`, file.path);
    if (file.replacing !== undefined) form.append(`fileItems[${i}].replacing`, String(file.replacing));
  });
  return form;
}

/** An upload's multipart body sent 8 KiB at a time as the client asks for it, without Content-Length. */
export async function uploadInPieces(
  files: readonly UploadFile[],
): Promise<{ body: ReadableStream<Uint8Array>; contentType: string }> {
  const form = new Request('http://x/', { method: 'POST', body: uploadForm(files) });
  const bytes = new Uint8Array(await form.arrayBuffer());
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(sent, sent + 8192));
      sent += 8192;
    },
  });
  return { body, contentType: form.headers.get('content-type')! };
}

/** A storage client for tests: JSON calls and uploads with one set of auth headers. */
export function storageClient(server: TestServer, auth: Record<string, string>) {
  const headers = storageHeaders(server, auth);
  const send = (method: string, path: string, body: unknown) =>
    server.request(path, {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  return {
    post: (path: string, body: unknown) => send('POST', path, body),
    /** `DELETE` with a JSON body. */
    delete: (path: string, body: unknown) => send('DELETE', path, body),
    upload: (files: readonly UploadFile[]) =>
      server.request('/files', { method: 'POST', headers, body: uploadForm(files) }),
    /** Uploads and returns the saved paths; throws with the answer when it is not 200. */
    async put(files: readonly UploadFile[]): Promise<string[]> {
      const res = await server.request('/files', { method: 'POST', headers, body: uploadForm(files) });
      const body = (await res.json()) as { savedFilesUrls: string[] };
      if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
      return body.savedFilesUrls;
    },
  };
}

export type StorageClient = ReturnType<typeof storageClient>;

/** A master-token storage client. */
export async function masterClient(server: TestServer): Promise<StorageClient> {
  return storageClient(server, await masterAuth(server));
}

/** The download URL path of a saved path. */
export const downloadPath = (server: TestServer, saved: string) => `/${server.config.storageId}/${saved}`;

/** What a file-storage test works with: its server, a master client, and the client of user "ann". */
export interface StorageSuite {
  server: TestServer;
  master: StorageClient;
  user: StorageClient;
  userId: string;
}

/**
 * Starts a server for a test file (through `start`: this project's transport unless given) and, before each test,
 * resets it, logs the master in and registers "ann".
 * Read the fields inside tests and hooks: they are set when the hooks run.
 */
export function storageSuite(
  overrides: Parameters<typeof startTestServer>[0] = {},
  start: typeof startTestServer = startTestServer,
): StorageSuite {
  const suite = {} as StorageSuite;
  beforeAll(async () => {
    suite.server = await start(overrides);
  });
  afterAll(() => suite.server.close());
  beforeEach(async () => {
    await suite.server.reset();
    suite.master = await masterClient(suite.server);
    const ann = await createUser(suite.server, 'ann');
    suite.user = storageClient(suite.server, ann.auth);
    suite.userId = ann.userId;
  });
  return suite;
}

/**
 * A multipart upload body that the test sends piece by piece, to see what the server does while it comes in.
 *
 * @example
 * const upload = streamedUpload();
 * const answer = fetch(url, { method: 'POST', headers: { 'Content-Type': upload.contentType }, body: upload.body, duplex: 'half' });
 * upload.file(0, 'big.bin');
 * upload.send(bytes);
 * upload.end();
 */
export function streamedUpload(boundary = 'basekit-streamed-upload') {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const text = (s: string) => controller.enqueue(new TextEncoder().encode(s));
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body,
    /** Starts the file part of item `index`; its bytes follow with `send`. */
    file: (index: number, name: string) =>
      text(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="fileItems[${index}].fileToUpload"; filename="${name}"\r\n\r\n`,
      ),
    field: (name: string, value: string) =>
      text(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}`),
    /** A copy each time, as from a network: the server may keep what it is given. */
    send: (bytes: Uint8Array) => controller.enqueue(bytes.slice()),
    end: () => {
      text(`\r\n--${boundary}--\r\n`);
      controller.close();
    },
    /** True once the client has taken every piece given so far (to send it, as far as the socket lets it). */
    taken: () => controller.desiredSize! > 0,
    /** Ends the body without its closing boundary. */
    cut: () => controller.close(),
  };
}
