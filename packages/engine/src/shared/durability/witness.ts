import type { Clock } from '../clock.js';
import { Moment } from '../moment.js';

// The moments of the requests the journal keeps: `Witness` while it records one, `Replay` when it replays it.

/**
 * The moment of a request the journal records: one real time throughout, and every random byte it draws and result
 * of its work on secrets noted in order (secrets handed out are drawn but never noted).
 */
export class Witness extends Moment {
  declare readonly realMs: number;
  readonly drawn: Uint8Array[] = [];
  readonly outcomes: unknown[] = [];

  constructor(clock: Clock) {
    super(clock, Date.now());
  }

  override random(length: number): Uint8Array {
    const bytes = super.random(length);
    this.drawn.push(bytes);
    return bytes;
  }

  override async secretOutcome<T>(work: () => Promise<T>): Promise<T> {
    // Its place is taken when the work starts, which is the order a replay asks for the results in.
    const at = this.outcomes.push(undefined) - 1;
    const result = await work();
    this.outcomes[at] = result;
    return result;
  }
}

/** What a recorded request read, as the journal kept it. */
interface Witnessed {
  timeMs: number;
  random: Uint8Array;
  outcomes: readonly unknown[];
  /** Format 1 of the records: secrets handed out were drawn with the other random bytes, and kept with them. */
  legacy: boolean;
}

/**
 * The moment of a recorded request replayed: the real time it read, each random draw the bytes it drew the first
 * time, in order (past them, as for an engine that draws more than the one that recorded, fresh ones), and each work
 * on a secret the result it had. Secrets handed out are drawn afresh (the state keeps only what was worked out from
 * them), but in records of format 1.
 */
export class Replay extends Moment {
  #used = 0;
  #next = 0;

  constructor(
    clock: Clock,
    private readonly witnessed: Witnessed,
  ) {
    super(clock, witnessed.timeMs);
  }

  override random(length: number): Uint8Array {
    const { random } = this.witnessed;
    const bytes =
      this.#used + length <= random.length ? random.slice(this.#used, this.#used + length) : super.random(length);
    this.#used += length;
    return bytes;
  }

  override secretBytes(length: number): Uint8Array {
    return this.witnessed.legacy ? this.random(length) : super.secretBytes(length);
  }

  override secretOutcome<T>(work: () => Promise<T>): Promise<T> {
    const { outcomes } = this.witnessed;
    return this.#next < outcomes.length ? Promise.resolve(outcomes[this.#next++] as T) : work();
  }
}
