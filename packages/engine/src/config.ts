import { configSchema } from './generated/config-schema.js';
import { checkSchema, type SchemaError } from './schema-check.js';

/**
 * The five areas of the service, by the names the config's `services` switches use.
 *
 * @example
 * const config = developmentConfig({ services: { transcoder: false } satisfies Partial<Record<ServiceName, boolean>> });
 */
export type ServiceName = 'users' | 'database' | 'storage' | 'transcoder' | 'leaderboards';

export interface EventDefinition {
  name: string;
  fields: string[];
}

export interface LeaderboardDefinition {
  id: string;
  fields: { event: string; field: string }[];
  aggregation: 'best' | 'sum' | 'last';
  order: 'desc' | 'asc';
}

/**
 * A project's configuration with every default filled in.
 *
 * @example
 * const config: Config = resolveConfig({ ...DEFAULT_CONFIG, emailConfirmation: true });
 * config.accessTokenTtlSeconds; // 7199, the default
 */
export interface Config {
  authenticationId: string;
  clientKey: string;
  masterKey: string;
  objectStorageId: string;
  storageId: string;
  gameId: string;
  bucket: string;
  emailConfirmation: boolean;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  maxUploadBytes: number;
  /** Most parts of one upload request (413 past it). */
  maxUploadParts: number;
  /** Largest width or height of a resized download (400 past it). */
  maxResizeSide: number;
  /** Bytes and number of resized images kept in memory. */
  resizeCacheBytes: number;
  resizeCacheEntries: number;
  /** Largest JSON or form request body, in bytes (413 past it). */
  maxJsonBodyBytes: number;
  /** Work one database query may do, in cost units (400 past it). */
  maxQueryCost: number;
  /** Largest database row as JSON, in bytes (413 past it). */
  maxRowBytes: number;
  /** Most columns of one database table (400 past it). */
  maxTableColumns: number;
  /** Largest size of a user's fields besides the password, as JSON (400 past it). */
  maxUserFieldsBytes: number;
  /** Largest source video a convert job downloads, in bytes (the job is REJECTED past it). */
  transcoderMaxSourceBytes: number;
  /** Largest watermark image a convert job downloads, in bytes (the job is REJECTED past it). */
  transcoderMaxWatermarkBytes: number;
  /** Disk the outputs of one convert job may take, estimated from bitrates and duration (REJECTED past it). */
  transcoderMaxOutputBytes: number;
  /** Longest wait for any transcoder request's answer to start (connect, send, first byte). */
  transcoderFirstByteTimeoutMs: number;
  /** Longest time of any transcoder request in all, the answer's body included. */
  transcoderTransferTimeoutMs: number;
  /** Convert jobs one user may have waiting (400 past it). */
  transcoderMaxQueuedJobsPerUser: number;
  /** Settings records per kind and owner (400 for a new name past it). */
  transcoderMaxSettingsPerKind: number;
  /** Finished convert jobs kept for the admin job list. */
  transcoderJobHistory: number;
  /** Answered requests the request inspector keeps in memory (0: recording off). */
  inspectorLimit: number;
  /** Largest body the request inspector shows; larger ones by their size only. */
  inspectorBodyBytes: number;
  /** Faults one project may have set at once (`POST /__admin/faults`, 400 past it). */
  maxFaults: number;
  /** Longest delay a fault may give (400 past it). */
  maxFaultDelayMs: number;
  /** Named snapshots one project may keep (`PUT /__admin/snapshots/{name}`, 400 past it). */
  maxSnapshots: number;
  dataDir?: string;
  /** With `dataDir`: journal records kept before they are folded into a snapshot. */
  journalCompactAfter: number;
  /** With `dataDir`: `always` flushes each journal record to the disk before it is answered (power loss), `never` does not (SIGKILL). */
  fsync: 'never' | 'always';
  /** Also serve HTTPS on this port (0: a free one), beside HTTP; read at start-up. */
  httpsPort?: number;
  /** With `httpsPort`: PEM certificate and key files to serve instead of a certificate of the local CA. */
  tlsCert?: string;
  tlsKey?: string;
  /** Where clients reach the server, for links in e-mails; absent: the address it listens on. */
  publicUrl?: string;
  /** The words accepted in header names, `X-<word>-…` (`['Service']` by default). */
  headerWord: string[];
  events: EventDefinition[];
  leaderboards: LeaderboardDefinition[];
  services: Record<ServiceName, boolean>;
  /** More projects served beside this one (the default project); only in the server's config. */
  projects?: ConfigInput[];
  /** Most projects one server holds, the default project included. */
  maxProjects: number;
  /**
   * Host names of this server besides localhost, its IP addresses, the host it listens on and `publicUrl`'s: the
   * admin API answers under them, and their pages may use the built-in master key (`.example.com`: and every name
   * below it). Only the server's config has it.
   */
  allowedHosts?: string[];
  /** Most connections the Node server keeps open; absent: from the open-files limit. Only the server's config has it. */
  maxConnections?: number;
  /** A request's headers must arrive whole within this time (Node server). Only the server's config has it. */
  headersTimeoutMs: number;
  /** A kept-alive connection with no request under way is closed after this time (Node server). Only the server's config has it. */
  idleTimeoutMs: number;
}

