import type { Config } from '@basekit/engine';
import type { ServiceApi } from './service-api.js';

/**
 * A user to create. It can log in with `password` afterwards.
 *
 * @example
 * const ann: SeedUser = { username: 'ann', password: 'ann-password', userId: 'ann-id', firstName: 'Ann' };
 * await backend.seed({ users: [ann] });
 */
export interface SeedUser {
  username: string;
  password: string;
  /** A fixed id, so that ACLs and rows of the fixture can name the user; a random one otherwise. */
  userId?: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  phoneNumber?: string;
  avatar?: string;
  /** Extra string fields of the registration (spec 2.1). */
  extra?: Record<string, string>;
  /** Default true, even when the project confirms registrations by e-mail; false leaves the user unconfirmed. */
  active?: boolean;
}

/**
 * A row as the database API takes it (Date values may be `Date` objects), with an optional fixed `_id` and times.
 *
 * @example
 * const note: SeedRow = { _id: 'n1', title: 'Hello', createdAt: new Date('2024-01-01'), ACL: { 'ann-id': { read: true } } };
 * await backend.seed({ tables: { Note: [note] } });
 */
export interface SeedRow {
  _id?: string;
  createdAt?: string | Date;
  /** Defaults to `createdAt`. */
  updatedAt?: string | Date;
  [column: string]: unknown;
}

/**
 * A file to store: `path` relative to the bucket, the last segment its name (`photos/cat.png`).
 *
 * @example
 * const cat: SeedFile = { path: 'photos/cat.png', content: catPngBytes, contentType: 'image/png' };
 * await backend.seed({ files: [cat] });
 */
export interface SeedFile {
  path: string;
  /** Text, bytes or a Blob (whose type becomes the file's content type unless `contentType` is given). */
  content: string | Uint8Array | Blob;
  contentType?: string;
}

/**
 * One game event a seeded user sent: the leaderboards defined on its fields take the values.
 *
 * @example
 * const score: SeedScore = { username: 'ann', event: 'match_end', values: { score: 120 } };
 * await backend.seed({ scores: [score] });
 */
export interface SeedScore {
  username: string;
  event: string;
  values: Record<string, number>;
}

/**
 * What to put in the backend, created through the service's own API so that everything is validated and stored
 * exactly as the service would: users, folders, files, rows by table, then scores.
 *
 * @example
 * const seed: Seed = {
 *   users: [{ username: 'ann', password: 'pw-ann', userId: 'user-ann' }],
 *   tables: { Note: [{ _id: 'note1', title: 'Hello', ACL: { 'user-ann': { read: true, write: true } } }] },
 *   files: [{ path: 'photos/cat.png', content: pngBytes }],
 *   scores: [{ username: 'ann', event: 'match_end', values: { score: 120 } }],
 * };
 */
export interface Seed {
  users?: SeedUser[];
  folders?: string[];
  files?: SeedFile[];
  tables?: Record<string, SeedRow[]>;
  scores?: SeedScore[];
}

/** The admin state export, in the parts seeding adjusts. */
interface StateJson {
  outbox: { link?: string }[];
  areas: {
    users: { users: { userId: string; active: boolean }[]; confirmations: [string, string][] };
    database: Record<string, { rows: Record<string, unknown>[]; relations: Record<string, unknown> }>;
  };
}

interface CreatedUser {
  user: SeedUser;
  id: string;
  active: boolean;
}

interface CreatedRow {
  table: string;
  row: SeedRow;
  id: string;
}

const toIso = (value: string | Date, what: string): string => {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`${what}: "${String(value)}" is not a date`);
  return date.toISOString();
};

/** Column values as the API takes them: `Date` objects become `{__type: "Date", iso}`, recursively. */
function apiValue(value: unknown): unknown {
  if (value instanceof Date) return { __type: 'Date', iso: value.toISOString() };
  if (Array.isArray(value)) return value.map(apiValue);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, apiValue(v)]));
  return value;
}

