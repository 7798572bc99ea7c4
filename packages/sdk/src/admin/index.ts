/**
 * `@basekit/sdk/admin`: the typed client of the reference server's admin API (`/__admin/...`, tag `admin` of the
 * contract), for tests and tools. Apps never need it, and an app that imports only `@basekit/sdk` bundles none of it.
 *
 * @example
 * import { createAdminClient } from '@basekit/sdk/admin';
 * const admin = createAdminClient({ baseUrl: 'http://127.0.0.1:3000', masterKey: 'dev-master-key' });
 * await admin.reset();
 * await admin.clock.advance(7200); // every access token of the project has expired
 * const [mail] = await admin.outbox();
 *
 * @module @basekit/sdk/admin
 */
import { createHttpClient, dataOf, type TransportOptions } from '../core/core.js';
import { NetworkError } from '../core/errors.js';
import type { CallOptions } from '../core/options.js';
import type { components, paths } from '../generated/schema.js';
import { serverSentEvents } from './events.js';
import { type ExpectedRequests, verificationError } from './expect.js';

export { VerificationError, type ExpectedRequests } from './expect.js';

type Schemas = components['schemas'];

/**
 * A project's config as the server resolved it, every default filled in.
 *
 * @example
 * const config: Config = await admin.config.get();
 * const client = createClient({ baseUrl, authenticationId: config.authenticationId, clientKey: config.clientKey });
 */
export type Config = Schemas['Config'];
/**
 * Config keys, any of them: what `config.update` and `projects.create` take.
 *
 * @example
 * const keys: ConfigKeys = { emailConfirmation: true, accessTokenTtlSeconds: 60 };
 * await admin.config.update(keys);
 */
export type ConfigKeys = Schemas['ConfigKeys'];
/**
 * The server clock: its time and how far it was moved ahead of real time.
 *
 * @example
 * const { now, offsetSeconds }: ClockReading = await admin.clock.read(); // offsetSeconds: 7200 after advance(7200)
 */
export type ClockReading = Schemas['AdminClock'];
/**
 * An e-mail the service would have sent.
 *
 * @example
 * const [mail]: Mail[] = await admin.outbox();
 * expect(mail).toMatchObject({ to: 'ann@example.com' });
 * await fetch(mail.link!); // confirms the registration
 */
export type Mail = Schemas['AdminMail'];
/**
 * A project's whole state, as exported.
 *
 * @example
 * const seeded: StateExport = await admin.state.export();
 * beforeEach(() => admin.state.import(seeded));
 */
export type StateExport = Schemas['AdminState'];
/**
 * A state to import: an export, parts left out starting empty.
 *
 * @example
 * const onlyMail: StateImport = { outbox: [{ to: 'ann@example.com', subject: 'Welcome', text: 'Hello' }] };
 * await admin.state.import(onlyMail);
 */
export type StateImport = Schemas['AdminStateImport'];
/**
 * What an import restored, counted: settings, the clock's offset, the outbox, and each area's counts by kind.
 *
 * @example
 * const summary: StateSummary = await admin.state.import(seeded);
 * console.log(summary.areas['database']); // rows by table
 */
export type StateSummary = Schemas['AdminStateSummary'];
/**
 * A user's record.
 *
 * @example
 * const user: UserRecord = await admin.users.activate(userId);
 */
export type UserRecord = Schemas['User'];
/**
 * A page of users and how many match in all.
 *
 * @example
 * const { userCount, users }: UserList = await admin.users.find({ q: 'garcia' });
 */
export type UserList = Schemas['UserList'];
/**
 * Which users `users.find` answers: every given part must match.
 *
 * @example
 * const activeGarcias: UserFilter = { q: 'garcia', active: 'true' };
 * const { users } = await admin.users.find(activeGarcias);
 */
export type UserFilter = NonNullable<paths['/__admin/users']['get']['parameters']['query']>;
/**
 * A file or folder of the storage, with its Content-Type (files) and last change.
 *
 * @example
 * const [first]: FileEntry[] = (await admin.files.list({ path: 'photos' })).entries;
 * if (!first.isDirectory) console.log(first.url, first.contentType);
 */
export type FileEntry = Schemas['AdminFileEntry'];
/**
 * A location of the storage and a page of the entries below it.
 *
 * @example
 * const { entry, entries }: FileListing = await admin.files.list({ path: 'photos' });
 */
