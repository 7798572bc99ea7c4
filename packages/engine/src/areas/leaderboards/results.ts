import type { UserProfile } from '../../shared/directory.js';
import { ErrorCode, badRequest } from '../../shared/errors.js';
import type { Project } from '../../shared/project.js';
import type { Leaderboard, Scores, Standing } from './leaderboard.js';
import { leaderboardOf, leaderboards } from './state.js';

/** A rank result (the contract's `LeaderboardRankResult`). */
interface RankResult {
  /** From 1; 0 when the player has no score yet. */
  rank: number;
  scores: Scores;
}

/** A profile list result (the contract's `LeaderboardProfileList`). */
interface ProfileListResult {
  usersProfile: { userBriefProfile: UserProfile; scores: Scores }[];
  message: 'OK';
}

function profileList(project: Project, standings: Standing[]): ProfileListResult {
  return {
    usersProfile: standings.map(({ userId, scores }) => ({
      // A player whose user no longer exists keeps their place, with empty names.
      userBriefProfile: project.directory.profile(userId) ?? { userId, userName: '', firstName: '', lastName: '' },
      scores,
    })),
    message: 'OK',
  };
}

/**
 * The player's rank and scores on a leaderboard (the contract's `getLeaderboardRank`).
 *
 * @example
 * rankOf(project, 'high-score', userId); // { rank: 3, scores: [120, 0, 0] }
 */
export function rankOf(project: Project, leaderboardId: string, userId: string): RankResult {
  return rankIn(leaderboardOf(project, leaderboardId), userId);
}

function rankIn(board: Leaderboard, userId: string): RankResult {
  const standing = board.standing(userId);
  if (!standing) return { rank: 0, scores: [0, 0, 0] };
  return { rank: board.positionOf(userId) + 1, scores: standing.scores };
}

/**
 * The best `count` players (the contract's `getLeaderboardTop`).
 *
 * @example
 * top(project, 'high-score', 10).usersProfile[0]?.userBriefProfile.userName;
 */
export function top(project: Project, leaderboardId: string, count: number): ProfileListResult {
  return profileList(project, leaderboardOf(project, leaderboardId).slice(0, count));
}

/**
 * The player with up to ⌊count/2⌋ players directly above and up to ⌈count/2⌉ directly below, in rank order
 * (the contract's `getLeaderboardAroundMe`); empty when the player has no score.
 *
 * @example
 * aroundMe(project, 'high-score', userId, 10); // five above, the player, five below
 */
export function aroundMe(project: Project, leaderboardId: string, userId: string, count: number): ProfileListResult {
  const board = leaderboardOf(project, leaderboardId);
  const position = board.positionOf(userId);
  if (position < 0) return profileList(project, []);
  return profileList(project, board.slice(position - Math.floor(count / 2), position + Math.ceil(count / 2) + 1));
}

/**
 * One page of the ranking, `count` players from position `page × count` (beyond the spec:
 * `GET /game/leaderboards/topPage/{id}`, the published Node client's `getTopUsersWithPagination`); page 0 is the top.
 *
 * @example
 * topPage(project, 'high-score', 1, 10).usersProfile; // the players ranked 11 to 20
 */
export function topPage(project: Project, leaderboardId: string, page: number, count: number): ProfileListResult {
  const start = page * count;
  return profileList(project, leaderboardOf(project, leaderboardId).slice(start, start + count));
}

/** A player's standing in the answer of `usersScores`. */
interface UserScore extends RankResult {
  userId: string;
}

/**
 * The rank and scores of each listed player, in the order asked, each once (beyond the spec:
 * `POST /game/leaderboards/usersScore/{id}` `{userIdList}`, the published Node client's `getUsersScore`). A player
 * with no score, or no such user, answers rank 0 and `[0, 0, 0]`, as the rank operation does.
 *
 * @example
 * usersScores(project, 'high-score', { userIdList: [annId, bobId] }); // { leaderboardInfoList: [{ userId: annId, rank: 1, scores: [120, 0, 0] }, …] }
 */
export function usersScores(
  project: Project,
  leaderboardId: string,
  body: Record<string, unknown>,
): { leaderboardInfoList: UserScore[] } {
  const { userIdList: userIds } = body;
  if (!Array.isArray(userIds) || !userIds.every((id) => typeof id === 'string')) {
    throw badRequest(ErrorCode.VALIDATION_FAILED, '"userIdList" is required and must be an array of strings');
  }
  const board = leaderboardOf(project, leaderboardId);
  return { leaderboardInfoList: [...new Set(userIds)].map((userId) => ({ userId, ...rankIn(board, userId) })) };
}

/**
 * The ids of the leaderboards on which the player has a score, in the order of the config (beyond the spec:
 * `GET /game/leaderboards/myLeaderboards`, the published Node client's `Game.getUserLeaderBoards`). The answer's key
 * is spelled `userLeaderbaordsId`, as that client reads it.
 *
 * @example
 * playerLeaderboards(project, userId); // { userLeaderbaordsId: ['high-score', 'total-kills'] }
 */
export function playerLeaderboards(project: Project, userId: string): { userLeaderbaordsId: string[] } {
  const boards = [...leaderboards(project).boards.values()];
  return { userLeaderbaordsId: boards.filter((board) => board.standing(userId)).map((board) => board.definition.id) };
}
