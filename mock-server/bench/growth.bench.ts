// Per-request costs at a small and at a large project, side by side: each operation asks the same thing of both
// (the same ten matches, the same link), so a cost that grows with the project shows as a ratio above 1. The user
// searches (the service's and the admin API's) at 1,000 and 100,000 users, the project of a confirmation link at 10
// and 1,000 projects, a game event at 1 and 1,000 leaderboards. In the engine, no HTTP, the process's CPU time a
// call, rounds taking turns, medians; "before" is the engine's previous code, copied verbatim into this file, run
// over the same state, and checked to answer the same first. The whole request through `engine.fetch` is printed
// beside. `GROWTH_ONLY=searches|links|events|tables|files` runs one part (links: at 10 and 1,000 projects, then a link
// made and let go at 1,000 and 100,000 links held; tables: the admin's table description, and a row written, at 1,000
// and 100,000 rows; files: the admin's search by name at 10,000 and 1,000,000 files, which still walks them).
import { DEFAULT_CONFIG, type Engine, createEngine, resolveConfig } from '@basekit/engine';
import { type Column, type Row, type Table, databaseState } from '../../packages/engine/src/areas/database/state.js';
import { describeTable, existingTable } from '../../packages/engine/src/areas/database/tables/tables.js';
import { adminListing } from '../../packages/engine/src/areas/files/admin.js';
import { sortedNames } from '../../packages/engine/src/areas/files/listing.js';
import type { FilePath } from '../../packages/engine/src/areas/files/paths.js';
import { filesState } from '../../packages/engine/src/areas/files/state.js';
import { type FileNode, type TreeNode, folderOf } from '../../packages/engine/src/areas/files/tree.js';
import { type Paging, findUsers, searchUsers } from '../../packages/engine/src/areas/users/listing.js';
import { userRecord } from '../../packages/engine/src/areas/users/record.js';
import { type StoredUser, usersState } from '../../packages/engine/src/areas/users/state.js';
import { confirmationToken } from '../../packages/engine/src/shared/confirmation-link.js';
import type { HostedProject } from '../../packages/engine/src/projects/hosted.js';
import { SecretMap } from '../../packages/engine/src/shared/auth/secrets.js';
import type { Project } from '../../packages/engine/src/shared/project.js';
import { SubstringIndex } from '../../packages/engine/src/shared/util/substring-index.js';
import { containsFolded, foldText } from '../../packages/engine/src/shared/util/text-search.js';

const USERS = [1_000, 100_000] as const;
const PROJECTS = [10, 1_000] as const;
const LEADERBOARDS = [1, 1_000] as const;
const LINKS = [1_000, 100_000] as const;
const ROWS = [1_000, 100_000] as const;
const FILES = [10_000, 1_000_000] as const;
const ROUNDS = 12;
/** How long each contender runs in a round. */
const SPAN_MS = 100;
const PAGE: Paging = { page: 0, pageSize: 20 };
const FIRST = ['Ann', 'Bob', 'Chiara', 'Dmitri', 'Emma', 'Farid', 'Grace', 'Hiro', 'Ines', 'José', 'Kai', 'Lena'];
const LAST = ['Rossi', 'Smith', 'Müller', 'García', 'Novak', 'Okafor', 'Tanaka', 'Dubois', 'Silva', 'Nguyen'];

// The engine's searches before the index (packages/engine/src/areas/users/listing.ts), verbatim.
function searchUsersBefore(project: Project, word: string, { page, pageSize }: Paging) {
  const needle = word.toLowerCase();
  const start = page * pageSize;
  const found: StoredUser[] = [];
  let userCount = 0;
  for (const u of project.state(usersState).users.values()) {
    if (![u.firstName, u.lastName, u.username, u.email].some((value) => value.toLowerCase().includes(needle))) continue;
    if (userCount >= start && found.length < pageSize) found.push(u);
    userCount++;
  }
  return { userCount, users: found.map((u) => userRecord(project, u)) };
}
function findUsersBefore(project: Project, filter: { text?: string }, { page, pageSize }: Paging) {
  const needle = filter.text === undefined ? undefined : foldText(filter.text);
  const start = page * pageSize;
  const found: StoredUser[] = [];
  let userCount = 0;
  for (const u of project.state(usersState).users.values()) {
    if (
      needle !== undefined &&
      u.userId !== filter.text &&
      !containsFolded([u.username, u.firstName, u.lastName, u.email, u.phoneNumber], needle)
    )
      continue;
    if (userCount >= start && found.length < pageSize) found.push(u);
    userCount++;
  }
  return { userCount, users: found.map((u) => userRecord(project, u)) };
}