/**
 * Seeds through the service's API; all or nothing: when the service refuses any part, the state before is put back
 * and the error (naming the fixture entry and the service's answer) is thrown.
 * `passwords` (username -> password) lets scores name users seeded earlier; it learns the users of this fixture.
 */
export async function applySeed(api: ServiceApi, fixture: Seed, passwords: Map<string, string>): Promise<void> {
  const before = await api.admin<unknown>('GET', '/__admin/state');
  try {
    await seedParts(api, fixture, passwords);
  } catch (error) {
    await api.admin('PUT', '/__admin/state', before);
    throw error;
  }
  for (const user of fixture.users ?? []) passwords.set(user.username, user.password);
}

async function seedParts(api: ServiceApi, fixture: Seed, passwords: Map<string, string>): Promise<void> {
  const config = await api.admin<Config>('GET', '/__admin/config');
  const login = await api.call<{ access_token: string }>('POST', '/auth/login', {
    headers: {
      'X-Service-Authentication-Id': config.authenticationId,
      'X-Service-Authentication-Key': config.masterKey,
    },
    what: 'seed: master login',
  });
  const master = `Bearer ${login.access_token}`;

  const users = await createUsers(api, config, fixture.users ?? []);
  const storage = { 'X-Service-Storage-Id': config.storageId, Authorization: master };
  for (const [i, path] of (fixture.folders ?? []).entries()) {
    await api.call('POST', '/directories', { headers: storage, json: { path }, what: `seed folders[${i}] "${path}"` });
  }
  if (fixture.files?.length)
    await api.call('POST', '/files', { headers: storage, body: uploadForm(fixture.files), what: 'seed files' });
  const rows = await createRows(
    api,
    { 'X-Service-Object-Storage-Id': config.objectStorageId, Authorization: master },
    fixture.tables ?? {},
  );

  if (
    users.some(needsSettling) ||
    rows.some(({ row }) => row._id !== undefined || row.createdAt !== undefined || row.updatedAt !== undefined)
  ) {
    const state = await api.admin<StateJson>('GET', '/__admin/state');
    settleUsers(state, users);
    settleRows(state, rows);
    await api.admin('PUT', '/__admin/state', state);
  }
  const known = new Map([...passwords, ...(fixture.users ?? []).map((u) => [u.username, u.password] as const)]);
  await sendScores(api, config, fixture.scores ?? [], known);
}

async function createUsers(api: ServiceApi, config: Config, users: SeedUser[]): Promise<CreatedUser[]> {
  const created: CreatedUser[] = [];
  for (const [i, user] of users.entries()) {
    const { userId: _fixed, active: _active, extra, ...registration } = user;
    const record = await api.call<{ userId: string; active: boolean }>('POST', '/auth/users', {
      headers: { 'X-Service-Authentication-Id': config.authenticationId },
      json: { ...extra, ...registration },
      what: `seed users[${i}] "${user.username}"`,
    });
    created.push({ user, id: record.userId, active: record.active });
  }
  return created;
}

function uploadForm(files: SeedFile[]): FormData {
  const form = new FormData();
  files.forEach(({ path, content, contentType }, i) => {
    const slash = path.lastIndexOf('/');
    const type = contentType ?? (content instanceof Blob ? content.type : '');
    form.set(`fileItems[${i}].fileToUpload`, new Blob([content as BlobPart], { type }), path.slice(slash + 1));
    form.set(`fileItems[${i}].path`, slash < 0 ? '' : path.slice(0, slash));
  });
  return form;
}

async function createRows(
  api: ServiceApi,
  headers: Record<string, string>,
  tables: Record<string, SeedRow[]>,
): Promise<CreatedRow[]> {
  const created: CreatedRow[] = [];
  for (const [table, rows] of Object.entries(tables)) {
    for (const [i, row] of rows.entries()) {
      const { _id, createdAt, updatedAt, ...columns } = row;
      const answer = await api.call<{ _id: string }>('POST', `/object-storage/classes/${encodeURIComponent(table)}`, {
        headers,
        json: apiValue(columns),
        what: `seed tables.${table}[${i}]`,
      });
      created.push({ table, row, id: answer._id });
    }
  }
  return created;
}

