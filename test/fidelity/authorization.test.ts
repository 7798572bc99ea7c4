import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Operation } from './support/contract.js';
import { CALLERS, startFixture, type Caller, type Fixture } from './support/fixture.js';
import { TINY_PNG } from './support/seed.js';

/**
 * The authorization matrix: every operation of the contract × every kind of caller → the status it must answer.
 * Each cell sends a fresh, otherwise valid request about data of `user` (so a write that is allowed succeeds and
 * one that is refused is the caller's fault alone), and a refused request must leave the state export unchanged.
 */

interface CallSpec {
  path: string;
  body?: unknown;
  /** Headers beyond the operation's security headers. */
  headers?: Record<string, string>;
}

/**
 * The columns, in the order of `CALLERS`: none, garbage, expired, otherProject (a token of another server's
 * project), anotherProject (the master token of another project on this server), deleted, user, otherUser, master.
 */
type Row = {
  call: () => Promise<CallSpec>;
  expect: [number, number, number, number, number, number, number, number, number];
  /** The operation of the contract, when the row's name is not its id (a second row of one operation). */
  operation?: string;
};

/**
 * An operation that needs a valid token: every invalid one is 401, then user, other user, master. A request that
 * carries nothing but a token (the transcoder's) acts in the token's own project: `anotherProject` is its answer
 * there, and this project's state must stay as it was.
 */
const token = (user: number, otherUser: number, master: number, anotherProject = 401): Row['expect'] => [
  401,
  401,
  401,
  401,
  anotherProject,
  401,
  user,
  otherUser,
  master,
];
/** An operation that reads no token (public, or authenticated by keys): the same answer for every caller. */
const anyone = (status: number): Row['expect'] => [
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
  status,
];

let fixture: Fixture;
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