/** `count` users; ten of them, spread over the registration order, are named Quärtz. */
function usersOf(count: number): StoredUser[] {
  return Array.from({ length: count }, (_, i) => ({
    userId: `u${String(i).padStart(23, '0')}`,
    username: `user${i}`,
    firstName: FIRST[i % FIRST.length]!,
    lastName: i % (count / 10) === 7 ? 'Quärtz' : LAST[(i * 7) % LAST.length]!,
    email: `user${i}@example.com`,
    phoneNumber: i % 3 === 0 ? `+39 06 ${1_000_000 + i}` : '',
    avatar: '',
    guest: false,
    active: true,
    extra: {},
    passwordHash: 'x',
    createdAt: 0,
  }));
}

const masterHeaders = { 'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey };
const request = (engine: Engine, path: string, headers: Record<string, string>, init: RequestInit = {}) =>
  engine.fetch(new Request(`http://bench${path}`, { ...init, headers }));

async function masterToken(engine: Engine): Promise<string> {
  const res = await request(
    engine,
    '/auth/login',
    { ...masterHeaders, 'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId },
    { method: 'POST' },
  );
  return ((await res.json()) as { access_token: string }).access_token;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => (value >= 1 ? `${value.toFixed(2)} ms` : `${(value * 1000).toFixed(1)} µs`);
/**
 * The mean CPU time of `run` (the process's, all its threads: garbage collection included), called again and again
 * for at least `SPAN_MS` of wall time (and 3 times). CPU time rather than wall time: on a machine shared with other
 * work, the wall time of a few microseconds mostly measures the waits for a core.
 */
async function time(run: () => unknown): Promise<number> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let calls = 0;
  while (calls < 3 || performance.now() - started < SPAN_MS) {
    await run();
    calls++;
  }
  const { user, system } = process.cpuUsage(cpu);
  return (user + system) / 1000 / calls;
}

/** One operation's contenders, timed in rounds that take turns; each contender's median per size. */
async function rounds(contenders: Record<string, (size: 0 | 1) => () => unknown>) {
  const times = new Map<string, number[]>();
  const names = Object.keys(contenders);
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? [...names].reverse() : names) {
      for (const size of round % 4 < 2 ? ([0, 1] as const) : ([1, 0] as const)) {
        const key = `${name}:${size}`;
        times.set(key, [...(times.get(key) ?? []), await time(contenders[name]!(size))]);
      }
    }
  }
  return (name: string, size: 0 | 1) => median(times.get(`${name}:${size}`)!);
}