const needsSettling = ({ user, active }: CreatedUser) => user.userId !== undefined || (user.active ?? true) !== active;

/** Gives seeded users their fixed ids and activity; an active user's confirmation link and e-mail are dropped. */
function settleUsers(state: StateJson, created: CreatedUser[]): void {
  const area = state.areas.users;
  for (const { user, id } of created.filter(needsSettling)) {
    const stored = area.users.find((u) => u.userId === id)!;
    const userId = user.userId ?? id;
    if (userId !== id && area.users.some((u) => u.userId === userId))
      throw new Error(`seed users "${user.username}": userId "${userId}" is taken`);
    stored.userId = userId;
    stored.active = user.active ?? true;
    const links = area.confirmations.filter(([, owner]) => owner === id);
    if (stored.active) {
      const tokens = new Set(links.map(([token]) => token));
      state.outbox = state.outbox.filter((mail) => !tokens.has(mail.link?.slice(mail.link.lastIndexOf('/') + 1) ?? ''));
      area.confirmations = area.confirmations.filter(([, owner]) => owner !== id);
    } else {
      for (const link of links) link[1] = userId;
    }
  }
}

/** Gives seeded rows their fixed `_id`s and times. */
function settleRows(state: StateJson, created: CreatedRow[]): void {
  for (const { table, row, id } of created) {
    const { rows, relations } = state.areas.database[table]!;
    const stored = rows.find((r) => r['_id'] === id)!;
    const what = `seed tables.${table} "${row._id ?? id}"`;
    if (row._id !== undefined && row._id !== id) {
      if (typeof row._id !== 'string' || row._id === '') throw new Error(`${what}: _id must be a non-empty string`);
      if (rows.some((r) => r['_id'] === row._id)) throw new Error(`${what}: the table already has a row with this _id`);
      stored['_id'] = row._id;
      if (relations[id]) {
        relations[row._id] = relations[id];
        delete relations[id];
      }
    }
    if (row.createdAt !== undefined) stored['createdAt'] = toIso(row.createdAt, `${what} createdAt`);
    if (row.updatedAt !== undefined || row.createdAt !== undefined)
      stored['updatedAt'] = toIso(row.updatedAt ?? row.createdAt!, `${what} updatedAt`);
  }
}

/** Sends each score as its user's game event (logged in with the known password), then logs those users out. */
async function sendScores(
  api: ServiceApi,
  config: Config,
  scores: SeedScore[],
  passwords: Map<string, string>,
): Promise<void> {
  const client = {
    'X-Service-Authentication-Id': config.authenticationId,
    'X-Service-Authentication-Key': config.clientKey,
  };
  const sessions = new Map<string, { access_token: string; refresh_token: string }>();
  for (const [i, { username, event, values }] of scores.entries()) {
    const what = `seed scores[${i}] "${username}"`;
    let session = sessions.get(username);
    if (!session) {
      const password = passwords.get(username);
      if (password === undefined)
        throw new Error(`${what}: the user was not seeded here, so its password is unknown; seed the user first`);
      const form = new FormData();
      form.set('username', username);
      form.set('password', password);
      session = await api.call<{ access_token: string; refresh_token: string }>('POST', '/auth/login', {
        headers: client,
        body: form,
        what,
      });
      sessions.set(username, session);
    }
    const fieldsAndValues = Object.entries(values).map(([fieldName, value]) => ({ fieldName, value }));
    await api.call('POST', '/game/events', {
      headers: { 'X-Service-Game-Id': config.gameId, Authorization: `Bearer ${session.access_token}` },
      json: { eventName: event, fieldsAndValues },
      what,
    });
  }
  for (const { refresh_token } of sessions.values()) {
    await api.call('DELETE', `/auth/logout?refresh-token=${encodeURIComponent(refresh_token)}`, {
      headers: client,
      what: 'seed: logout',
    });
  }
}