export type FileListing = Schemas['AdminFileListing'];
/**
 * Which location `files.list` looks at, and which entries below it.
 *
 * @example
 * const cats: FileQuery = { path: 'photos', name: 'cat' };
 * const { entries } = await admin.files.list(cats);
 */
export type FileQuery = NonNullable<paths['/__admin/files']['get']['parameters']['query']>;
/**
 * The answered requests as a HAR 1.2 log.
 *
 * @example
 * const har: Har = await admin.requests.har();
 * writeFileSync('requests.har', JSON.stringify(har));
 */
export type Har = Schemas['AdminHar'];
/**
 * Which answered requests a HAR export holds: the list's filters and the newest `limit`.
 *
 * @example
 * const failures: HarFilter = { status: '5xx', limit: 100 };
 * const har = await admin.requests.har(failures);
 */
export type HarFilter = NonNullable<paths['/__admin/requests/har']['get']['parameters']['query']>;
/**
 * A database table with its row count and column types.
 *
 * @example
 * const notes: TableSummary | undefined = (await admin.database.tables()).find((table) => table.name === 'Note');
 * expect(notes?.rowCount).toBe(3);
 */
export type TableSummary = Schemas['AdminTable'];
/**
 * A database table with the rows holding a value in each column, and the columns of every table pointing into it.
 *
 * @example
 * const { rowCount, columns, referencedBy }: TableSchema = await admin.database.table('Author');
 * console.log(columns.map((c) => `${c.name}: ${c.rowsWithValue} of ${rowCount}`), referencedBy);
 */
export type TableSchema = Schemas['AdminTableSchema'];
/**
 * A column's name and type (and target table, for a pointer or relation).
 *
 * @example
 * const likes: ColumnDefinition = { name: 'likes', type: 'Relation', targetClass: 'Author' };
 * await admin.database.importRows('Note', rows, { columns: [likes] });
 */
export type ColumnDefinition = Schemas['AdminColumn'];
/**
 * A transcoder convert job with its deliveries, calls and the converter's log.
 *
 * @example
 * const [job]: TranscoderJob[] = await admin.transcoder.jobs();
 * if (job.state === 'rejected') console.log(job.reason, job.log.at(-1)?.output);
 */
export type TranscoderJob = Schemas['AdminTranscoderJob'];
/**
 * Every transcoder settings record: the project's and each user's.
 *
 * @example
 * const { settings, userSettings }: TranscoderSettings = await admin.transcoder.settings();
 * expect(settings.webhook).toHaveLength(1);
 */
export type TranscoderSettings = Schemas['AdminTranscoderSettings'];
/**
 * How convert jobs are scheduled and deliveries retried.
 *
 * @example
 * const { concurrency, deliveryAttempts }: TranscoderPolicy = await admin.transcoder.policy();
 */
export type TranscoderPolicy = Schemas['AdminTranscoderPolicy'];
/**
 * Keys of the transcoder's policy to change.
 *
 * @example
 * const noRetries: TranscoderPolicyPatch = { deliveryAttempts: 1, retryDelayMs: 0 };
 * await admin.transcoder.updatePolicy(noRetries);
 */
export type TranscoderPolicyPatch = Schemas['AdminTranscoderPolicyPatch'];
/**
 * One answered request, as the inspector lists it.
 *
 * @example
 * const [last]: RequestSummary[] = (await admin.requests.list()).requests;
 * console.log(last.method, last.path, last.status, last.caller.kind);
 */
export type RequestSummary = Schemas['AdminRequestSummary'];
/**
 * One answered request in full: headers (secrets masked) and bodies.
 *
 * @example
 * const details: RequestDetails = await admin.requests.get(id);
 * if (details.request.body.kind === 'json') console.log(details.request.body.json);
 */
export type RequestDetails = Schemas['AdminRequestDetails'];
/**
 * One page of answered requests, newest first.
 *
 * @example
 * let page: RequestPage = await admin.requests.list({ limit: 50 });
 * while (page.next) page = await admin.requests.list({ limit: 50, before: page.next });
 */
