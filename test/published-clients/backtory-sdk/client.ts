import { createRequire } from 'node:module';
import { vi } from 'vitest';
import type { ConfigInput } from '@basekit/engine';

/** The `{ success, error }` options every call of the published client takes. */
export interface Callbacks<A extends unknown[]> {
  success: (...args: A) => void;
  error: (error: unknown) => void;
}

/** A row as the client models it (a Backbone model). */
export interface Row {
  className: string;
  get(key: string): unknown;
  has(key: string): boolean;
  set(key: string, value: unknown): void;
  increment(key: string, amount?: number): void;
  relation(key: string): Relation;
  save(options: Callbacks<[Row]>): void;
  fetch(options: Callbacks<[Row]>): void;
  destroy(options: Callbacks<[]>): void;
}

interface Relation {
  add(row: Row): void;
  remove(row: Row): void;
  getById(id: string): Row;
  size(): number;
}

type RowClass = new () => Row;

interface Query {
  equalTo(key: string, value: unknown): void;
  greaterThan(key: string, value: unknown): void;
  descending(key: string): void;
  limit(n: number): void;
  find(options: Callbacks<[Row[]]>): void;
  count(options: Callbacks<[number]>): void;
  get(id: string, options: Callbacks<[Row]>): void;
}

interface GameEvent {
  add(fieldName: string, value: number): void;
  sendFromUser(userId: string, options: Callbacks<[]>): void;
}

interface LeaderBoard {
  getUserRank(userId: string, options: Callbacks<[number, number[]]>): void;
  getAroundUser(userId: string, count: number, options: Callbacks<[unknown]>): void;
  getTopUsers(count: number, options: Callbacks<[unknown]>): void;
  getTopUsersWithPagination(page: number, count: number, options: Callbacks<[unknown]>): void;
  getUsersScore(userIds: string[], options: Callbacks<[unknown]>): void;
  updateScore(userId: string, scores: number[], options: Callbacks<[]>): void;
  reset(options: Callbacks<[]>): void;
  remove(options: Callbacks<[]>): void;
}

/** The parts of `backtory-sdk`'s API the driver uses (the package ships no types). */
export interface PublishedClient {
  Users: {
    signUp(userInfo: Record<string, string>, options: Callbacks<[Record<string, unknown>]>): void;
    guestSignUp(options: Callbacks<[Record<string, unknown>]>): void;
    completeGuestRegistration(userInfo: Record<string, string>, options: Callbacks<[Record<string, unknown>]>): void;
    update(userId: string, userInfo: Record<string, string>, options: Callbacks<[Record<string, unknown>]>): void;
    search(word: string, page: number, pageSize: number, options: Callbacks<[Record<string, unknown>[], number]>): void;
    count(options: Callbacks<[number]>): void;
    getByUserName(username: string, options: Callbacks<[Record<string, unknown>]>): void;
    getByUserId(userId: string, options: Callbacks<[Record<string, unknown>]>): void;
    getByUserIds(userIds: string[], options: Callbacks<[Record<string, unknown>[]]>): void;
    delete(userId: string, options: Callbacks<[]>): void;
  };
  Object: { extend(className: string): RowClass };
  Query: new (rowClass: RowClass) => Query;
  Event: new (eventName: string) => GameEvent;
  EventBulk: new () => { add(event: GameEvent, userId: string): void; send(options: Callbacks<[]>): void };
  LeaderBoard: new (leaderBoardId: string) => LeaderBoard;
  Game: {
    resetAllLeaderBoards(options: Callbacks<[]>): void;
    getUserLeaderBoards(userId: string, options: Callbacks<[unknown]>): void;
  };
}

/**
 * Loads the unmodified published client, configured through the environment variables it reads: the base URL with
 * its trailing `/` (`BacktoryBaseUrl`, read once at load by `lib/config.js`), and the ids and master key
 * (`BacktoryUseEnvVars=YES` and the names in `lib/common.js`). Each call then logs in with the master key on its
 * own and acts with that token. Undo with `vi.unstubAllEnvs()`.
 */
export function loadPublishedClient(baseUrl: string, config: ConfigInput): PublishedClient {
  const env: Record<string, string> = {
    BacktoryBaseUrl: `${baseUrl}/`,
    BacktoryUseEnvVars: 'YES',
    BacktoryAuthenticationId: config.authenticationId,
    BacktoryDataBaseId: config.objectStorageId,
    BacktoryGameId: config.gameId,
    BacktoryFileStorageId: config.storageId,
    BacktoryMasterKey: config.masterKey,
  };
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  return createRequire(import.meta.url)('backtory-sdk') as PublishedClient;
}

/** Why a call of the client failed, in one short line of a test report. */
function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  const failure = error as { responseCode?: number; responseBody?: unknown };
  // The REST layers hand over {responseCode, responseBody}; the master login hands over the bare body.
  const [status, body] =
    failure?.responseCode === undefined ? ['', error] : [`HTTP ${failure.responseCode} `, failure.responseBody];
  return `the client's error callback: ${status}${JSON.stringify(body)?.slice(0, 160)}`;
}

/**
 * Runs one call of the client and resolves with the arguments it hands to `success`; rejects with what it hands to
 * `error`, with what it throws, or when it calls neither within `timeoutMs`.
 */
export function settle<A extends unknown[]>(call: (options: Callbacks<A>) => void, timeoutMs = 10_000): Promise<A> {
  return new Promise<A>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the client called back neither success nor error in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const done =
      <T>(settleWith: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        settleWith(value);
      };
    try {
      call({
        success: (...args: A) => done(resolve)(args),
        error: (error) => done(reject)(new Error(describeError(error))),
      });
    } catch (error) {
      done(reject)(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
