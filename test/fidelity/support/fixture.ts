import { startTestServer, type TestServer } from '../../../mock-server/test/support/server.js';
import { createUser, masterAuth, type TestUser } from '../../../mock-server/test/support/users.js';

/** The callers every access check is tried with (the columns of the authorization matrix). */
export const CALLERS = [
  'none',
  'garbage',
  'expired',
  'otherProject',
  'anotherProject',
  'deleted',
  'user',
  'otherUser',
  'master',
] as const;
export type Caller = (typeof CALLERS)[number];

/** A project with a different authentication id and keys, on a server of its own: its tokens must mean nothing to the main one. */
const OTHER_PROJECT = {
  authenticationId: 'other-auth-id',
  clientKey: 'other-client-key',
  masterKey: 'other-master-key',
  objectStorageId: 'other-db',
  storageId: 'other-storage',
  gameId: 'other-game',
};

export interface Fixture {
  server: TestServer;
  /** The user whose data the checks are about, and a second user of the same project. */
  user: TestUser;
  otherUser: TestUser;
  /** The access token of each caller (`none` has none). */
  tokens: Record<Caller, string | undefined>;
  /** The value of each apiKey security scheme of the contract for this project (client key for `authenticationKey`). */
  schemeValues: Record<string, string>;
  /** `Authorization` header of a caller. */
  auth(caller: Caller): Record<string, string>;
  /** The state export without what moves by itself (the clock offset, the progress of transcoder jobs). */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

/** `GET /__admin/state`, normalized so that two exports of an unchanged state are equal strings. */
async function stateSnapshot(server: TestServer): Promise<string> {
  const res = await server.admin('/__admin/state');
  if (res.status !== 200) throw new Error(`state export failed: ${res.status}`);
  const state = (await res.json()) as { clockOffsetMs?: number; areas: Record<string, Record<string, unknown>> };
  delete state.clockOffsetMs; // real time minus server time, taken at a slightly different moment each export
  const transcoder = state.areas['transcoder'];
  // Jobs run on their own after a 202; a request may only add or remove jobs, never their progress.
  if (transcoder?.['jobs']) transcoder['jobs'] = (transcoder['jobs'] as { queueId: string }[]).map((j) => j.queueId);
  return JSON.stringify(state);
}

async function adminJson(server: TestServer, path: string, method: string, body: unknown): Promise<void> {
  const res = await server.admin(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} failed: ${res.status} ${await res.text()}`);
}

/**
 * The master token of a project created on `server` beside its default one (`POST /__admin/projects`): requests
 * that carry the main project's ids must refuse it, and those that carry only a token act in its own project.
 */
async function anotherProjectMaster(server: TestServer): Promise<string> {
  const created = await server.admin('/__admin/projects', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  if (created.status !== 201)
    throw new Error(`creating another project failed: ${created.status} ${await created.text()}`);
  const { config } = (await created.json()) as { config: { authenticationId: string; masterKey: string } };
  const login = await server.request('/auth/login', {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': config.authenticationId,
      'X-Service-Authentication-Key': config.masterKey,
    },
  });
  if (!login.ok) throw new Error(`the other project's master login failed: ${login.status}`);
  return ((await login.json()) as { access_token: string }).access_token;
}

/**
 * Starts the main project and another one, and obtains a token of every kind: two users, the master, a user token
 * that has expired (issued before the clock moved past `expires_in`), the token of a user that was deleted, a token
 * of a project of another server and one of another project on the same server, and garbage.
 */
export async function startFixture(): Promise<Fixture> {
  const server = await startTestServer();
  const other = await startTestServer(OTHER_PROJECT);
  const config = server.engine.project.config;

  const expiring = await createUser(server, 'expiring');
  await adminJson(server, '/__admin/clock', 'POST', { advanceSeconds: config.accessTokenTtlSeconds + 1 });
  // Deliveries of transcoder jobs go nowhere in tests: one try each, no waiting between tries.
  await adminJson(server, '/__admin/transcoder/policy', 'PATCH', { deliveryAttempts: 1, retryDelayMs: 0 });
  const user = await createUser(server, 'owner');
  const otherUser = await createUser(server, 'intruder');
  const master = (await masterAuth(server))['Authorization']!.slice('Bearer '.length);
  const deleted = await createUser(server, 'deleted');
  const removal = await server.request(`/auth/users/${deleted.userId}`, {
    method: 'DELETE',
    headers: { 'X-Service-Authentication-Id': config.authenticationId, Authorization: `Bearer ${master}` },
  });
  if (!removal.ok) throw new Error(`deleting a user failed: ${removal.status}`);
  const otherMaster = (await masterAuth(other))['Authorization']!.slice('Bearer '.length);
  await other.close();
  const anotherProject = await anotherProjectMaster(server);

  const tokens: Record<Caller, string | undefined> = {
    none: undefined,
    garbage: 'not-a-token.at.all',
    expired: expiring.accessToken,
    otherProject: otherMaster,
    anotherProject,
    deleted: deleted.accessToken,
    user: user.accessToken,
    otherUser: otherUser.accessToken,
    master,
  };
  return {
    server,
    user,
    otherUser,
    tokens,
    schemeValues: {
      authenticationId: config.authenticationId,
      authenticationKey: config.clientKey,
      refreshFlag: '1',
      objectStorageId: config.objectStorageId,
      storageId: config.storageId,
      gameId: config.gameId,
    },
    auth: (caller): Record<string, string> => (tokens[caller] ? { Authorization: `Bearer ${tokens[caller]}` } : {}),
    snapshot: () => stateSnapshot(server),
    close: () => server.close(),
  };
}
