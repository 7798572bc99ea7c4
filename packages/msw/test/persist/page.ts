// The page of the IndexedDB persistence test: bundled for Chromium, it drives a backend with `persist: 'indexeddb'`
// through the engine's own fetch (no service worker needed: what is tested is what survives a reload).
import { clearPersistedState, createHandlers, type BasekitHandlers } from '../../src/index.js';

const baseUrl = 'https://api.example.test';
const ids = {
  'X-Service-Authentication-Id': 'dev-auth-id',
  'X-Service-Object-Storage-Id': 'dev-db',
  'X-Service-Storage-Id': 'dev-storage',
};
let backend: BasekitHandlers | undefined;

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  const res = await backend!.engine.fetch(
    new Request(`${baseUrl}${path}`, { ...init, headers: { ...ids, ...init.headers } }),
  );
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // a download
  }
  return { status: res.status, json, text };
}

function login(fields: Record<string, string>, refresh = false) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.set(k, v);
  return call('/auth/login', {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Key': 'dev-client-key',
      ...(refresh && { 'X-Service-Authentication-Refresh': '1' }),
    },
    body,
  });
}

/** What the test calls in the page. */
const api = {
  async open() {
    backend = createHandlers({
      baseUrl,
      persist: 'indexeddb',
      seed: { users: [{ username: 'ann', password: 'ann-pw' }] },
    });
    await backend.ready;
    return (await backend.engine.ready) ?? null;
  },
  /** Signs in, creates a row and uploads a file: what a reload must keep. */
  async write() {
    const tokens = (await login({ username: 'ann', password: 'ann-pw' })).json as {
      access_token: string;
      refresh_token: string;
    };
    const auth = { Authorization: `Bearer ${tokens.access_token}` };
    const row = await call('/object-storage/classes/Notes', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'kept' }),
    });
    const form = new FormData();
    form.append('fileItems[0].fileToUpload', new File(['file bytes'], 'a.txt', { type: 'text/plain' }));
    form.append('fileItems[0].path', 'docs');
    const upload = await call('/files', { method: 'POST', headers: auth, body: form });
    return { ...tokens, rowId: row.json['_id'] as string, rowStatus: row.status, uploadStatus: upload.status };
  },
  /** Reads back with the tokens of before the reload. */
  async read(written: { access_token: string; refresh_token: string; rowId: string }) {
    const auth = { Authorization: `Bearer ${written.access_token}` };
    const row = await call(`/object-storage/classes/Notes/${written.rowId}`, { headers: auth });
    const renewal = await login({ refresh_token: written.refresh_token }, true);
    const file = await call('/dev-storage/docs/a.txt');
    const users = ((await backend!.state()).areas['users'] as { users: unknown[] }).users.length;
    return { row: row.json['text'], renewal: renewal.status, file: file.text, users };
  },
  async reset() {
    await backend!.reset();
    return (await backend!.rows('Notes')).length;
  },
  async clear() {
    await backend!.close();
    await clearPersistedState(baseUrl);
  },
};

(globalThis as unknown as { persistTest: typeof api }).persistTest = api;