/** Keys that describe the whole server, not one project: only the server's config (the default project's) has them. */
export const SERVER_KEYS = [
  'projects',
  'maxProjects',
  'dataDir',
  'fsync',
  'httpsPort',
  'tlsCert',
  'tlsKey',
  'allowedHosts',
  'maxConnections',
  'headersTimeoutMs',
  'idleTimeoutMs',
] as const;

/** A project's identity: its ids and keys, which no other project's config or state gives it. */
export const IDENTITY_KEYS = [
  'authenticationId',
  'objectStorageId',
  'storageId',
  'gameId',
  'bucket',
  'clientKey',
  'masterKey',
] as const;

/** Keys of where and how the server runs rather than of what a project is. */
const DEPLOYMENT_KEYS = new Set<string>([...IDENTITY_KEYS, ...SERVER_KEYS, 'publicUrl', 'journalCompactAfter']);

/**
 * A project's settings: its config but its identity and where the server runs (its events, leaderboards, e-mail
 * confirmation, token lifetimes, limits, services, header words). They travel with its state in an export
 * (`GET /__admin/state`), so that an import anywhere behaves the same.
 */
export function projectSettings(config: Partial<Config>): Partial<Config> {
  return Object.fromEntries(Object.entries(config).filter(([key]) => !DEPLOYMENT_KEYS.has(key))) as Partial<Config>;
}

/**
 * What a config file may contain: the six keys are required, the rest default.
 *
 * @example
 * const input: ConfigInput = JSON.parse(readFileSync('basekit.json', 'utf8'));
 * const engine = createEngine({ config: input });
 */
export type ConfigInput = Pick<
  Config,
  'authenticationId' | 'clientKey' | 'masterKey' | 'objectStorageId' | 'storageId' | 'gameId'
> &
  Partial<Omit<Config, 'leaderboards' | 'services' | 'headerWord'>> & {
    headerWord?: string | string[];
    leaderboards?: (Omit<LeaderboardDefinition, 'aggregation' | 'order'> & Partial<LeaderboardDefinition>)[];
    services?: Partial<Record<ServiceName, boolean>>;
  };

/**
 * The built-in configuration `npm start` runs on: fixed development keys, one event and one leaderboard.
 *
 * @example
 * const engine = createEngine({ config: { ...DEFAULT_CONFIG, emailConfirmation: true } });
 */
export const DEFAULT_CONFIG: ConfigInput = {
  authenticationId: 'dev-auth-id',
  clientKey: 'dev-client-key',
  masterKey: 'dev-master-key',
  objectStorageId: 'dev-db',
  storageId: 'dev-storage',
  gameId: 'dev-game',
  events: [{ name: 'match_end', fields: ['score', 'kills'] }],
  leaderboards: [{ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] }],
};

/**
 * The given keys over the built-in development config, for tests and tools that want "the development project, but
 * with this": `developmentConfig({ emailConfirmation: true })`. The game comes whole: given `events` or
 * `leaderboards`, the built-in ones are dropped (they would name events the given game may not have).
 *
 * @example
 * const engine = createEngine({ config: developmentConfig({ emailConfirmation: true, maxUploadBytes: 1024 }) });
 */
export function developmentConfig(overrides: Partial<ConfigInput> = {}): ConfigInput {
  return configOver(DEFAULT_CONFIG, overrides);
}

/** `overrides` over `base`, where a game comes whole: given `events` or `leaderboards`, neither of `base`'s is kept. */
export function configOver<T extends Partial<ConfigInput>>(base: T, overrides: Partial<ConfigInput>): T {
  const ownGame = overrides.events !== undefined || overrides.leaderboards !== undefined;
  return { ...base, ...(ownGame && { events: [], leaderboards: [] }), ...overrides };
}