export type RequestPage = Schemas['AdminRequestPage'];
/**
 * Which answered requests a page lists, and how many: every given part must match.
 *
 * @example
 * const failedWrites: RequestFilter = { area: 'database', status: '4xx' };
 * const { requests } = await admin.requests.list(failedWrites);
 */
export type RequestFilter = NonNullable<paths['/__admin/requests']['get']['parameters']['query']>;
/**
 * A body as the inspector shows it.
 *
 * @example
 * const body: BodyView = (await admin.requests.get(id)).response.body;
 * if (body.kind === 'omitted') console.log(`not shown (${body.reason})`);
 */
export type BodyView = Schemas['AdminBodyView'];
/**
 * Who made a request.
 *
 * @example
 * const caller: Caller = (await admin.requests.get(id)).caller;
 * if (caller.kind === 'user') console.log(caller.userId);
 */
export type Caller = Schemas['AdminCaller'];
/**
 * The part of the service a request went to.
 *
 * @example
 * const area: InspectedArea = 'storage';
 * const { requests } = await admin.requests.list({ area });
 */
export type InspectedArea = Schemas['AdminInspectedArea'];
/**
 * A project of the server: its id (the authentication id) and its config.
 *
 * @example
 * const project: ServerProject = await admin.projects.create({ emailConfirmation: true });
 * const own = createAdminClient({ baseUrl, masterKey: project.config.masterKey, authenticationId: project.id });
 */
export type ServerProject = Schemas['AdminProject'];
/**
 * A fault to set: which requests, and what happens to them.
 *
 * @example
 * const slowQueries: FaultSpec = { path: '/object-storage/classes/query/{tableName}', delayMs: 2000 };
 * await admin.faults.add(slowQueries);
 */
export type FaultSpec = Schemas['AdminFaultSpec'];
/**
 * A fault set on the project, with what is left of `times` and how often it applied.
 *
 * @example
 * const fault: Fault = await admin.faults.add({ method: 'POST', path: '/auth/login', status: 503, times: 1 });
 * const [{ remaining, applied }] = await admin.faults.list(); // 1 and 0 until a login comes
 */
export type Fault = Schemas['AdminFault'];
/**
 * A named snapshot of the project.
 *
 * @example
 * const saved: Snapshot = await admin.snapshots.save('seeded');
 * saved.createdAt; // when, on the server's clock
 */
export type Snapshot = Schemas['AdminSnapshot'];

/**
 * What the admin client needs: the server and the key of the project it acts on.
 *
 * @example
 * const options: AdminClientOptions = { baseUrl: 'http://127.0.0.1:3000', masterKey: 'dev-master-key', headerWord: 'Backtory' };
 * const admin = createAdminClient(options);
 */
export interface AdminClientOptions extends TransportOptions {
  /** The server's address, `http://HOST:PORT`. */
  baseUrl: string;
  /**
   * The master key of the project the calls act on. The `projects` calls need the server's admin key: the master key
   * of its default project (the one of its config file).
   */
  masterKey: string;
  /** The project's authentication id, sent along so that the calls reach it whatever its master key. */
  authenticationId?: string;
}

/**
 * The admin API of one project of a reference server: what `createAdminClient` returns.
 *
 * @example
 * export async function expireSessions(admin: AdminClient) {
 *   await admin.clock.advance(7200);
 * }
 */
export type AdminClient = ReturnType<typeof createAdminClient>;

/**
 * Creates the admin client of one project. Each call answers the contract's types and fails with the SDK's errors
 * (`ForbiddenError` without the right key, `NotFoundError`, `ValidationError`…, all `ServiceError`s).
 *
 * @example
 * const admin = createAdminClient({ baseUrl: server.url, masterKey: 'dev-master-key' });
 * const project = await admin.projects.create({ emailConfirmation: true });
 * const own = createAdminClient({ baseUrl: server.url, masterKey: project.config.masterKey, authenticationId: project.id });
 * await own.users.activate(userId);
 */
