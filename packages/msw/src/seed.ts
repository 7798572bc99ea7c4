import { BasekitError, ServiceError, createClient, type Client } from '@basekit/sdk';
import type { AdminClient, AdminClientOptions, Config, StateExport } from '@basekit/sdk/admin';

/** How a backend's controls reach it: the admin client's options (the engine's own fetch in msw, or a server's). */
export type BackendAccess = Pick<AdminClientOptions, 'baseUrl' | 'masterKey' | 'headerWord' | 'fetch'>;

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
  /** Extra string fields of the registration (the contract's `UserRegistration`). */
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

/** The admin state export, in the parts seeding adjusts (each area's own form, which the contract leaves open). */
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

/** Awaits one step of seeding; its error (the SDK's, its class kept) names the fixture entry: `seed users[1] "bob"`. */
async function step<T>(what: string, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (!(error instanceof BasekitError)) throw error;
    error.message =
      error instanceof ServiceError
        ? `${what}: the service answered ${error.status} (code ${error.code}): ${error.message}`
        : `${what}: ${error.message}`;
    throw error;
  }
}

/**
 * Seeds through the service's API, with the SDK as an app would; all or nothing: when the service refuses any part,
 * the state before is put back and the error (naming the fixture entry and the service's answer) is thrown.
 * `passwords` (username -> password) lets scores name users seeded earlier; it learns the users of this fixture.
 */
export async function applySeed(
  admin: AdminClient,
  access: BackendAccess,
  fixture: Seed,
  passwords: Map<string, string>,
): Promise<void> {
  const before = await admin.state.export();
  try {
    await seedParts(admin, access, fixture, passwords);
  } catch (error) {
    await admin.state.import(before);
    throw error;
  }
  for (const user of fixture.users ?? []) passwords.set(user.username, user.password);
}

async function seedParts(
  admin: AdminClient,
  access: BackendAccess,
  fixture: Seed,
  passwords: Map<string, string>,
): Promise<void> {
  const config = await admin.config.get();
  const clientOf = () => createClient(clientOptions(access, config));
  const master = clientOf();
  await step('seed: master login', master.auth.loginAsMaster(config.masterKey));

  const users = await createUsers(master, fixture.users ?? []);
  for (const [i, path] of (fixture.folders ?? []).entries()) {
    await step(`seed folders[${i}] "${path}"`, master.files.createFolder(path));
  }
  if (fixture.files?.length) await step('seed files', master.files.upload(fixture.files.map(uploadItem)));
  const rows = await createRows(master, fixture.tables ?? {});

  if (
    users.some(needsSettling) ||
    rows.some(({ row }) => row._id !== undefined || row.createdAt !== undefined || row.updatedAt !== undefined)
  ) {
    const state = (await admin.state.export()) as unknown as StateJson;
    settleUsers(state, users);
    settleRows(state, rows);
    await admin.state.import(state as unknown as StateExport);
  }
  const known = new Map([...passwords, ...(fixture.users ?? []).map((u) => [u.username, u.password] as const)]);
  await sendScores(clientOf, fixture.scores ?? [], known);
}

/** The SDK's options for a client of the project `config` describes, sending through the backend's fetch. */
function clientOptions({ baseUrl, fetch }: BackendAccess, config: Config) {
  const { authenticationId, clientKey, objectStorageId, storageId, gameId, bucket, headerWord } = config;
  return {
    baseUrl,
    authenticationId,
    clientKey,
    objectStorageId,
    storageId,
    gameId,
    bucket,
    headerWord: headerWord[0],
    fetch,
  };
}

async function createUsers(master: Client, users: SeedUser[]): Promise<CreatedUser[]> {
  const created: CreatedUser[] = [];
  for (const [i, user] of users.entries()) {
    const { userId: _fixed, active: _active, extra, ...registration } = user;
    const record = await step(
      `seed users[${i}] "${user.username}"`,
      master.auth.register({ ...extra, ...registration }),
    );
    created.push({ user, id: record.userId, active: record.active });
  }
  return created;
}

/** A file of the fixture as the SDK uploads it: its content as a Blob (a string is text, not a path here). */
function uploadItem({ path, content, contentType }: SeedFile) {
  const slash = path.lastIndexOf('/');
  const type = contentType ?? (content instanceof Blob ? content.type : '');
  return {
    file: new Blob([content as BlobPart], { type }),
    name: path.slice(slash + 1),
    path: slash < 0 ? '' : path.slice(0, slash),
  };
}

async function createRows(master: Client, tables: Record<string, SeedRow[]>): Promise<CreatedRow[]> {
  const created: CreatedRow[] = [];
  for (const [table, rows] of Object.entries(tables)) {
    for (const [i, row] of rows.entries()) {
      const { _id, createdAt, updatedAt, ...columns } = row;
      const answer = await step(`seed tables.${table}[${i}]`, master.db.table(table).create(columns as never));
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
async function sendScores(clientOf: () => Client, scores: SeedScore[], passwords: Map<string, string>): Promise<void> {
  const players = new Map<string, Client>();
  for (const [i, { username, event, values }] of scores.entries()) {
    const what = `seed scores[${i}] "${username}"`;
    let player = players.get(username);
    if (!player) {
      const password = passwords.get(username);
      if (password === undefined)
        throw new Error(`${what}: the user was not seeded here, so its password is unknown; seed the user first`);
      player = clientOf();
      await step(what, player.auth.login(username, password));
      players.set(username, player);
    }
    await step(what, player.leaderboards.sendEvent(event, values));
  }
  for (const player of players.values()) await step('seed: logout', player.auth.logout());
}