async function asUser(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const res = await fixture.server.request(path, {
    method: 'POST',
    headers: {
      ...fixture.auth('user'),
      ...headers,
      ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body instanceof FormData ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`set-up ${path} failed: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const users = () => ({ 'X-Service-Authentication-Id': fixture.schemeValues['authenticationId']! });
const db = () => ({ 'X-Service-Object-Storage-Id': fixture.schemeValues['objectStorageId']! });
const storage = () => ({ 'X-Service-Storage-Id': fixture.schemeValues['storageId']! });

/** A row only `user` may read and write. */
async function privateRow(table = 'Private'): Promise<string> {
  const row = await asUser(
    `/object-storage/classes/${table}`,
    { secret: 'mine', ACL: { [fixture.user.userId]: { read: true, write: true } } },
    db(),
  );
  return row['_id'] as string;
}

function uploadForm(folder: string, name = 'a.png', replacing = false): FormData {
  const form = new FormData();
  form.append('fileItems[0].fileToUpload', new File([TINY_PNG], name, { type: 'image/png' }));
  form.append('fileItems[0].path', folder);
  form.append('fileItems[0].replacing', String(replacing));
  return form;
}

/** A file uploaded by `user`; its saved path. */
async function userFile(folder = unique('folder')): Promise<string> {
  const saved = await asUser('/files', uploadForm(folder), storage());
  return (saved['savedFilesUrls'] as string[])[0]!;
}

/** A confirmation link's token: registration with e-mail confirmation switched on for a moment. */
async function confirmationToken(): Promise<string> {
  const patch = (emailConfirmation: boolean) =>
    fixture.server.admin('/__admin/config', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ emailConfirmation }),
    });
  await patch(true);
  const username = unique('pending');
  const res = await fixture.server.request('/auth/users', {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': fixture.schemeValues['authenticationId']!,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ username, password: 'pw', email: `${username}@example.com` }),
  });
  await patch(false);
  if (!res.ok) throw new Error(`registration failed: ${res.status}`);
  const { messages } = (await (await fixture.server.admin('/__admin/outbox')).json()) as {
    messages: { link: string }[];
  };
  return messages.at(-1)!.link.split('/').at(-1)!;
}

/** A new leaderboard on which `user` has a score (added to the running config through the admin API); its id. */
async function scoredLeaderboard(): Promise<string> {
  const id = unique('board');
  const { config } = fixture.server.engine.project;
  const res = await fixture.server.admin('/__admin/config', {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      leaderboards: [...config.leaderboards, { id, fields: [{ event: 'match_end', field: 'kills' }] }],
    }),
  });
  if (!res.ok) throw new Error(`adding leaderboard ${id} failed: ${res.status}`);
  await asUser(
    '/game/events',
    { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'kills', value: ++counter }] },
    { 'X-Service-Game-Id': fixture.schemeValues['gameId']! },
  );
  return id;
}

const settings = (kind: string, extra: Record<string, unknown>): Row => ({
  call: async () => ({ path: `/metadata/${kind}`, body: { name: unique(kind), ...extra } }),
  expect: token(201, 201, 201, 201),
});

const MATRIX: Record<string, Row> = {
  // users
  registerUser: {
    call: async () => ({ path: '/auth/users', body: { username: unique('new'), password: 'pw' } }),
    expect: anyone(200),
  },
  login: {
    call: async () => {
      const form = new FormData();
      form.set('username', fixture.user.username);
      form.set('password', fixture.user.password);
      return { path: '/auth/login', body: form };
    },
    expect: anyone(200),
  },
  logout: {
    call: async () => ({ path: `/auth/logout?refresh-token=${unique('unknown-refresh-token')}` }),
    expect: anyone(200),
  },
  confirmRegistration: {
    call: async () => ({ path: `/auth/confirm/${await confirmationToken()}` }),
    expect: anyone(200),
  },
  getCurrentUser: { call: async () => ({ path: '/auth/users/me' }), expect: token(200, 200, 404) },
  updateCurrentUser: {
    call: async () => ({ path: '/auth/users/me', body: { lastName: unique('Lee') } }),
    expect: token(200, 200, 404),
  },
  searchUsers: { call: async () => ({ path: '/auth/users/search?word=owner' }), expect: token(403, 403, 200) },
  listUsers: { call: async () => ({ path: '/auth/users?page=0&pageSize=5' }), expect: token(403, 403, 200) },
  getUsersByIds: {
    call: async () => ({ path: '/auth/users/by-user-ids', body: { userIds: [fixture.user.userId] } }),
    expect: token(403, 403, 200),
  },
  getUserByUsername: {
    call: async () => ({ path: `/auth/users/by-username/${fixture.user.username}` }),
    expect: token(200, 403, 200),
  },
  getUserById: { call: async () => ({ path: `/auth/users/${fixture.user.userId}` }), expect: token(200, 403, 200) },
  updateUser: {
    call: async () => ({ path: `/auth/users/${fixture.user.userId}`, body: { firstName: unique('Ann') } }),
    expect: token(403, 403, 200),
  },
  // users beyond the spec (docs/published-clients.md): guests register without a token; the rest is master only, like updateUser
  registerGuest: { call: async () => ({ path: '/auth/guest-users' }), expect: anyone(201) },
  completeGuestRegistration: {
    call: async () => {
      const guest = await asUser('/auth/guest-users', {}, users());
      return {
        path: '/auth/guest-users/complete-registration-master',
        body: {
          userId: guest['id'],
          newUsername: unique('ex-guest'),
          lastPassword: guest['password'],
          newPassword: 'pw',
        },
      };
    },
    expect: token(403, 403, 200),
  },
  countUsers: { call: async () => ({ path: '/auth/users/get-number-of-user' }), expect: token(403, 403, 200) },
  deleteUser: {
    // A user of its own, so that the master's cell does not delete the user the other cells are about.
    call: async () => ({
      path: `/auth/users/${(await asUser('/auth/users', { username: unique('doomed'), password: 'pw' }, users()))['userId'] as string}`,
    }),
    expect: token(403, 403, 200),
  },
  // database: rows with an ACL that names only `user`
  createRow: {
    call: async () => ({ path: '/object-storage/classes/Private', body: { secret: 'x' } }),
    expect: token(201, 201, 201),
  },
  getRow: {
    call: async () => ({ path: `/object-storage/classes/Private/${await privateRow()}` }),
    expect: token(200, 403, 200),
  },
  updateRow: {
    call: async () => ({ path: `/object-storage/classes/Private/${await privateRow()}`, body: { secret: 'changed' } }),
    expect: token(200, 403, 200),
  },
  deleteRow: {
    call: async () => ({ path: `/object-storage/classes/Private/${await privateRow()}` }),
    expect: token(200, 403, 200),
  },
  deleteAllRows: {
    call: async () => {
      const table = unique('Table');
      await privateRow(table);
      return { path: `/object-storage/classes/${table}` };
    },
    expect: token(403, 403, 200),
  },
  queryRows: {
    call: async () => ({ path: '/object-storage/classes/query/Private?count=1', body: {} }),
    expect: token(200, 200, 200),
  },
  runBatch: {
    call: async () => ({
      path: '/object-storage/batch',
      body: {
        requests: [{ method: 'PUT', path: `/classes/Private/${await privateRow()}`, body: { secret: 'batch' } }],
      },
    }),
    expect: token(200, 200, 200),
  },
  // files: the master operations refuse user tokens with 401 (docs/errors.md); a user replaces, renames and deletes only own files (403)
  uploadFiles: { call: async () => ({ path: '/files', body: uploadForm(unique('up')) }), expect: token(200, 200, 200) },
  'uploadFiles replacing': {
    operation: 'uploadFiles',
    call: async () => {
      const folder = unique('replace');
      await userFile(folder);
      return { path: '/files', body: uploadForm(folder, 'a.png', true) };
    },
    expect: token(200, 403, 200),
  },
  createDirectory: {
    call: async () => ({ path: '/directories', body: { path: unique('dir') } }),
    expect: token(201, 201, 201),
  },
  listDirectory: {
    call: async () => ({ path: '/files/directoryInfo', body: { url: '/', pageNumber: 0, pageSize: 10 } }),
    expect: token(401, 401, 200),
  },
  getFileInfo: {
    call: async () => ({ path: '/files/fileInfo', body: { url: await userFile() } }),
    expect: token(401, 401, 200),
  },
  deleteFiles: {
    call: async () => ({ path: '/files/delete', body: { urls: [await userFile()] } }),
    expect: token(200, 403, 200),
  },
  'deleteFiles folder': {
    operation: 'deleteFiles',
    call: async () => ({ path: '/files/delete', body: { urls: [(await userFile()).split('/')[0]], forced: [true] } }),
    expect: token(200, 403, 200),
  },
  deleteFilesWithDelete: {
    call: async () => ({ path: '/files', body: { urls: [await userFile()] } }),
    expect: token(200, 403, 200),
  },
  copyFiles: {
    call: async () => ({
      path: '/files/copy',
      body: { sourceUrls: [await userFile()], destinationUrl: unique('copies') },
    }),
    expect: token(401, 401, 200),
  },
  moveFiles: {
    call: async () => ({
      path: '/files/move',
      body: { sourceUrls: [await userFile()], destinationUrl: unique('moved') },
    }),
    expect: token(401, 401, 200),
  },
  renameFiles: {
    call: async () => ({
      path: '/files/rename',
      body: { items: [{ pathToRename: await userFile(), newFileName: `${unique('renamed')}.png` }] },
    }),
    expect: token(200, 403, 200),
  },
  downloadFile: {
    call: async () => ({ path: `/${fixture.server.engine.project.config.bucket}/${await userFile()}` }),
    expect: anyone(200),
  },
  // leaderboards: the master token names no player (417)
  submitGameEvent: {
    call: async () => ({
      path: '/game/events',
      body: { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 1 }] },
    }),
    expect: token(200, 200, 417),
  },
  getLeaderboardRank: { call: async () => ({ path: '/game/leaderboards/high-score' }), expect: token(200, 200, 417) },
  getLeaderboardTop: {
    call: async () => ({ path: '/game/leaderboards/top/high-score?count=5' }),
    expect: token(200, 200, 200),
  },
  getLeaderboardAroundMe: {
    call: async () => ({ path: '/game/leaderboards/around-me/high-score?count=4' }),
    expect: token(200, 200, 417),
  },
  // leaderboards beyond the spec (docs/published-clients.md): reads like top and rank; what changes any player's scores is master only (403)
  getLeaderboardTopPage: {
    call: async () => ({ path: '/game/leaderboards/topPage/high-score?page=0&count=5' }),
    expect: token(200, 200, 200),
  },
  getPlayerLeaderboards: {
    call: async () => ({ path: '/game/leaderboards/myLeaderboards' }),
    expect: token(200, 200, 417),
  },
  getLeaderboardUsersScores: {
    call: async () => ({
      path: '/game/leaderboards/usersScore/high-score',
      body: { userIdList: [fixture.user.userId] },
    }),
    expect: token(200, 200, 200),
  },
  submitGameEvents: {
    call: async () => ({
      path: '/game/events/bulk',
      body: {
        eventBunchDataList: [
          {
            userId: fixture.user.userId,
            eventName: 'match_end',
            fieldsAndValues: [{ fieldName: 'score', value: ++counter }],
          },
        ],
      },
    }),
    expect: token(403, 403, 200),
  },
  setLeaderboardScores: {
    call: async () => ({
      path: '/game/leaderboards/high-score/scores',
      body: { userId: fixture.user.userId, scores: [++counter, 0, 0] },
    }),
    expect: token(403, 403, 200),
  },
  resetLeaderboard: {
    call: async () => ({ path: `/game/leaderboards/${await scoredLeaderboard()}/reset` }),
    expect: token(403, 403, 200),
  },
  resetAllLeaderboards: {
    call: async () => {
      await scoredLeaderboard();
      return { path: '/game/leaderboards/reset' };
    },
    expect: token(403, 403, 200),
  },
  removeLeaderboard: {
    call: async () => ({ path: `/game/leaderboards/${await scoredLeaderboard()}` }),
    expect: token(403, 403, 200),
  },
  // transcoder: any valid token saves settings (a user's are theirs, the master token's the project's); a convert
  // request resolves names among the caller's own settings, then the project's: not another user's (400)
  saveThumbnailSettings: settings('thumbnail', { shots: ['00:00:01'] }),
  saveWebhookSettings: settings('webhook', { url: 'http://127.0.0.1:9/status' }),
  saveUploadSettings: settings('upload', { url: 'http://127.0.0.1:9/files' }),
  saveWatermarkSettings: settings('watermark', {
    location: 'TOP_LEFT',
    paddingX: 1,
    paddingY: 1,
    url: 'http://127.0.0.1:9/logo.png',
  }),
  savePresetSettings: settings('preset', {
    outputs: [{ resolution: '144', videoBitrate: '100k', audioBitrate: '32k' }],
  }),
  // the other project has no settings "matrix": 400 there
  convertVideo: {
    call: async () => ({
      path: '/video/convert',
      body: { url: 'http://127.0.0.1:9/video.mp4', preset: 'matrix', upload: 'matrix' },
    }),
    expect: token(202, 400, 400, 400),
  },
};

const contract = loadContract();
const operations = new Map(contract.operations.map((op) => [op.id, op]));

/** The operation's security headers (first alternative) for this project, and the caller's token. */
function headersFor(op: Operation, caller: Caller): Record<string, string> {
  const headers: Record<string, string> = { ...fixture.auth(caller) };
  for (const scheme of op.security[0] ?? []) {
    if (scheme !== 'bearer' && scheme !== 'refreshFlag' && contract.headerOf[scheme])
      headers[contract.headerOf[scheme]] = fixture.schemeValues[scheme]!;
  }
  return headers;
}

beforeAll(async () => {
  fixture = await startFixture();
  await asUser('/metadata/preset', {
    name: 'matrix',
    outputs: [{ resolution: '144', videoBitrate: '100k', audioBitrate: '32k' }],
  });
  await asUser('/metadata/upload', { name: 'matrix', url: 'http://127.0.0.1:9/files' });
});
afterAll(() => fixture.close());

describe('the authorization matrix', () => {
  it('has a row for every operation of the contract', () => {
    expect([...new Set(Object.entries(MATRIX).map(([id, row]) => row.operation ?? id))].sort()).toEqual(
      [...operations.keys()].sort(),
    );
  });

  const cells = Object.entries(MATRIX).flatMap(([id, row]) =>
    CALLERS.map((caller, i) => ({ id, caller, status: row.expect[i]!, row })),
  );

  it.each(cells)('$id as $caller → $status', async ({ id, caller, status, row }) => {
    const op = operations.get(row.operation ?? id)!;
    const spec = await row.call();
    const before = await fixture.snapshot();
    const json = spec.body !== undefined && !(spec.body instanceof FormData);
    const res = await fixture.server.request(spec.path, {
      method: op.method.toUpperCase(),
      headers: { ...headersFor(op, caller), ...(json ? { 'Content-Type': 'application/json' } : {}), ...spec.headers },
      ...(spec.body !== undefined ? { body: json ? JSON.stringify(spec.body) : (spec.body as FormData) } : {}),
    });
    const text = await res.text();
    expect(res.status, text).toBe(status);
    if (!res.ok) {
      expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(['code', 'error']);
      expect(await fixture.snapshot(), 'a refused request changed the state').toBe(before);
    }
    // An operation that needs a token never changes this project with another project's token, even where it acts.
    if (caller === 'anotherProject' && row.expect[0] === 401)
      expect(await fixture.snapshot(), "another project's token changed this project").toBe(before);
  });
});

describe("one user's data is out of another's reach", () => {
  const query = async (caller: Caller) => {
    const res = await fixture.server.request('/object-storage/classes/query/Private?count=1', {
      method: 'POST',
      headers: { ...db(), ...fixture.auth(caller), 'Content-Type': 'application/json' },
      body: '{}',
    });
    return (await res.json()) as { results: { _id: string; secret?: string }[]; count: number };
  };

  it('a query by another user neither returns nor counts private rows', async () => {
    const id = await privateRow();
    expect((await query('user')).results.map((r) => r._id)).toContain(id);
    expect((await query('master')).results.map((r) => r._id)).toContain(id);
    const seen = await query('otherUser');
    expect(seen.results.map((r) => r._id)).not.toContain(id);
    expect(seen.count).toBe(seen.results.length);
  });

  it('a batch by another user cannot change or delete a private row, and says so per item', async () => {
    const id = await privateRow();
    const res = await fixture.server.request('/object-storage/batch', {
      method: 'POST',
      headers: { ...db(), ...fixture.auth('otherUser'), 'Content-Type': 'application/json' },
      body: JSON.stringify({
        requests: [
          { method: 'PUT', path: `/classes/Private/${id}`, body: { secret: 'stolen' } },
          { method: 'DELETE', path: `/classes/Private/${id}` },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { error: { code: 119, error: expect.any(String) } },
      { error: { code: 119, error: expect.any(String) } },
    ]);
    const row = await fixture.server.request(`/object-storage/classes/Private/${id}`, {
      headers: { ...db(), ...fixture.auth('user') },
    });
    expect(await row.json()).toMatchObject({ _id: id, secret: 'mine' });
  });

  it("an event always scores the caller: another user's events never change the user's scores", async () => {
    const game = { 'X-Service-Game-Id': fixture.schemeValues['gameId']!, 'Content-Type': 'application/json' };
    const rank = async (caller: Caller) =>
      (await (
        await fixture.server.request('/game/leaderboards/high-score', { headers: { ...game, ...fixture.auth(caller) } })
      ).json()) as { scores: number[] };
    await fixture.server.request('/game/events', {
      method: 'POST',
      headers: { ...game, ...fixture.auth('user') },
      body: JSON.stringify({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 50 }] }),
    });
    const mine = (await rank('user')).scores;
    // The body names no player: a userId smuggled into it is refused or ignored, never credited.
    await fixture.server.request('/game/events', {
      method: 'POST',
      headers: { ...game, ...fixture.auth('otherUser') },
      body: JSON.stringify({
        eventName: 'match_end',
        userId: fixture.user.userId,
        fieldsAndValues: [{ fieldName: 'score', value: 1_000 }],
      }),
    });
    expect((await rank('user')).scores).toEqual(mine);
  });
});
