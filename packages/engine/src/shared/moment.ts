import type { Clock } from './clock.js';
import { type RandomSource, type SecretSource, unrecordedBytes } from './ids.js';

/**
 * What one request reads from outside its input and the state: the time, random bytes and the results of work on
 * secrets. Each request is handed its own (`c.env.moment`), and every id, salt, link and timestamp that state keeps
 * comes from it, so the journal can keep what a state-changing request read and hand the same back when it replays
 * the request at start-up (`Witness` and `Replay` in `witness.ts`), however many requests run at once, in every
 * project. This one reads the platform: real time and fresh random bytes (a request that is not recorded).
 *
 * @example
 * const row = { _id: newId(moment), createdAt: moment.iso() };
 */
export class Moment implements RandomSource, SecretSource {
  /**
   * @param clock the project's clock, which the admin API moves
   * @param realMs the real time the request reads throughout; absent, the time as it passes
   */
  constructor(
    private readonly clock: Clock,
    readonly realMs?: number,
  ) {}

  /** The server clock's time, epoch milliseconds: the request's real time plus how far the admin API moved the clock. */
  now(): number {
    return this.clock.at(this.realMs ?? Date.now());
  }

  /** `now()` in the service's timestamp form, `YYYY-MM-DDTHH:MM:SS.MMMZ`. */
  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** `length` random bytes for what the state keeps (ids, salts, confirmation links). */
  random(length: number): Uint8Array {
    return unrecordedBytes(length);
  }

  /** `length` random bytes of a secret handed to a client (a refresh token, a generated password): never kept. */
  secretBytes(length: number): Uint8Array {
    return unrecordedBytes(length);
  }

  /**
   * The result of `work` on a secret a client sent or was handed (a password's hash, a token's digest), whose result
   * decides what the request changes. The journal never writes the secret: it keeps the result, which must be plain
   * JSON and nothing secret, and hands it back on replay instead of doing the work again.
   *
   * @example
   * const hash = await moment.secretOutcome(() => pbkdf2(password, salt)); // replayed without the password
   */
  secretOutcome<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}