export function createAdminClient({ baseUrl, masterKey, authenticationId, ...transport }: AdminClientOptions) {
  const http = createHttpClient(
    baseUrl.replace(/\/+$/, ''),
    {
      'X-Service-Authentication-Key': masterKey,
      ...(authenticationId !== undefined && { 'X-Service-Authentication-Id': authenticationId }),
    },
    transport,
  );
  const path = <K extends string>(key: K, value: string) => ({ path: { [key]: value } as Record<K, string> });

  return {
    /** The openapi-fetch client the calls below are made with, typed by the whole contract. */
    http,

    /**
     * The server's liveness check (`GET /__health`), which needs no key.
     *
     * @example
     * await admin.health(); // { status: 'ok' }
     */
    health: ({ signal }: CallOptions = {}) => dataOf(http.GET('/__health', { signal })),

    /**
     * Back to the state right after start-up: the start config, the `--import` state if one was given, else no users,
     * rows, files, jobs or scores.
     *
     * @example
     * beforeEach(() => admin.reset());
     */
    async reset({ signal }: CallOptions = {}): Promise<void> {
      await dataOf(http.POST('/__admin/reset', { signal }));
    },

    /** The server clock, which tokens expire by. */
    clock: {
      /**
       * The server's time and how far it was moved ahead of real time.
       *
       * @example
       * const { now, offsetSeconds } = await admin.clock.read();
       */
      read: ({ signal }: CallOptions = {}): Promise<ClockReading> => dataOf(http.GET('/__admin/clock', { signal })),

      /**
       * The server's time.
       *
       * @example
       * const now = await admin.clock.now();
       */
      async now({ signal }: CallOptions = {}): Promise<Date> {
        return new Date((await dataOf(http.GET('/__admin/clock', { signal }))).now);
      },

      /**
       * Moves the clock forward by `seconds` without waiting and answers the new time.
       *
       * @example
       * await admin.clock.advance(7200); // access tokens issued before have expired
       */
      async advance(seconds: number, { signal }: CallOptions = {}): Promise<Date> {
        const { now } = await dataOf(http.POST('/__admin/clock', { body: { advanceSeconds: seconds }, signal }));
        return new Date(now);
      },
    },

    /**
     * The e-mails the service would have sent, oldest first (registration confirmations with their `link`).
     *
     * @example
     * const link = (await admin.outbox()).find((mail) => mail.to === 'ann@example.com')?.link;
     */
    async outbox({ signal }: CallOptions = {}): Promise<Mail[]> {
      return (await dataOf(http.GET('/__admin/outbox', { signal }))).messages;
    },

    /** The project's whole state. */
    state: {
      /**
       * Exports the state (the clock's offset, the outbox, every area's data).
       *
       * @example
       * const seeded = await admin.state.export();
       */
      export: ({ signal }: CallOptions = {}): Promise<StateExport> => dataOf(http.GET('/__admin/state', { signal })),

      /**
       * Replaces the state with an export, its settings first; all or nothing (a `ValidationError` leaves it as it
       * was). Answers what it restored, counted.
       *
       * @example
       * beforeEach(() => admin.state.import(seeded));
       * const { areas } = await admin.state.import(seeded); // areas.users.users: how many users came back
       */
      async import(state: StateImport, { signal }: CallOptions = {}): Promise<StateSummary> {
        return (await dataOf(http.PUT('/__admin/state', { body: state, signal }))).restored;
      },
    },

    /** The project's config at run time. */
    config: {
      /**
       * The config as the server resolved it.
       *
       * @example
       * const { accessTokenTtlSeconds } = await admin.config.get();
       */
      get: ({ signal }: CallOptions = {}): Promise<Config> => dataOf(http.GET('/__admin/config', { signal })),

      /**
       * Changes config keys (validated as a config file is; a reset drops the changes) and answers the new config.
       *
       * @example
       * await admin.config.update({ emailConfirmation: true, accessTokenTtlSeconds: 60 });
       */
      update: (keys: ConfigKeys, { signal }: CallOptions = {}): Promise<Config> =>
        dataOf(http.PATCH('/__admin/config', { body: keys, signal })),
    },

    /** What the panel does to users and the service's API cannot. */
    users: {
      /**
       * Activates a user without their confirmation e-mail; answers the user's record.
       *
       * @example
       * await admin.users.activate(userId);
       */
      activate: (userId: string, { signal }: CallOptions = {}): Promise<UserRecord> =>
        dataOf(http.POST('/__admin/users/{userId}/activate', { params: path('userId', userId), signal })),

      /**
       * Expires every refresh token of the user; answers how many were still valid.
       *
       * @example
       * await admin.users.signOut(userId); // the next renewal fails: SessionExpiredError
       */
      async signOut(userId: string, { signal }: CallOptions = {}): Promise<number> {
        const answer = http.POST('/__admin/users/{userId}/sign-out', { params: path('userId', userId), signal });
        return (await dataOf(answer)).expiredRefreshTokens;
      },

      /**
       * Users in registration order, kept by every given filter: `q` is a user id, or a text found in the names,
       * e-mail or phone number ignoring case and accents; `active` and `guest` are `'true'` or `'false'`.
       *
       * @example
       * const { userCount, users } = await admin.users.find({ q: 'garcia', active: 'true' });
       */
      find: (filter: UserFilter = {}, { signal }: CallOptions = {}): Promise<UserList> =>
        dataOf(http.GET('/__admin/users', { params: { query: filter }, signal })),

      /**
       * Sets the user's password (their sessions stay); answers the user's record.
       *
       * @example
       * await admin.users.setPassword(userId, 'n3w-s3cret');
       */
      setPassword: (userId: string, password: string, { signal }: CallOptions = {}): Promise<UserRecord> =>
        dataOf(
          http.PUT('/__admin/users/{userId}/password', { params: path('userId', userId), body: { password }, signal }),
        ),
    },

    /** The file storage, as the service's listing does not show it. */
    files: {
      /**
       * The file or folder at `path` (the root when absent) and a page of what is below it: a folder's entries, or
       * with `name` every entry at any depth whose name holds it (case and accents ignored); Content-Types included.
       *
       * @example
       * const { entry, entries } = await admin.files.list({ path: 'photos' });
       * const cats = await admin.files.list({ name: 'cat' });
       */
      list: (query: FileQuery = {}, { signal }: CallOptions = {}): Promise<FileListing> =>
        dataOf(http.GET('/__admin/files', { params: { query }, signal })),
    },

    /** The database's tables. */
    database: {
      /**
       * Every table by name with its row count and column types.
       *
       * @example
       * const [scores] = await admin.database.tables();
       */
      async tables({ signal }: CallOptions = {}): Promise<TableSummary[]> {
        return (await dataOf(http.GET('/__admin/database/tables', { signal }))).tables;
      },

      /**
       * One table: each column with how many rows hold a value, and the columns of every table that point into it.
       *
       * @example
       * const { rowCount, referencedBy } = await admin.database.table('Author');
       */
      table: (table: string, { signal }: CallOptions = {}): Promise<TableSchema> =>
        dataOf(http.GET('/__admin/database/tables/{table}', { params: path('table', table), signal })),

      /**
       * Creates rows in a table, all or none: a refused row (`ValidationError`, code 53, its position in the message)
       * writes nothing. Rows keep their `_id`, `createdAt`, `updatedAt` when given; `columns` types the table first
       * (a relation column then takes arrays of pointers). Answers the rows written.
       *
       * @example
       * await admin.database.importRows('Note', [{ title: 'a', views: 1 }, { title: 'b', views: 2 }]);
       */
      async importRows(
        table: string,
        rows: Record<string, unknown>[],
        { columns, signal }: CallOptions & { columns?: ColumnDefinition[] } = {},
      ): Promise<number> {
        const body = { rows, ...(columns && { columns }) };
        const answer = http.POST('/__admin/database/tables/{table}/import', {
          params: path('table', table),
          body,
          signal,
        });
        return (await dataOf(answer)).imported;
      },

      /**
       * Renames a column in every row; answers the table as `table` describes it.
       *
       * @example
       * await admin.database.renameColumn('Note', 'views', 'hits');
       */
      renameColumn: (table: string, column: string, name: string, { signal }: CallOptions = {}): Promise<TableSchema> =>
        dataOf(
          http.PATCH('/__admin/database/tables/{table}/columns/{column}', {
            params: { path: { table, column } },
            body: { name },
            signal,
          }),
        ),

      /**
       * Drops a column from every row, and its type; answers the table as `table` describes it.
       *
       * @example
       * await admin.database.dropColumn('Note', 'views');
       */
      dropColumn: (table: string, column: string, { signal }: CallOptions = {}): Promise<TableSchema> =>
        dataOf(
          http.DELETE('/__admin/database/tables/{table}/columns/{column}', {
            params: { path: { table, column } },
            signal,
          }),
        ),

      /**
       * Deletes a table with its rows and column types; answers how many rows it had.
       *
       * @example
       * await admin.database.deleteTable('Note');
       */
      async deleteTable(table: string, { signal }: CallOptions = {}): Promise<number> {
        const answer = http.DELETE('/__admin/database/tables/{table}', { params: path('table', table), signal });
        return (await dataOf(answer)).deletedCount;
      },
    },

    /** The transcoder's jobs, settings and policy. */
    transcoder: {
      /**
       * Every convert job in submission order.
       *
       * @example
       * await expect.poll(async () => (await admin.transcoder.jobs())[0]?.state).toBe('complete');
       */
      async jobs({ signal }: CallOptions = {}): Promise<TranscoderJob[]> {
        return (await dataOf(http.GET('/__admin/jobs', { signal }))).jobs;
      },

      /**
       * Every stored settings record: the project's and each user's own.
       *
       * @example
       * const { settings, userSettings } = await admin.transcoder.settings();
       */
      settings: ({ signal }: CallOptions = {}): Promise<TranscoderSettings> =>
        dataOf(http.GET('/__admin/transcoder/settings', { signal })),

      /**
       * How jobs are scheduled and deliveries retried.
       *
       * @example
       * const { deliveryAttempts } = await admin.transcoder.policy();
       */
      policy: ({ signal }: CallOptions = {}): Promise<TranscoderPolicy> =>
        dataOf(http.GET('/__admin/transcoder/policy', { signal })),

      /**
       * Changes keys of the policy (all or nothing) and answers it.
       *
       * @example
       * await admin.transcoder.updatePolicy({ deliveryAttempts: 1, retryDelayMs: 0 }); // no retries in tests
       */
      updatePolicy: (patch: TranscoderPolicyPatch, { signal }: CallOptions = {}): Promise<TranscoderPolicy> =>
        dataOf(http.PATCH('/__admin/transcoder/policy', { body: patch, signal })),
    },

    /** The leaderboards' scores. */
    leaderboards: {
      /**
       * Empties one leaderboard; its definition stays.
       *
       * @example
       * await admin.leaderboards.reset('high-score');
       */
      async reset(leaderboardId: string, { signal }: CallOptions = {}): Promise<void> {
        const params = path('leaderboardId', leaderboardId);
        await dataOf(http.PUT('/__admin/leaderboards/{leaderboardId}/reset', { params, signal }));
      },
    },

    /** The request inspector: the requests the project answered, secrets masked. */
    requests: {
      /**
       * One page of the kept requests, newest first; `next` is the `before` of the page after it.
       *
       * @example
       * const { requests } = await admin.requests.list({ area: 'database', status: '4xx' });
       */
      list: (filter: RequestFilter = {}, { signal }: CallOptions = {}): Promise<RequestPage> =>
        dataOf(http.GET('/__admin/requests', { params: { query: filter }, signal })),

      /**
       * One request in full: headers and bodies.
       *
       * @example
       * const { request, response } = await admin.requests.get(id);
       */
      get: (requestId: string, { signal }: CallOptions = {}): Promise<RequestDetails> =>
        dataOf(http.GET('/__admin/requests/{requestId}', { params: path('requestId', requestId), signal })),

      /**
       * The kept requests (those the filter keeps; every one by default) as a HAR 1.2 log, oldest first.
       *
       * @example
       * writeFileSync('requests.har', JSON.stringify(await admin.requests.har({ status: '5xx' })));
       */
      har: (filter: HarFilter = {}, { signal }: CallOptions = {}): Promise<Har> =>
        dataOf(http.GET('/__admin/requests/har', { params: { query: filter }, signal })),

      /**
       * Sends a kept request again as it came (token and body too) and answers the new request's summary.
       *
       * @example
       * const again = await admin.requests.replay(id);
       * const { response } = await admin.requests.get(again.id);
       */
      replay: (requestId: string, { signal }: CallOptions = {}): Promise<RequestSummary> =>
        dataOf(http.POST('/__admin/requests/{requestId}/replay', { params: path('requestId', requestId), signal })),

      /**
       * Forgets the kept requests (recording goes on).
       *
       * @example
       * beforeEach(() => admin.requests.clear());
       */
      async clear({ signal }: CallOptions = {}): Promise<void> {
        await dataOf(http.DELETE('/__admin/requests', { signal }));
      },

      /**
       * Follows the answered requests live: resolves once the stream is open, with each request the project answers
       * from then on. The iteration ends when `signal` aborts or the server ends the stream (a reader that falls
       * far behind is cut off: reconnect and `list` again).
       *
       * @example
       * const stop = new AbortController();
       * for await (const request of await admin.requests.follow({ signal: stop.signal })) console.log(request.path);
       */
      async follow({ signal }: CallOptions = {}): Promise<AsyncIterable<RequestSummary>> {
        const body = await dataOf(http.GET('/__admin/requests/stream', { parseAs: 'stream', signal }));
        return summaries(body as ReadableStream<Uint8Array>, signal);
      },

      /**
       * Checks that the project answered `times` requests (1 by default) of `method` and `path` (a pattern as the
       * contract writes paths) among the requests it keeps, and answers them, newest first. Otherwise it throws a
       * `VerificationError` whose message lists those that matched and the closest of the others it answered.
       *
       * @example
       * await admin.requests.clear();
       * await app.saveScore(42);
       * await admin.requests.expect({ method: 'POST', path: '/object-storage/classes/{tableName}' });
       */
      async expect(expected: ExpectedRequests, { signal }: CallOptions = {}): Promise<RequestSummary[]> {
        const { method, path } = expected;
        const query = { ...(method !== undefined && { method }), path, count: '1' as const, limit: 1000 };
        const page = await dataOf(http.GET('/__admin/requests', { params: { query }, signal }));
        const count = page.count ?? page.requests.length;
        if (count === (expected.times ?? 1)) return page.requests;
        const recent = await dataOf(http.GET('/__admin/requests', { params: { query: { limit: 50 } }, signal }));
        throw verificationError(expected, count, page.requests, recent.requests);
      },
    },

    /**
     * Faults: make requests of a method and path answer an error status, lose their connection or wait, for `times`
     * requests or a `probability` share of them. A reset removes them all.
     */
    faults: {
      /**
       * Sets a fault; it applies from the next request on. Answers it with its `id`.
       *
       * @example
       * await admin.faults.add({ method: 'POST', path: '/auth/login', status: 503, times: 1 });
       * await admin.faults.add({ path: '/files', network: 'reset' });
       * await admin.faults.add({ path: '/object-storage/classes/query/{tableName}', delayMs: 2000 });
       */
      add: (fault: FaultSpec, { signal }: CallOptions = {}): Promise<Fault> =>
        dataOf(http.POST('/__admin/faults', { body: fault, signal })),

      /**
       * Every fault set, with what is left of `times` (`remaining`) and how often each applied.
       *
       * @example
       * const [{ applied }] = await admin.faults.list();
       */
      async list({ signal }: CallOptions = {}): Promise<Fault[]> {
        return (await dataOf(http.GET('/__admin/faults', { signal }))).faults;
      },

      /**
       * Removes one fault (a `NotFoundError` for an unknown id).
       *
       * @example
       * await admin.faults.remove(fault.id);
       */
      async remove(faultId: string, { signal }: CallOptions = {}): Promise<void> {
        await dataOf(http.DELETE('/__admin/faults/{faultId}', { params: path('faultId', faultId), signal }));
      },

      /**
       * Removes every fault.
       *
       * @example
       * afterEach(() => admin.faults.clear());
       */
      async clear({ signal }: CallOptions = {}): Promise<void> {
        await dataOf(http.DELETE('/__admin/faults', { signal }));
      },
    },

    /**
     * Named snapshots of the whole project (config, clock, every state), kept in the server's memory and restored
     * exactly in milliseconds, whatever the size.
     */
    snapshots: {
      /**
       * Saves the project as it is now under `name`, replacing a snapshot of that name.
       *
       * @example
       * beforeAll(async () => { await seed(); await admin.snapshots.save('seeded'); });
       */
      save: (name: string, { signal }: CallOptions = {}): Promise<Snapshot> =>
        dataOf(http.PUT('/__admin/snapshots/{name}', { params: path('name', name), signal })),

      /**
       * Makes the project exactly what it was when `name` was saved (a `NotFoundError` for an unknown name).
       *
       * @example
       * beforeEach(() => admin.snapshots.restore('seeded'));
       */
      async restore(name: string, { signal }: CallOptions = {}): Promise<void> {
        await dataOf(http.POST('/__admin/snapshots/{name}/restore', { params: path('name', name), signal }));
      },

      /**
       * Every named snapshot of the project.
       *
       * @example
       * const names = (await admin.snapshots.list()).map((snapshot) => snapshot.name);
       */
      async list({ signal }: CallOptions = {}): Promise<Snapshot[]> {
        return (await dataOf(http.GET('/__admin/snapshots', { signal }))).snapshots;
      },

      /**
       * Deletes a named snapshot.
       *
       * @example
       * await admin.snapshots.delete('seeded');
       */
      async delete(name: string, { signal }: CallOptions = {}): Promise<void> {
        await dataOf(http.DELETE('/__admin/snapshots/{name}', { params: path('name', name), signal }));
      },
    },

    /** The server's projects; these calls need the server's admin key. */
    projects: {
      /**
       * Creates a project: the given keys over the default project's config, ids and keys generated unless given.
       *
       * @example
       * const { id, config } = await admin.projects.create({ emailConfirmation: true });
       */
      create: (keys: ConfigKeys = {}, { signal }: CallOptions = {}): Promise<ServerProject> =>
        dataOf(http.POST('/__admin/projects', { body: keys, signal })),

      /**
       * Every project, the default one first.
       *
       * @example
       * const ids = (await admin.projects.list()).map((project) => project.id);
       */
      async list({ signal }: CallOptions = {}): Promise<ServerProject[]> {
        return (await dataOf(http.GET('/__admin/projects', { signal }))).projects;
      },

      /**
       * One project.
       *
       * @example
       * const { config } = await admin.projects.get('worker-1');
       */
      get: (projectId: string, { signal }: CallOptions = {}): Promise<ServerProject> =>
        dataOf(http.GET('/__admin/projects/{projectId}', { params: path('projectId', projectId), signal })),

      /**
       * Changes config keys of one project.
       *
       * @example
       * await admin.projects.update('worker-1', { inspectorLimit: 0 });
       */
      update: (projectId: string, keys: ConfigKeys, { signal }: CallOptions = {}): Promise<ServerProject> =>
        dataOf(
          http.PATCH('/__admin/projects/{projectId}', { params: path('projectId', projectId), body: keys, signal }),
        ),

      /**
       * Deletes a project with everything it holds; its ids and keys are refused from then on.
       *
       * @example
       * afterAll(() => admin.projects.delete(project.id));
       */
      async delete(projectId: string, { signal }: CallOptions = {}): Promise<void> {
        await dataOf(http.DELETE('/__admin/projects/{projectId}', { params: path('projectId', projectId), signal }));
      },

      /**
       * Resets one project, as its own `reset`.
       *
       * @example
       * beforeEach(() => admin.projects.reset(project.id));
       */
      async reset(projectId: string, { signal }: CallOptions = {}): Promise<void> {
        await dataOf(
          http.POST('/__admin/projects/{projectId}/reset', { params: path('projectId', projectId), signal }),
        );
      },

      /**
       * Exports one project's state.
       *
       * @example
       * const fixture = await admin.projects.exportState(project.id);
       */
      exportState: (projectId: string, { signal }: CallOptions = {}): Promise<StateExport> =>
        dataOf(http.GET('/__admin/projects/{projectId}/state', { params: path('projectId', projectId), signal })),

      /**
       * Imports a state into one project.
       *
       * @example
       * await admin.projects.importState(project.id, fixture);
       */
      async importState(projectId: string, state: StateImport, { signal }: CallOptions = {}): Promise<StateSummary> {
        const params = path('projectId', projectId);
        return (await dataOf(http.PUT('/__admin/projects/{projectId}/state', { params, body: state, signal })))
          .restored;
      },
    },
  };
}

/** The `request` events of the inspector's stream; ends quietly once `signal` aborts. */
async function* summaries(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<RequestSummary> {
  try {
    for await (const { event, data } of serverSentEvents(body)) {
      if (event === 'request') yield JSON.parse(data) as RequestSummary;
    }
  } catch (error) {
    if (signal?.aborted) return;
    throw new NetworkError(`GET /__admin/requests/stream broke off: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
}
