import { resolveConfig } from '../../config.js';
import { ApiError, ErrorCode, badRequest } from '../../shared/errors.js';
import type { Project } from '../../shared/project.js';
import { Leaderboard, Standing, type Scores } from './leaderboard.js';
import { leaderboardOf, leaderboards } from './state.js';

// The leaderboard administration of the published Node client (lib/game/rest/gameRest.js), beyond the spec.

/**
 * Sets a player's scores on one leaderboard as given (`PUT /game/leaderboards/{id}/scores` `{userId, scores}`, the
 * client's `updateScore`), whatever the aggregation; the player reaches them now (ties). `scores` holds 1 to 3
 * finite numbers, filled up with 0; entries past the leaderboard's fields must be 0, as the contract's `LeaderboardScores` keeps them.
 *
 * @example
 * setScores(project, 'high-score', { userId, scores: [500, 0, 0] });
 */
export function setScores(project: Project, leaderboardId: string, body: Record<string, unknown>): void {
  const { userId, scores } = body;
  if (typeof userId !== 'string')
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"userId" is required and must be a string');
  if (
    !Array.isArray(scores) ||
    scores.length < 1 ||
    scores.length > 3 ||
    !scores.every((score) => typeof score === 'number' && Number.isFinite(score))
  ) {
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"scores" is required: an array of 1 to 3 finite numbers');
  }
  const board = leaderboardOf(project, leaderboardId);
  const fields = board.definition.fields.length;
  if (scores.slice(fields).some((score) => score !== 0)) {
    throw badRequest(
      ErrorCode.VALIDATION_FAILED,
      `leaderboard "${leaderboardId}" ranks ${fields} field(s): the scores past them must be 0`,
    );
  }
  if (!project.directory.has(userId)) throw new ApiError(417, ErrorCode.USER_NOT_FOUND, `no user "${userId}"`);
  const state = leaderboards(project);
  board.record(
    new Standing(userId, [0, 1, 2].map((i) => (scores[i] as number | undefined) ?? 0) as Scores, state.sequence++),
  );
}

/** Empties one leaderboard (`PUT /game/leaderboards/{id}/reset`, the client's `reset`; also the admin API's reset); 417 for an unknown one. */
export function resetLeaderboard(project: Project, leaderboardId: string): void {
  const { definition } = leaderboardOf(project, leaderboardId);
  leaderboards(project).boards.set(leaderboardId, new Leaderboard(definition));
}

/** Empties every leaderboard (`PUT /game/leaderboards/reset`, the client's `Game.resetAllLeaderBoards`). */
export function resetAllLeaderboards(project: Project): void {
  const { boards } = leaderboards(project);
  for (const [id, board] of boards) boards.set(id, new Leaderboard(board.definition));
}

/**
 * Removes a leaderboard from the project's running config (`DELETE /game/leaderboards/{id}`, the client's
 * `remove`), as `PATCH /__admin/config` would: it answers as one that never existed, its scores are gone, and
 * `GET /__admin/config` no longer lists it. A config file brings it back at the next start. 417 for an unknown one.
 */
export function removeLeaderboard(project: Project, leaderboardId: string): void {
  leaderboardOf(project, leaderboardId);
  const { config } = project;
  project.reconfigure(
    resolveConfig({
      ...config,
      leaderboards: config.leaderboards.filter((definition) => definition.id !== leaderboardId),
    }),
  );
}

/** Takes a deleted user's scores off every leaderboard. */
export function forgetPlayer(project: Project, userId: string): void {
  for (const board of leaderboards(project).boards.values()) board.remove(userId);
}
