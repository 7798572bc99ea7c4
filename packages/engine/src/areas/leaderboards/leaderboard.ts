import type { LeaderboardDefinition } from '../../config.js';
import { RankedSet } from '../../shared/util/ranked-set.js';

/** The 3 scores of the contract's `LeaderboardScores`; entries past the leaderboard's fields stay 0. */
export type Scores = [number, number, number];

/** A standing in plain form (state export, results). */
export interface StandingJson {
  userId: string;
  scores: Scores;
  /** See `Standing.reached`. */
  reached: number;
}

/**
 * One player's place on one leaderboard. The scores are held as fields rather than an array so that a comparison
 * reads one object: at a million players, ranking time is the number of objects read.
 */
export class Standing {
  readonly score0: number;
  readonly score1: number;
  readonly score2: number;

  constructor(
    readonly userId: string,
    scores: Scores,
    /**
     * When the scores were reached: the project's running number of score changes. Of two players with equal
     * scores, the one who reached them earlier ranks higher. A counter, not the clock: the clock can stand still
     * within a millisecond, and the admin API moves it.
     */
    readonly reached: number,
  ) {
    [this.score0, this.score1, this.score2] = scores;
  }

  get scores(): Scores {
    return [this.score0, this.score1, this.score2];
  }

  toJSON(): StandingJson {
    return { userId: this.userId, scores: this.scores, reached: this.reached };
  }
}

/** The new value of each of the leaderboard's fields that an event carries (`undefined` where it carries none). */
type FieldValues = (number | undefined)[];

/** Orders standings by the leaderboard's fields, first field first: negative when `a` ranks above `b`. */
function scoreOrder({ fields, order }: LeaderboardDefinition): (a: Standing, b: Standing) => number {
  const aboveWhenHigher = order === 'desc' ? -1 : 1;
  const by = (x: number, y: number) => (x > y ? aboveWhenHigher : -aboveWhenHigher);
  const count = fields.length;
  return (a, b) => {
    if (a.score0 !== b.score0) return by(a.score0, b.score0);
    if (count > 1 && a.score1 !== b.score1) return by(a.score1, b.score1);
    if (count > 2 && a.score2 !== b.score2) return by(a.score2, b.score2);
    return 0;
  };
}

/** Orders standings by their scores, then by who reached them first, then by userId. */
function standingOrder(byScores: (a: Standing, b: Standing) => number): (a: Standing, b: Standing) => number {
  return (a, b) => byScores(a, b) || a.reached - b.reached || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
}

/**
 * One leaderboard: every player's standing, ranked by the scores (in the order of the definition's fields), then
 * by who reached them first, then by userId (which only decides between standings imported with equal `reached`).
 *
 * @example
 * const board = new Leaderboard({ id: 'high-score', fields: [{ event: 'match_end', field: 'score' }], aggregation: 'best', order: 'desc' });
 * board.record(new Standing('ann', [120, 0, 0], 1));
 * board.positionOf('ann'); // 0
 */
export class Leaderboard {
  readonly #standings = new Map<string, Standing>();
  readonly #ranking: RankedSet<Standing>;
  readonly #scoreOrder: (a: Standing, b: Standing) => number;

  constructor(
    public definition: LeaderboardDefinition,
    standings: Iterable<Standing> = [],
  ) {
    this.#scoreOrder = scoreOrder(definition);
    this.#ranking = new RankedSet(standingOrder(this.#scoreOrder));
    for (const standing of standings) this.record(standing);
  }

  /** Number of players with a score. */
  get size(): number {
    return this.#ranking.size;
  }

  standing(userId: string): Standing | undefined {
    return this.#standings.get(userId);
  }

  /** The player's position from 0 (rank - 1), or -1 when they have no score. */
  positionOf(userId: string): number {
    const standing = this.#standings.get(userId);
    return standing ? this.#ranking.rankOf(standing) : -1;
  }

  /** The standings at positions `start` to `end - 1`. */
  slice(start: number, end?: number): Standing[] {
    return this.#ranking.slice(start, end);
  }

  /**
   * The player's scores after an event carrying `values`, by the leaderboard's aggregation: `best` keeps the
   * better of the current scores and the event's (the fields it does not carry keep their current values),
   * `sum` adds, `last` replaces. Undefined when the scores would not change.
   */
  aggregate(userId: string, values: FieldValues): Scores | undefined {
    const standing = this.#standings.get(userId);
    const sum = this.definition.aggregation === 'sum';
    const next = (standing?.scores ?? [0, 0, 0]).map((score, i) => {
      const value = values[i];
      return value === undefined ? score : sum ? score + value : value;
    }) as Scores;
    if (!standing) return next;
    const order = this.#scoreOrder(standing, new Standing(userId, next, standing.reached));
    // Equal scores are no change (the player keeps when they reached them); `best` keeps scores that rank higher.
    return order === 0 || (this.definition.aggregation === 'best' && order < 0) ? undefined : next;
  }

  /** Sets a player's standing, replacing the one they had. */
  record(standing: Standing): void {
    const previous = this.#standings.get(standing.userId);
    if (previous) this.#ranking.remove(previous);
    this.#standings.set(standing.userId, standing);
    this.#ranking.insert(standing);
  }

  /** Takes a player off the leaderboard; false when they had no score. */
  remove(userId: string): boolean {
    const standing = this.#standings.get(userId);
    if (!standing) return false;
    this.#ranking.remove(standing);
    this.#standings.delete(userId);
    return true;
  }

  /**
   * This leaderboard under a changed definition: the same one when only the aggregation changed, re-ranked
   * when the order changed, empty when the fields changed (the old scores measure something else).
   */
  redefined(definition: LeaderboardDefinition): Leaderboard {
    if (JSON.stringify(definition.fields) !== JSON.stringify(this.definition.fields))
      return new Leaderboard(definition);
    if (definition.order !== this.definition.order) return new Leaderboard(definition, this.#standings.values());
    this.definition = definition;
    return this;
  }
}
