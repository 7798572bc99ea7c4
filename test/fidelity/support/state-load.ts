import { DEFAULT_CONFIG } from '@basekit/engine';

/**
 * A load of writes of every kind of state (users, e-mail confirmations and the outbox, sessions, rows with types,
 * ACL and relations, increments, leaderboard scores and their tie-break order, transcoder settings and jobs, config
 * changes, the clock), with what each answered write must still show after a restart. Used by the kill-restart
 * rounds of `persistence.test.ts`.
 */

const { authenticationId, clientKey, masterKey, objectStorageId, gameId } = DEFAULT_CONFIG;
const BOARD = DEFAULT_CONFIG.leaderboards![0]!.id;
const admin = { 'X-Service-Authentication-Key': masterKey };
const json = { 'Content-Type': 'application/json' };

/** A write answered 2xx, and how to tell after a restart whether it was kept. */
export interface Acknowledged {
  kind: string;
  /** Resolves to a problem when the write was lost, undefined when it is there. */
  check(client: Client): Promise<string | undefined>;
}

/** Calls to one server process; `master` is a master access token, made after each start. */
export class Client {
  constructor(
    readonly url: string,
    readonly master: string,
  ) {}

  static async connect(url: string): Promise<Client> {
    const res = await fetch(`${url}/auth/login`, {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, ...admin },
    });
    return new Client(url, ((await res.json()) as { access_token: string }).access_token);
  }

  fetch(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${this.url}${path}`, init);
  }

  /** The JSON answer of a call, or an error naming its status. */
  async ok(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const res = await this.fetch(path, init);
    const body = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status} ${JSON.stringify(body)}`);
    return body;
  }

  adminJson(path: string, method: string, body: unknown): Promise<Record<string, unknown>> {
    return this.ok(path, { method, headers: { ...admin, ...json }, body: JSON.stringify(body) });
  }

  db(token: string): Record<string, string> {
    return { 'X-Service-Object-Storage-Id': objectStorageId, Authorization: `Bearer ${token}`, ...json };
  }

  register(username: string): Promise<Record<string, unknown>> {
    return this.ok('/auth/users', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, ...json },
      body: JSON.stringify({ username, password: `pw-${username}`, email: `${username}@example.com` }),
    });
  }

  login(fields: Record<string, string>, refresh = false): Promise<Response> {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return this.fetch('/auth/login', {
      method: 'POST',
      headers: {
        'X-Service-Authentication-Id': authenticationId,
        'X-Service-Authentication-Key': clientKey,
        ...(refresh && { 'X-Service-Authentication-Refresh': '1' }),
      },
      body,
    });
  }
}

const expectStatus = async (res: Promise<Response>, status: number, what: string) => {
  const answer = await res;
  await answer.arrayBuffer();
  return answer.status === status ? undefined : `${what} answered ${answer.status}`;
};

/** Names are never reused across workers and rounds. */
let serial = 0;
const next = () => ++serial;

/** The server went away mid-request (the kill): the worker stops, its last write undecided. */
class Gone extends Error {}
async function send<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TypeError) throw new Gone(); // fetch failed: the connection dropped
    throw error;
  }
}

/** Values that only grow, read back after a restart: at least the last answered, at most the last sent. */
class Growing {
  acked = 0;
  sent = 0;

  check(kind: string, value: number): string | undefined {
    return value >= this.acked && value <= this.sent
      ? undefined
      : `${kind}: ${value} is outside [${this.acked}, ${this.sent}] (answered, sent)`;
  }
}

/** Models of what grows across rounds: the config value, the clock and a counter column. */
export interface Growth {
  config: Growing;
  clock: Growing;
  counter: Growing;
  counterId?: string;
  /** Users whose equal scores were answered, in the order they were: their ranks must grow in that order. */
  ties: string[];
}

export const newGrowth = (): Growth => ({
  config: new Growing(),
  clock: new Growing(),
  counter: new Growing(),
  ties: [],
});

