import type { Core } from '../core/core.js';
import type { CallOptions } from '../core/options.js';
import type { components } from '../generated/schema.js';

/** A player's rank (from 1) and scores (spec 2.7). */
export type Rank = components['schemas']['LeaderboardRankResult'];
/** A list of players with their scores (spec 2.7). */
export type ProfileList = components['schemas']['LeaderboardProfileList'];

/** Options of the calls about one player. */
export interface PlayerOptions extends CallOptions {
  /**
   * With the master token (server-side code only): the player to act for. Beyond the spec: the service accepted
   * it from its published clients. A user token acts only for its own user.
   */
  userId?: string;
}

/** Game events and leaderboards (spec 4.8). */
export type Leaderboards = ReturnType<typeof createLeaderboards>;

/**
 * Creates the leaderboards client on a core; it sends `X-Service-Game-Id` and the session's (user) token.
 *
 * @example
 * const boards = createLeaderboards(createCore({ baseUrl, authenticationId, clientKey, gameId }));
 * await boards.sendEvent('match_end', { score: 120, kills: 3 });
 * const { rank } = await boards.rank('high-score');
 */
export function createLeaderboards(core: Core) {
  const { baseUrl, gameId } = core.options;
  const http = core.http(baseUrl, gameId ? { 'X-Service-Game-Id': gameId } : {});

  return {
    /**
     * Submits a game event with its field values (spec 4.8 #1); the leaderboards defined on them update.
     *
     * @example
     * await boards.sendEvent('match_end', { score: 120, kills: 3 });
     * await adminBoards.sendEvent('match_end', { score: 90 }, { userId: 'player-id' }); // master token
     */
    async sendEvent(eventName: string, fields: Record<string, number>, { signal, userId }: PlayerOptions = {}): Promise<void> {
      const fieldsAndValues = Object.entries(fields).map(([fieldName, value]) => ({ fieldName, value }));
      await core.call(http.POST('/game/events', { params: { query: { userId } }, body: { eventName, fieldsAndValues }, signal }));
    },

    /**
     * The signed-in player's rank and scores (spec 4.8 #2).
     *
     * @example
     * const { rank, scores } = await boards.rank('high-score');
     */
    rank: (leaderboardId: string, { signal, userId }: PlayerOptions = {}): Promise<Rank> =>
      core.call(http.GET('/game/leaderboards/{leaderboardId}', { params: { path: { leaderboardId }, query: { userId } }, signal })),

    /**
     * The best `count` players (spec 4.8 #3).
     *
     * @example
     * const { usersProfile } = await boards.top('high-score', 10);
     */
    top: (leaderboardId: string, count: number, { signal }: CallOptions = {}): Promise<ProfileList> =>
      core.call(http.GET('/game/leaderboards/top/{leaderboardId}', { params: { path: { leaderboardId }, query: { count } }, signal })),

    /**
     * The signed-in player and the players around them, `count` in all (spec 4.8 #4).
     *
     * @example
     * const { usersProfile } = await boards.aroundMe('high-score', 10);
     */
    aroundMe: (leaderboardId: string, count: number, { signal, userId }: PlayerOptions = {}): Promise<ProfileList> =>
      core.call(http.GET('/game/leaderboards/around-me/{leaderboardId}', { params: { path: { leaderboardId }, query: { count, userId } }, signal })),
  };
}
