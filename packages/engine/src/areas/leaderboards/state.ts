import type { Config, LeaderboardDefinition } from '../../config.js';
import { ApiError, ErrorCode } from '../../shared/errors.js';
import type { Project, StateSlice } from '../../shared/project.js';
import { Leaderboard, Standing, type StandingJson } from './leaderboard.js';

interface LeaderboardsState {
  boards: Map<string, Leaderboard>;
  /** Event name -> the ids of the boards defined on one of its fields, in the config's order: what an event feeds. */
  byEvent: Map<string, string[]>;
  /** The `reached` number of the next score change. */
  sequence: number;
  /** The config `boards` were last matched against (the admin API can replace it at any time). */
  matched: Config | undefined;
}

/** The exported form: plain arrays, standings in rank order. */
interface LeaderboardsJson {
  sequence: number;
  boards: { definition: LeaderboardDefinition; standings: StandingJson[] }[];
}

/** Makes the boards those of `config`: new ones start empty, removed ones go, changed ones follow `Leaderboard.redefined`. */
function match(state: LeaderboardsState, config: Config): LeaderboardsState {
  if (state.matched === config) return state;
  const boards = new Map<string, Leaderboard>();
  for (const definition of config.leaderboards) {
    boards.set(definition.id, state.boards.get(definition.id)?.redefined(definition) ?? new Leaderboard(definition));
  }
  state.boards = boards;
  state.byEvent = new Map();
  for (const { id, fields } of config.leaderboards) {
    for (const event of new Set(fields.map((field) => field.event))) {
      const ids = state.byEvent.get(event);
      if (ids) ids.push(id);
      else state.byEvent.set(event, [id]);
    }
  }
  state.matched = config;
  return state;
}

function isStanding(value: unknown): value is StandingJson {
  const { userId, scores, reached } = (value ?? {}) as Partial<StandingJson>;
  return (
    typeof userId === 'string' &&
    Array.isArray(scores) &&
    scores.length === 3 &&
    scores.every(Number.isFinite) &&
    Number.isSafeInteger(reached)
  );
}

function fromJSON(json: unknown): LeaderboardsState {
  const { sequence, boards } = json as LeaderboardsJson;
  if (!Number.isSafeInteger(sequence) || !Array.isArray(boards))
    throw new Error('leaderboards: "sequence" and "boards" are required');
  const state: LeaderboardsState = { boards: new Map(), byEvent: new Map(), sequence, matched: undefined };
  for (const { definition, standings } of boards) {
    if (!Array.isArray(standings) || !standings.every(isStanding))
      throw new Error(`leaderboards: malformed standings of "${definition?.id}"`);
    state.boards.set(
      definition.id,
      new Leaderboard(
        definition,
        standings.map((s) => new Standing(s.userId, s.scores, s.reached)),
      ),
    );
  }
  return state;
}

export const leaderboardsState: StateSlice<LeaderboardsState> = {
  key: 'leaderboards',
  init: () => ({ boards: new Map(), byEvent: new Map(), sequence: 1, matched: undefined }),
  toJSON: (state, project): LeaderboardsJson => ({
    sequence: state.sequence,
    boards: [...match(state, project.config).boards.values()].map((board) => ({
      definition: board.definition,
      standings: board.slice(0).map((standing) => standing.toJSON()),
    })),
  }),
  fromJSON,
  count: (state) => ({
    leaderboards: state.boards.size,
    standings: [...state.boards.values()].reduce((sum, board) => sum + board.size, 0),
  }),
};

/** The project's leaderboards state, its boards those of the current config. */
export function leaderboards(project: Project): LeaderboardsState {
  return match(project.state(leaderboardsState), project.config);
}

/** The leaderboard of that id; 417 when the config has none (docs/errors.md: "data incorrect"). */
export function leaderboardOf(project: Project, id: string): Leaderboard {
  const board = leaderboards(project).boards.get(id);
  if (!board) throw new ApiError(417, ErrorCode.UNKNOWN_LEADERBOARD, `no leaderboard "${id}"`);
  return board;
}