/** The head of a table of operations before and now, at the small and the large size, and as whole requests. */
function printHead(requests = 'whole request'): void {
  console.log(
    `| operation | before, small | before, large | large/small | now, small | now, large | large/small | ${requests} now, small | large | large/small |`,
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
}

function row(operation: string, at: (name: string, size: 0 | 1) => number, names: string[]): string {
  const cells = names.flatMap((name) => {
    const [small, large] = [at(name, 0), at(name, 1)];
    return [ms(small), ms(large), `${(large / small).toFixed(2)}×`];
  });
  return `| ${operation} | ${cells.join(' | ')} |`;
}

/** An engine for each size, started from the state `areas` gives for it, with its project and a master token. */
async function enginesOf(sizes: readonly number[], areas: (size: number) => Record<string, unknown>) {
  const engines = await Promise.all(
    sizes.map(async (size) => {
      const engine = createEngine({ initialState: { areas: areas(size) } });
      await engine.ready;
      return engine;
    }),
  );
  const tokens = await Promise.all(engines.map(masterToken));
  return { engines, projects: engines.map((engine) => engine.project), tokens };
}

async function benchSearches(): Promise<void> {
  const { engines, projects, tokens } = await enginesOf(USERS, (count) => ({ users: { users: usersOf(count) } }));
  const someId = (size: 0 | 1) => `u${String(USERS[size] / 2 + 3).padStart(23, '0')}`;
  const operations = [
    {
      name: 'service search `quärtz` (10 of the users)',
      before: (size: 0 | 1) => searchUsersBefore(projects[size]!, 'quärtz', PAGE),
      now: (size: 0 | 1) => searchUsers(projects[size]!, 'quärtz', PAGE),
      path: () => '/auth/users/search?word=qu%C3%A4rtz',
      headers: (size: 0 | 1) => ({
        'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId,
        Authorization: `Bearer ${tokens[size]}`,
      }),
    },
    {
      name: 'admin search `quartz` (10, accents folded)',
      before: (size: 0 | 1) => findUsersBefore(projects[size]!, { text: 'quartz' }, PAGE),
      now: (size: 0 | 1) => findUsers(projects[size]!, { text: 'quartz' }, PAGE),
      path: () => '/__admin/users?q=quartz',
      headers: () => masterHeaders,
    },
    {
      name: 'admin search by a user id (1)',
      before: (size: 0 | 1) => findUsersBefore(projects[size]!, { text: someId(size) }, PAGE),
      now: (size: 0 | 1) => findUsers(projects[size]!, { text: someId(size) }, PAGE),
      path: (size: 0 | 1) => `/__admin/users?q=${someId(size)}`,
      headers: () => masterHeaders,
    },
  ];
  console.log(
    `\nUser searches at ${USERS.map((n) => n.toLocaleString('en')).join(' and ')} users (the same matches in both), in the engine, CPU time a call, median of ${ROUNDS} rounds taking turns\n`,
  );
  printHead();
  for (const op of operations) {
    for (const size of [0, 1] as const) {
      const [before, now] = [JSON.stringify(op.before(size)), JSON.stringify(await op.now(size))];
      const answered = JSON.stringify(await (await request(engines[size]!, op.path(size), op.headers(size))).json());
      if (before !== now || now !== answered)
        throw new Error(`${op.name}: the answers differ\n${before}\n${now}\n${answered}`);
    }
    const at = await rounds({
      before: (size) => () => op.before(size),
      now: (size) => () => op.now(size),
      request: (size) => async () => (await request(engines[size]!, op.path(size), op.headers(size))).arrayBuffer(),
    });
    console.log(row(op.name, at, ['before', 'now', 'request']));
  }

  // The floor: a request that reads nothing of the users, at both sizes (a larger heap costs every request a little).
  const floor = await rounds({
    request: (size) => async () => (await request(engines[size]!, '/__health', {})).arrayBuffer(),
  });
  console.log(
    `| \`GET /__health\` (reads no user), for the floor | | | | | | | ${ms(floor('request', 0))} | ${ms(floor('request', 1))} | ${(floor('request', 1) / floor('request', 0)).toFixed(2)}× |`,
  );

  // What the index holds at the large size: the heap it takes, measured alone over the same texts.
  const users = [...projects[1]!.state(usersState).users.values()];
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const index = new SubstringIndex<StoredUser>();
  for (const u of users) {
    const fields = [u.username, u.firstName, u.lastName, u.email, u.phoneNumber];
    index.add(
      u,
      fields.flatMap((value) => [value.toLowerCase(), foldText(value)]),
    );
  }
  gc?.();
  const bytes = process.memoryUsage().heapUsed - heapBefore;
  console.log(
    `\nThe search index at ${users.length.toLocaleString('en')} users: ${(bytes / 2 ** 20).toFixed(1)} MiB of heap (${Math.round(bytes / users.length)} bytes a user)`,
  );
  if (index.candidates('zzz').next().done !== true) throw new Error('unexpected match');
  await Promise.all(engines.map((engine) => engine.close()));
}

async function benchLinks(): Promise<void> {
  const setups = await Promise.all(
    PROJECTS.map(async (count) => {
      const engine = createEngine();
      await engine.ready;
      let last = { id: DEFAULT_CONFIG.authenticationId, masterKey: DEFAULT_CONFIG.masterKey };
      for (let i = 1; i < count; i++) {
        const res = await request(
          engine,
          '/__admin/projects',
          { ...masterHeaders, 'Content-Type': 'application/json' },
          {
            method: 'POST',
            body: '{}',
          },
        );
        const { config } = (await res.json()) as { config: { authenticationId: string; masterKey: string } };
        last = { id: config.authenticationId, masterKey: config.masterKey };
      }
      // The link is the last project's: before, every project was asked before it.
      const token = 'ab'.repeat(32);
      const state = {
        areas: {
          users: {
            users: usersOf(10).map((u, i) => ({ ...u, active: i !== 0 })),
            confirmations: [[token, usersOf(10)[0]!.userId]],
          },
        },
      };
      const imported = await request(
        engine,
        '/__admin/state',
        { 'X-Service-Authentication-Id': last.id, 'X-Service-Authentication-Key': last.masterKey },
        { method: 'PUT', body: JSON.stringify(state) },
      );
      if (imported.status !== 200) throw new Error(`import failed: ${imported.status}`);
      return { engine, path: `/auth/confirm/${token}`, lastId: last.id };
    }),
  );
  const registry = (size: 0 | 1) => setups[size]!.engine.projects.registry;
  const linkRequest = (size: 0 | 1) => new Request(`http://bench${setups[size]!.path}`);
  // Before: each project asked in turn whether it made the link (the registry's `#byPath`, the users area's
  // `isConfirmationLink`).
  const token = confirmationToken(setups[0]!.path)!;
  const before = (size: 0 | 1) =>
    registry(size)
      .list()
      .find(({ project }) => project.state(usersState).confirmations.get(token) !== undefined);
  for (const size of [0, 1] as const) {
    const lastId = setups[size]!.lastId;
    if (before(size)?.project.config.authenticationId !== lastId) throw new Error('before: another project');
    if (registry(size).resolve(linkRequest(size)).project.config.authenticationId !== lastId)
      throw new Error('now: another project');
    if ((await setups[size]!.engine.fetch(linkRequest(size))).status !== 200) throw new Error('the link fails');
  }
  const at = await rounds({
    before: (size) => () => before(size),
    now: (size) => () => registry(size).resolve(linkRequest(size)),
    request: (size) => async () => (await setups[size]!.engine.fetch(linkRequest(size))).arrayBuffer(),
    floor: (size) => async () => (await setups[size]!.engine.fetch(new Request('http://bench/__health'))).arrayBuffer(),
  });
  console.log(
    `\nThe project of a confirmation link at ${PROJECTS.map((n) => n.toLocaleString('en')).join(' and ')} projects (the link is the last project's), CPU time a call, median of ${ROUNDS} rounds taking turns ("now" includes building the Request)\n`,
  );
  printHead();
  console.log(row('`GET /auth/confirm/<token>`: its project', at, ['before', 'now', 'request']));
  console.log(
    `| \`GET /__health\` (no link), for the floor | | | | | | | ${ms(at('floor', 0))} | ${ms(at('floor', 1))} | ${(at('floor', 1) / at('floor', 0)).toFixed(2)}× |`,
  );
  await Promise.all(setups.map(({ engine }) => engine.close()));
}

/**
 * The registry's links before they were exact (`projects/registry.ts`), verbatim but for the rebuild run at once
 * rather than in a microtask (the same work): a link let go stayed in the map, rebuilt from every project's links
 * once it had doubled since last (+1,024).
 */
class LinksBefore {
  links = new SecretMap<HostedProject>();
  linksKept = 0;
  constructor(readonly hosted: readonly HostedProject[]) {
    for (const each of hosted) for (const link of each.project.links()) this.links.set(link, each);
    this.linksKept = this.links.size;
  }
  linkMade(token: string, hosted: HostedProject): void {
    this.links.set(token, hosted);
    if (this.links.size <= 2 * this.linksKept + 1024) return;
    this.links = new SecretMap();
    for (const each of this.hosted) for (const link of each.project.links()) this.links.set(link, each);
    this.linksKept = this.links.size;
  }
}

/** A link made and let go (its user registered, then deleted) in a project holding 1,000 and 100,000 links. */
async function benchLinksHeld(): Promise<void> {
  let made = 0;
  const freshToken = () => `${(made++).toString(16).padStart(16, '0')}${'e'.repeat(48)}`;
  const setups = await Promise.all(
    LINKS.map(async (count) => {
      const users = usersOf(count).map((user) => ({ ...user, active: false }));
      const confirmations = users.map(({ userId }) => [freshToken(), userId]);
      const engine = createEngine({
        config: resolveConfig({ ...DEFAULT_CONFIG, emailConfirmation: true }),
        initialState: { areas: { users: { users, confirmations } } },
      });
      await engine.ready;
      const { registry } = engine.projects;
      if (registry.links !== count) throw new Error(`${registry.links} links held, not ${count}`);
      return { engine, registry, hosted: registry.defaultProject, before: new LinksBefore(registry.list()) };
    }),
  );
  const tokens = await Promise.all(setups.map(({ engine }) => masterToken(engine)));
  let registered = 0;
  const registerAndDelete = (size: 0 | 1) => async () => {
    const { engine } = setups[size]!;
    const headers = { 'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId };
    const body = JSON.stringify({ username: `passing${registered++}`, password: 'pw', email: 'p@example.com' });
    const res = await request(
      engine,
      '/auth/users',
      { ...headers, 'Content-Type': 'application/json' },
      {
        method: 'POST',
        body,
      },
    );
    const { userId } = (await res.json()) as { userId: string };
    const deleted = await request(
      engine,
      `/auth/users/${userId}`,
      { ...headers, Authorization: `Bearer ${tokens[size]}` },
      { method: 'DELETE' },
    );
    if (deleted.status !== 200) throw new Error(`the deletion failed: ${deleted.status}`);
    await deleted.arrayBuffer();
  };
  const at = await rounds({
    before: (size) => () => setups[size]!.before.linkMade(freshToken(), setups[size]!.hosted),
    now: (size) => () => {
      const token = freshToken();
      setups[size]!.hosted.project.linkMade(token);
      setups[size]!.hosted.project.linkDropped(token);
    },
    request: registerAndDelete,
  });
  console.log(
    `\nA confirmation link made and let go in a project holding ${LINKS.map((n) => n.toLocaleString('en')).join(' and ')} links: the registry's part, and the whole requests (register with \`emailConfirmation\`, delete the user), CPU time a call, median of ${ROUNDS} rounds taking turns\n`,
  );
  printHead('whole requests');
  console.log(row('a link made and let go', at, ['before', 'now', 'request']));
  const sizes = setups.map(
    ({ registry, before }) =>
      `${registry.links.toLocaleString('en')} (before: ${before.links.size.toLocaleString('en')})`,
  );
  console.log(`\nLinks in the registry after the rounds: ${sizes.join(' and ')}`);
  for (const [size, { registry }] of setups.entries())
    if (registry.links !== LINKS[size]) throw new Error(`the registry holds ${registry.links} links`);
  await Promise.all(setups.map(({ engine }) => engine.close()));
}

/** A project whose `count` leaderboards are all on other events than `match_end` but one. */
async function gameEngine(count: number): Promise<{ engine: Engine; token: string }> {
  const others = Array.from({ length: count - 1 }, (_, i) => `other_${i}`);
  const config = resolveConfig({
    ...DEFAULT_CONFIG,
    events: [{ name: 'match_end', fields: ['score'] }, ...others.map((name) => ({ name, fields: ['score'] }))],
    leaderboards: [
      { id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] },
      ...others.map((name) => ({ id: name, fields: [{ event: name, field: 'score' }] })),
    ],
  });
  const engine = createEngine({ config });
  await engine.ready;
  const idHeader = { 'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId };
  const json = { ...idHeader, 'Content-Type': 'application/json' };
  await request(engine, '/auth/users', json, { method: 'POST', body: '{"username":"ann","password":"pw"}' });
  const form = new FormData();
  form.set('username', 'ann');
  form.set('password', 'pw');
  const login = await request(
    engine,
    '/auth/login',
    { ...idHeader, 'X-Service-Authentication-Key': DEFAULT_CONFIG.clientKey },
    { method: 'POST', body: form },
  );
  return { engine, token: ((await login.json()) as { access_token: string }).access_token };
}

async function benchEvents(): Promise<void> {
  const games = await Promise.all(LEADERBOARDS.map(gameEngine));
  const event = (size: 0 | 1) => async () => {
    const { engine, token } = games[size]!;
    const res = await request(
      engine,
      '/game/events',
      {
        'X-Service-Game-Id': DEFAULT_CONFIG.gameId,
        'Content-Type': 'application/json',
        Authorization: `Bearer ${token}`,
      },
      { method: 'POST', body: '{"eventName":"match_end","fieldsAndValues":[{"fieldName":"score","value":3}]}' },
    );
    if (res.status !== 200) throw new Error(`the event failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const at = await rounds({ request: event });
  console.log(
    `\nA game event feeding one leaderboard, in a project of ${LEADERBOARDS.map((n) => n.toLocaleString('en')).join(' and ')} leaderboards (the others on other events), CPU time a call, median of ${ROUNDS} rounds taking turns\n`,
  );
  console.log('| operation | whole request now, small | large | large/small |');
  console.log('|---|---|---|---|');
  console.log(
    `| \`POST /game/events\` | ${ms(at('request', 0))} | ${ms(at('request', 1))} | ${(at('request', 1) / at('request', 0)).toFixed(2)}× |`,
  );
  await Promise.all(games.map(({ engine }) => engine.close()));
}

// The admin's table description before its counts were kept (packages/engine/src/areas/database/tables/tables.ts),
// verbatim but for the names (a pass over the rows per column).
function rowsWithValueBefore(table: Table, column: string, { type }: Column): number {
  let count = 0;
  if (type === 'Relation') {
    for (const byColumn of table.relations.values()) if ((byColumn.get(column)?.size ?? 0) > 0) count++;
    return count;
  }
  for (const row of table.rows.values()) if (Object.hasOwn(row, column) && row[column] !== undefined) count++;
  return count;
}
const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
const columnJson = (name: string, { type, targetClass }: Column) => ({
  name,
  type,
  ...(targetClass !== undefined && { targetClass }),
});
function describeTableBefore(project: Project, name: string) {
  const table = existingTable(project, name);
  const referencedBy: { table: string; column: string; type: 'Pointer' | 'Relation'; rowsWithValue: number }[] = [];
  for (const [other, owner] of [...project.state(databaseState).tables].sort(byName)) {
    for (const [column, type] of owner.columns) {
      if (type.targetClass !== name || (type.type !== 'Pointer' && type.type !== 'Relation')) continue;
      referencedBy.push({
        table: other,
        column,
        type: type.type,
        rowsWithValue: rowsWithValueBefore(owner, column, type),
      });
    }
  }
  return {
    name,
    rowCount: table.rows.size,
    columns: [...table.columns].map(([column, type]) => ({
      ...columnJson(column, type),
      rowsWithValue: rowsWithValueBefore(table, column, type),
    })),
    referencedBy,
  };
}

/** A table `Note` of `count` rows, eight columns, some of them held by only a part of the rows. */
function notesOf(count: number): { columns: Record<string, Column>; rows: Row[]; relations: object } {
  const at = '2024-01-01T00:00:00.000Z';
  const rows = Array.from(
    { length: count },
    (_, i): Row => ({
      _id: `n${String(i).padStart(9, '0')}`,
      createdAt: at,
      updatedAt: at,
      title: `note ${i}`,
      views: i,
      done: i % 2 === 0,
      tags: ['a', 'b'],
      ...(i % 3 === 0 && { note: 'x' }),
      ...(i % 5 === 0 && { score: i / 5 }),
      ...(i % 7 === 0 && { meta: { i } }),
      author: { __type: 'Pointer', className: 'Author', objectId: 'a000000001' },
    }),
  );
  const types: [string, Column['type']][] = [
    ['title', 'String'],
    ['views', 'Number'],
    ['done', 'Boolean'],
    ['tags', 'Array'],
    ['note', 'String'],
    ['score', 'Number'],
    ['meta', 'Object'],
  ];
  const columns: Record<string, Column> = Object.fromEntries(types.map(([name, type]) => [name, { type }]));
  columns['author'] = { type: 'Pointer', targetClass: 'Author' };
  return { columns, rows, relations: {} };
}

async function benchTables(): Promise<void> {
  const { engines, projects, tokens } = await enginesOf(ROWS, (count) => ({ database: { Note: notesOf(count) } }));
  const rowHeaders = (size: 0 | 1) => ({
    'X-Service-Object-Storage-Id': DEFAULT_CONFIG.objectStorageId,
    Authorization: `Bearer ${tokens[size]}`,
    'Content-Type': 'application/json',
  });
  const describePath = '/__admin/database/tables/Note';
  // The first description counts the rows (once): its CPU time, one call at each size.
  const firstMs: number[] = [];
  for (const size of [0, 1] as const) {
    const cpu = process.cpuUsage();
    const now = JSON.stringify(describeTable(projects[size]!, 'Note'));
    const { user, system } = process.cpuUsage(cpu);
    firstMs.push((user + system) / 1000);
    const before = JSON.stringify(describeTableBefore(projects[size]!, 'Note'));
    const answered = JSON.stringify(await (await request(engines[size]!, describePath, masterHeaders)).json());
    if (before !== now || now !== answered) throw new Error(`the descriptions differ\n${before}\n${now}\n${answered}`);
  }
  const description = await rounds({
    before: (size) => () => describeTableBefore(projects[size]!, 'Note'),
    now: (size) => () => describeTable(projects[size]!, 'Note'),
    request: (size) => async () => (await request(engines[size]!, describePath, masterHeaders)).arrayBuffer(),
  });
  // A write that gives the row a value in a column, or takes it: each one changes a count.
  let writes = 0;
  const write = (size: 0 | 1) => async () => {
    const body = writes++ % 2 ? '{"note":{"__op":"Delete"}}' : '{"note":"y","views":1}';
    const res = await request(engines[size]!, '/object-storage/classes/Note/n000000001', rowHeaders(size), {
      method: 'PUT',
      body,
    });
    if (res.status !== 200) throw new Error(`the write failed: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  const written = await rounds({ request: write });
  for (const size of [0, 1] as const)
    if (
      JSON.stringify(describeTableBefore(projects[size]!, 'Note')) !==
      JSON.stringify(describeTable(projects[size]!, 'Note'))
    )
      throw new Error('the counts kept differ from the rows after the writes');
  console.log(
    `\nThe admin's table description (\`GET ${describePath}\`, eight columns) and a row written, at ${ROWS.map((n) => n.toLocaleString('en')).join(' and ')} rows, CPU time a call, median of ${ROUNDS} rounds taking turns (the counts kept since the first description)\n`,
  );
  printHead();
  console.log(row('the table described', description, ['before', 'now', 'request']));
  console.log(
    `| the first description, which counts the rows (one call) | | | | ${ms(firstMs[0]!)} | ${ms(firstMs[1]!)} | ${(firstMs[1]! / firstMs[0]!).toFixed(2)}× | | | |`,
  );
  console.log(
    `| \`PUT\` a row, a count changed | | | | | | | ${ms(written('request', 0))} | ${ms(written('request', 1))} | ${(written('request', 1) / written('request', 0)).toFixed(2)}× |`,
  );
  await Promise.all(engines.map((engine) => engine.close()));
}

// The admin's search of files by name before it walked in the folders' own order and folded ASCII names by lower
// case alone (packages/engine/src/areas/files/admin.ts, shared/util/text-search.ts), verbatim but for the names.
const SPELT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };
function foldTextBefore(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøłđðþı]/g, (letter) => SPELT[letter]!);
}
function* matchesBelowBefore(node: TreeNode, path: FilePath, needle: string): Generator<[FilePath, TreeNode]> {
  if (node.kind !== 'folder') return;
  for (const name of sortedNames(node)) {
    const child = node.children.get(name)!;
    const childPath = [...path, name];
    if (foldTextBefore(name).includes(needle)) yield [childPath, child];
    yield* matchesBelowBefore(child, childPath, needle);
  }
}

/** `count` files in folders of 1,000; ten of them, spread over the folders, are named like quartz. */
function filesOf(count: number) {
  const base = { guid: 'g', ownerId: null, created: 0, modified: 0 };
  const file = (guid: string): FileNode => ({
    kind: 'file',
    ...base,
    guid,
    size: 1,
    md5: '',
    crc: '',
    contentType: 'image/jpeg',
    blobKey: guid,
  });
  const folders = new Map<string, TreeNode>();
  for (let f = 0; f < count / 1000; f++) {
    const files = new Map<string, TreeNode>();
    for (let i = 0; i < 1000; i++) {
      const n = f * 1000 + i;
      files.set(`IMG_${n}${n % (count / 10) === 7 ? '-Quartz' : ''}.jpg`, file(`f${n}`));
    }
    folders.set(`album-${f}`, folderOf({ ...base, guid: `a${f}` }, files));
  }
  return folderOf(base, folders);
}

async function benchFiles(): Promise<void> {
  const { engines, projects } = await enginesOf(FILES, () => ({}));
  for (const [size, project] of projects.entries()) project.state(filesState).root = filesOf(FILES[size]!);
  const page = { name: 'quartz', page: 0, pageSize: 20 };
  const searchPath = '/__admin/files?name=quartz';
  for (const size of [0, 1] as const) {
    const before = [...matchesBelowBefore(projects[size]!.state(filesState).root, [], 'quartz')].map(([path]) =>
      path.join('/'),
    );
    const now = adminListing(projects[size]!, [], page);
    const answered = (await (await request(engines[size]!, searchPath, masterHeaders)).json()) as typeof now;
    const urls = now.entries.map((entry) => entry.url.split('/').slice(2).join('/'));
    if (now.total !== 10 || before.join() !== urls.join() || JSON.stringify(answered) !== JSON.stringify(now))
      throw new Error(`the searches differ\n${before}\n${urls}`);
  }
  const at = await rounds({
    before: (size) => () => [...matchesBelowBefore(projects[size]!.state(filesState).root, [], 'quartz')],
    now: (size) => () => adminListing(projects[size]!, [], page),
    request: (size) => async () => (await request(engines[size]!, searchPath, masterHeaders)).arrayBuffer(),
  });
  console.log(
    `\nThe admin's search of files by name (\`GET ${searchPath}\`, the same ten matches) at ${FILES.map((n) => n.toLocaleString('en')).join(' and ')} files, CPU time a call, median of ${ROUNDS} rounds taking turns\n`,
  );
  printHead();
  console.log(row('the search by name', at, ['before', 'now', 'request']));
  await Promise.all(engines.map((engine) => engine.close()));
}

const only = process.env['GROWTH_ONLY'];
if (!only || only === 'searches') await benchSearches();
if (!only || only === 'links') {
  await benchLinks();
  await benchLinksHeld();
}
if (!only || only === 'events') await benchEvents();
if (!only || only === 'tables') await benchTables();
if (!only || only === 'files') await benchFiles();
