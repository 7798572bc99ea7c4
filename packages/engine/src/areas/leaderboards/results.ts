import type { UserProfile } from '../../shared/directory.js';
import type { Project } from '../../shared/project.js';
import type { Scores, Standing } from './leaderboard.js';
import { leaderboardOf } from './state.js';

/** Spec 2.7 rank result. */
export interface RankResult {
  /** From 1; 0 when the player has no score yet. */
  rank: number;
  scores: Scores;
}

/** Spec 2.7 profile list result. */
export interface ProfileListResult {
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
 * The player's rank and scores on a leaderboard (spec 4.8 #2).
 *
 * @example
 * rankOf(project, 'high-score', userId); // { rank: 3, scores: [120, 0, 0] }
 */
export function rankOf(project: Project, leaderboardId: string, userId: string): RankResult {
  const board = leaderboardOf(project, leaderboardId);
  const standing = board.standing(userId);
  if (!standing) return { rank: 0, scores: [0, 0, 0] };
  return { rank: board.positionOf(userId) + 1, scores: standing.scores };
}

/**
 * The best `count` players (spec 4.8 #3).
 *
 * @example
 * top(project, 'high-score', 10).usersProfile[0]?.userBriefProfile.userName;
 */
export function top(project: Project, leaderboardId: string, count: number): ProfileListResult {
  return profileList(project, leaderboardOf(project, leaderboardId).slice(0, count));
}

/**
 * The player with up to ⌊count/2⌋ players directly above and up to ⌈count/2⌉ directly below, in rank order
 * (spec 4.8 #4); empty when the player has no score.
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