/**
 * A configuration that failed validation; `message` names each offending key and its problem.
 *
 * @example
 * try {
 *   resolveConfig(JSON.parse(text));
 * } catch (error) {
 *   if (error instanceof ConfigError) console.error(error.message); // each key and its problem
 * }
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** One finding of the generated validator (Ajv's error object, in the parts used here). */
function describe(error: SchemaError): string {
  const key = error.instancePath.replace(/^\//, '').replaceAll('/', '.') || '(root)';
  if (error.keyword === 'additionalProperties')
    return `${key}: unknown key "${String(error.params['additionalProperty'])}"`;
  if (error.keyword === 'required') return `${key}: missing required key "${String(error.params['missingProperty'])}"`;
  return `${key}: ${error.message}`;
}

/**
 * Checks a config against `config.schema.json` and the cross-references between events and leaderboards, in it and
 * in each of its `projects`, which may not hold the server's own keys (`SERVER_KEYS`).
 */
function validateConfig(input: unknown): asserts input is ConfigInput {
  const errors = checkSchema(configSchema, input);
  if (errors.length > 0) throw new ConfigError(`invalid config: ${errors.map(describe).join('; ')}`);
  checkGame(input as ConfigInput, '');
  (input as ConfigInput).projects?.forEach((project, i) => {
    const serverKey = SERVER_KEYS.find((key) => key in project);
    if (serverKey)
      throw new ConfigError(
        `invalid config: projects.${i}: "${serverKey}" is a key of the whole server, given at the top level only`,
      );
    checkGame(project, `projects.${i}.`);
  });
}

/** Every leaderboard id once, and every leaderboard field an event's field. */
function checkGame(config: ConfigInput, prefix: string): void {
  const fieldsByEvent = new Map((config.events ?? []).map((e) => [e.name, new Set(e.fields)]));
  const boardIds = new Set<string>();
  (config.leaderboards ?? []).forEach((board, i) => {
    if (boardIds.has(board.id))
      throw new ConfigError(`invalid config: ${prefix}leaderboards.${i}.id: duplicate id "${board.id}"`);
    boardIds.add(board.id);
    board.fields.forEach(({ event, field }, j) => {
      if (!fieldsByEvent.get(event)?.has(field)) {
        throw new ConfigError(
          `invalid config: ${prefix}leaderboards.${i}.fields.${j}: event "${event}" has no field "${field}"`,
        );
      }
    });
  });
}

/**
 * Validates a config and fills in every default.
 *
 * @example
 * const config = resolveConfig({ ...DEFAULT_CONFIG, maxUploadBytes: 1024 });
 * config.bucket; // 'dev-storage': the storage id, by default
 */
export function resolveConfig(input: unknown): Config {
  validateConfig(input);
  return {
    bucket: input.storageId,
    emailConfirmation: false,
    accessTokenTtlSeconds: 7199,
    refreshTokenTtlSeconds: 30 * 24 * 3600,
    maxUploadBytes: 100 * 1024 * 1024,
    maxUploadParts: 1000,
    maxResizeSide: 4096,
    resizeCacheBytes: 64 * 1024 * 1024,
    resizeCacheEntries: 1000,
    maxJsonBodyBytes: 1024 * 1024,
    maxQueryCost: 1_500_000,
    maxRowBytes: 128 * 1024,
    maxTableColumns: 1000,
    maxUserFieldsBytes: 16 * 1024,
    transcoderMaxSourceBytes: 2 * 1024 ** 3,
    transcoderMaxWatermarkBytes: 10 * 1024 * 1024,
    transcoderMaxOutputBytes: 20 * 1024 ** 3,
    transcoderFirstByteTimeoutMs: 30_000,
    transcoderTransferTimeoutMs: 10 * 60_000,
    transcoderMaxQueuedJobsPerUser: 20,
    transcoderMaxSettingsPerKind: 100,
    transcoderJobHistory: 1000,
    inspectorLimit: 500,
    inspectorBodyBytes: 64 * 1024,
    maxFaults: 100,
    maxFaultDelayMs: 5 * 60_000,
    maxSnapshots: 20,
    journalCompactAfter: 10_000,
    fsync: 'never',
    maxProjects: 1000,
    headersTimeoutMs: 10_000,
    idleTimeoutMs: 5000,
    events: [],
    ...input,
    headerWord: [input.headerWord ?? 'Service'].flat(),
    leaderboards: (input.leaderboards ?? []).map((b) => ({ aggregation: 'best', order: 'desc', ...b })),
    services: { users: true, database: true, storage: true, transcoder: true, leaderboards: true, ...input.services },
  };
}
