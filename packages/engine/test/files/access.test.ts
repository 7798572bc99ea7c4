import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { uploadForm } from './support.js';

let server: TestServer;
let ann: TestUser;
let masterHeaders: Record<string, string>;

beforeAll(async () => {
  server = await startTestServer();
  ann = await createUser(server, 'ann');
  masterHeaders = await masterAuth(server);
});
afterAll(() => server.close());

interface Operation {
  path: string;
  body: () => BodyInit;
  json: boolean;
  masterOnly: boolean;
  disabledStatus: number;
}

const json = (path: string, body: unknown, masterOnly: boolean, disabledStatus = 503): Operation => ({
  path,
  body: () => JSON.stringify(body),
  json: true,
  masterOnly,
  disabledStatus,
});

const OPERATIONS: Operation[] = [
  {
    path: '/files',
    body: () => uploadForm([{ name: 'a.txt', content: 'a' }]),
    json: false,
    masterOnly: false,
    disabledStatus: 503,
  },
  json('/directories', { path: 'd' }, false),
  json('/files/directoryInfo', { url: '/' }, true),
  json('/files/fileInfo', { url: 'a.txt' }, true),
  json('/files/delete', { urls: ['a.txt'], forced: [false] }, false),
  json('/files/copy', { sourceUrls: ['a.txt'], forces: [false], destinationUrl: 'b' }, true, 417),
  json('/files/move', { sourceUrls: ['a.txt'], forces: [false], destinationUrl: 'b' }, true, 417),
  json('/files/rename', { items: [{ pathToRename: 'a.txt', newFileName: 'b.txt' }] }, false),
];

function call(op: Operation, headers: Record<string, string>): Promise<Response> {
  return server.request(op.path, {
    method: 'POST',
    headers: { ...(op.json ? { 'Content-Type': 'application/json' } : {}), ...headers },
    body: op.body(),
  });
}

async function expectError(res: Response, status: number): Promise<void> {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual({ code: expect.any(Number), error: expect.any(String) });
}

describe.each(OPERATIONS)('$path', (op) => {
  it('answers 404 for a missing or wrong X-Service-Storage-Id', async () => {
    await expectError(await call(op, masterHeaders), 404);
    await expectError(await call(op, { ...masterHeaders, 'X-Service-Storage-Id': 'someone-else' }), 404);
  });

  it('answers 401 without a valid access token', async () => {
    const id = { 'X-Service-Storage-Id': server.config.storageId };
    await expectError(await call(op, id), 401);
    await expectError(await call(op, { ...id, Authorization: 'Bearer not-a-token' }), 401);
  });

  it(op.masterOnly ? 'refuses a user token with 401 (master only)' : 'accepts a user token', async () => {
    const res = await call(op, { 'X-Service-Storage-Id': server.config.storageId, ...ann.auth });
    if (op.masterOnly) await expectError(res, 401);
    else expect(res.status).not.toBe(401);
  });

  it(`answers ${op.disabledStatus} while the storage service is disabled`, async () => {
    await server.patchConfig({ services: { storage: false } });
    try {
      await expectError(
        await call(op, { 'X-Service-Storage-Id': server.config.storageId, ...masterHeaders }),
        op.disabledStatus,
      );
    } finally {
      await server.patchConfig({ services: { storage: true } });
    }
  });
});

describe('downloads', () => {
  it('answer 503 while the storage service is disabled, and need no headers otherwise', async () => {
    const headers = { 'X-Service-Storage-Id': server.config.storageId, ...masterHeaders };
    await server.request('/files', {
      method: 'POST',
      headers,
      body: uploadForm([{ name: 'pub.txt', content: 'public' }]),
    });
    expect(await (await server.request(`/${server.config.storageId}/pub.txt`)).text()).toBe('public');
    await server.patchConfig({ services: { storage: false } });
    try {
      await expectError(await server.request(`/${server.config.storageId}/pub.txt`), 503);
    } finally {
      await server.patchConfig({ services: { storage: true } });
    }
  });

  it('only answer under the configured bucket: other paths reach the other areas or the 404 handler', async () => {
    const res = await server.request('/not-the-bucket/pub.txt');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 2 });
    const login = await server.request('/auth/login', { method: 'GET' });
    expect(login.status).toBe(404);
    expect(await login.json()).toMatchObject({ code: 2 });
  });
});