/** A user who registers, confirms through the e-mail link, logs in; each answered step is checked after restarts. */
async function userWorker(client: Client, acked: Acknowledged[]): Promise<void> {
  for (;;) {
    const username = `u${next()}`;
    const { userId } = (await send(() => client.register(username))) as { userId: string };
    acked.push({
      kind: 'user (password hash)',
      check: (c) =>
        expectStatus(
          c.fetch(`/auth/users/${userId}`, {
            headers: { 'X-Service-Authentication-Id': authenticationId, Authorization: `Bearer ${c.master}` },
          }),
          200,
          `user ${username}`,
        ),
    });
    acked.push({
      kind: 'outbox',
      check: async (c) =>
        ((await c.ok('/__admin/outbox', { headers: admin }))['messages'] as { to: string }[]).some(
          (m) => m.to === `${username}@example.com`,
        )
          ? undefined
          : `no mail to ${username}`,
    });
    const { messages } = (await send(() => client.ok('/__admin/outbox', { headers: admin }))) as {
      messages: { to: string; link: string }[];
    };
    const link = messages.find((m) => m.to === `${username}@example.com`)!.link;
    await send(() => client.ok(new URL(link).pathname));
    acked.push({
      kind: 'confirmation',
      check: (c) =>
        expectStatus(c.login({ username, password: `pw-${username}` }), 200, `login of confirmed ${username}`),
    });
    const tokens = (await send(async () => (await client.login({ username, password: `pw-${username}` })).json())) as {
      access_token: string;
      refresh_token: string;
    };
    acked.push({
      kind: 'session (refresh + access token)',
      check: async (c) =>
        (await expectStatus(c.login({ refresh_token: tokens.refresh_token }, true), 200, `renewal for ${username}`)) ??
        (await expectStatus(
          c.fetch('/auth/users/me', {
            headers: {
              'X-Service-Authentication-Id': authenticationId,
              Authorization: `Bearer ${tokens.access_token}`,
            },
          }),
          200,
          `access token of ${username}`,
        )),
    });
  }
}

/** Rows with a date, an ACL and a relation, plus increments of one counter column. */
async function rowWorker(client: Client, acked: Acknowledged[], growth: Growth): Promise<void> {
  const owner = (await send(() => client.register(`owner${next()}`))) as { userId: string };
  if (!growth.counterId)
    growth.counterId = (
      (await send(() =>
        client.ok('/object-storage/classes/Counter', {
          method: 'POST',
          headers: client.db(client.master),
          body: JSON.stringify({ n: 0 }),
        }),
      )) as { _id: string }
    )._id;
  for (;;) {
    const name = `r${next()}`;
    const born = new Date(Date.UTC(2020, 0, 1) + serial * 1000).toISOString();
    const body = {
      name,
      born: { __type: 'Date', iso: born },
      ACL: { [owner.userId]: { read: true, write: true } },
      friends: { __op: 'AddRelation', objects: [{ __type: 'Pointer', className: 'Counter', _id: growth.counterId }] },
    };
    const { _id } = (await send(() =>
      client.ok('/object-storage/classes/Player', {
        method: 'POST',
        headers: client.db(client.master),
        body: JSON.stringify(body),
      }),
    )) as { _id: string };
    acked.push({
      kind: 'row (types, ACL, relation)',
      check: async (c) => {
        const row = await c.ok(`/object-storage/classes/Player/${_id}`, { headers: c.db(c.master) });
        const same =
          row['name'] === name &&
          (row['born'] as { iso: string }).iso === born &&
          (row['ACL'] as Record<string, unknown>)[owner.userId] !== undefined &&
          (row['friends'] as unknown[]).length === 1;
        return same ? undefined : `row ${_id} reads ${JSON.stringify(row)}`;
      },
    });
    growth.counter.sent++;
    await send(() =>
      client.ok(`/object-storage/classes/Counter/${growth.counterId}`, {
        method: 'PUT',
        headers: client.db(client.master),
        body: JSON.stringify({ n: { __op: 'Increment', amount: 1 } }),
      }),
    );
    growth.counter.acked++;
  }
}

/** Players who reach the same score one after the other: the earlier ranks higher, after a restart too. */
async function scoreWorker(client: Client, acked: Acknowledged[], growth: Growth): Promise<void> {
  for (;;) {
    const username = `p${next()}`;
    const { userId } = (await send(() => client.register(username))) as { userId: string };
    const headers = { 'X-Service-Game-Id': gameId, Authorization: `Bearer ${client.master}`, ...json };
    await send(() =>
      client.ok(`/game/events?userId=${userId}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 100 }] }),
      }),
    );
    growth.ties.push(userId);
    acked.push({
      kind: 'score',
      check: async (c) => {
        const { scores } = (await c.ok(`/game/leaderboards/${BOARD}?userId=${userId}`, {
          headers: { ...headers, Authorization: `Bearer ${c.master}` },
        })) as { scores: number[] };
        return scores[0] === 100 ? undefined : `score of ${username} reads ${scores[0]}`;
      },
    });
  }
}

/** Transcoder settings, and jobs that fail at once (nothing listens at their source): kept with how they ended. */
async function transcoderWorker(client: Client, acked: Acknowledged[]): Promise<void> {
  const headers = { Authorization: `Bearer ${client.master}`, ...json };
  for (;;) {
    const name = `hook${next()}`;
    await send(() =>
      client.ok('/metadata/webhook', {
        method: 'POST',
        headers,
        body: JSON.stringify({ name, url: 'http://127.0.0.1:9/hook' }),
      }),
    );
    acked.push({
      kind: 'transcoder setting',
      check: async (c) => {
        const { areas } = (await c.ok('/__admin/state', { headers: admin })) as {
          areas: { transcoder: { settings: { webhook: { name: string }[] } } };
        };
        return areas.transcoder.settings.webhook.some((s) => s.name === name) ? undefined : `setting ${name} missing`;
      },
    });
    const job = await send(() =>
      client.ok('/video/convert', {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: 'http://127.0.0.1:9/video.mp4', upload: 'store', thumbnail: 'shots' }),
      }),
    );
    const { requestId } = job as { requestId: string };
    acked.push({
      kind: 'transcoder job',
      check: async (c) => {
        const { jobs } = (await c.ok('/__admin/jobs', { headers: admin })) as {
          jobs: { requestId: string; state: string }[];
        };
        const found = jobs.find((j) => j.requestId === requestId);
        return found && (found.state === 'rejected' || found.state === 'complete')
          ? undefined
          : `job ${requestId} is ${found?.state ?? 'missing'}`;
      },
    });
  }
}

/** Config changes and clock moves, each a value that only grows. */
async function adminWorker(client: Client, growth: Growth): Promise<void> {
  for (;;) {
    growth.config.sent++;
    await send(() => client.adminJson('/__admin/config', 'PATCH', { transcoderJobHistory: 1000 + growth.config.sent }));
    growth.config.acked = growth.config.sent;
    growth.clock.sent++;
    await send(() => client.adminJson('/__admin/clock', 'POST', { advanceSeconds: 1 }));
    growth.clock.acked = growth.clock.sent;
  }
}

/** Settings every round's jobs need, made once: an upload target and a thumbnail setting. */
export async function prepare(client: Client): Promise<void> {
  const headers = { Authorization: `Bearer ${client.master}`, ...json };
  await client.ok('/metadata/upload', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'store', url: 'http://127.0.0.1:9/files' }),
  });
  await client.ok('/metadata/thumbnail', {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'shots', shots: ['00:00:01'] }),
  });
  await client.adminJson('/__admin/config', 'PATCH', {
    emailConfirmation: true,
    transcoderMaxSettingsPerKind: 1_000_000,
  });
}

/** Runs every worker until the server goes away; answers the number of writes answered per kind. */
export async function runLoad(client: Client, acked: Acknowledged[], growth: Growth): Promise<void> {
  const workers = [
    userWorker(client, acked),
    rowWorker(client, acked, growth),
    scoreWorker(client, acked, growth),
    transcoderWorker(client, acked),
    adminWorker(client, growth),
  ];
  const ended = await Promise.allSettled(workers);
  for (const end of ended) if (end.status === 'rejected' && !(end.reason instanceof Gone)) throw end.reason;
}

/** What grows, read back: problems when a value left its bounds or tied players lost their order. */
export async function checkGrowth(client: Client, growth: Growth): Promise<string[]> {
  const problems: string[] = [];
  const config = await client.ok('/__admin/config', { headers: admin });
  const configValue = (config['transcoderJobHistory'] as number) - 1000;
  const confirmation = config['emailConfirmation'] === true ? undefined : 'emailConfirmation was lost';
  const { clockOffsetMs } = (await client.ok('/__admin/state', { headers: admin })) as { clockOffsetMs: number };
  for (const problem of [
    confirmation,
    growth.config.sent > 0 ? growth.config.check('config', configValue) : undefined,
    growth.clock.check('clock', clockOffsetMs / 1000),
  ])
    if (problem) problems.push(problem);
  growth.config.acked = growth.config.sent = Math.max(configValue, 0);
  growth.clock.acked = growth.clock.sent = clockOffsetMs / 1000;
  if (growth.counterId) {
    const row = await client.ok(`/object-storage/classes/Counter/${growth.counterId}`, {
      headers: client.db(client.master),
    });
    const problem = growth.counter.check('counter', row['n'] as number);
    if (problem) problems.push(problem);
    growth.counter.acked = growth.counter.sent = row['n'] as number;
  }
  const headers = { 'X-Service-Game-Id': gameId, Authorization: `Bearer ${client.master}` };
  let rank = 0;
  for (const userId of growth.ties) {
    const now = ((await client.ok(`/game/leaderboards/${BOARD}?userId=${userId}`, { headers })) as { rank: number })
      .rank;
    if (now <= rank) problems.push(`tie-break order lost: ${userId} ranks ${now}, after a player ranked ${rank}`);
    rank = now;
  }
  return problems;
}
