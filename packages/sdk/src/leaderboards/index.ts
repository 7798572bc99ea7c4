/**
 * `@basekit/sdk/leaderboards`: game events and leaderboards, for an app that imports it alone.
 *
 * @example
 * import { createCore } from '@basekit/sdk/core';
 * import { createLeaderboards } from '@basekit/sdk/leaderboards';
 * const boards = createLeaderboards(createCore({ baseUrl, authenticationId, clientKey, gameId }));
 *
 * @module @basekit/sdk/leaderboards
 */
import { areaHttp, type AreaOf } from '../core/area-ids.js';
import type { Core } from '../core/core.js';
import type { CallOptions, ClientOptions } from '../core/options.js';
import type { components } from '../generated/schema.js';

/**
 * A player's rank (from 1) and scores (the contract's `LeaderboardRankResult`).
 *
 * @example
 * const { rank, scores }: Rank = await client.leaderboards.rank('high-score');
 */
export type Rank = components['schemas']['LeaderboardRankResult'];
/**
 * A list of players with their scores (the contract's `LeaderboardProfileList`).
 *
 * @example
 * const top: ProfileList = await client.leaderboards.top('high-score', 10);
 * top.usersProfile.map((player) => player.userBriefProfile.userName);
 */
export type ProfileList = components['schemas']['LeaderboardProfileList'];

/**
 * One player of a profile list: brief profile and scores.
 *
 * @example
 * const [first]: RankedPlayer[] = (await client.leaderboards.top('high-score', 1)).usersProfile;
 */
export type RankedPlayer = ProfileList['usersProfile'][number];
/**
 * A listed player's rank (0 without a score) and scores, from `usersScores`.
 *
 * @example
 * const scores: PlayerScore[] = await admin.leaderboards.usersScores('high-score', [annId, bobId]);
 */
export type PlayerScore = components['schemas']['LeaderboardUsersScores']['leaderboardInfoList'][number];
/**
 * One player's event in `sendEvents`: whose it is, the event's name and its field values.
 *
 * @example
 * const events: PlayerEvent[] = [{ userId: annId, eventName: 'match_end', fields: { score: 120 } }];
 * await admin.leaderboards.sendEvents(events);
 */
export interface PlayerEvent {
  userId: string;
  eventName: string;
  fields: Record<string, number>;
}

const fieldValues = (fields: Record<string, number>) =>
  Object.entries(fields).map(([fieldName, value]) => ({ fieldName, value }));

/**
 * Options of the calls about one player.
 *
 * @example
 * await admin.leaderboards.sendEvent('match_end', { score: 90 }, { userId: 'player-id' });
 */
export interface PlayerOptions extends CallOptions {
  /**
   * With the master token (server-side code only): the player to act for. Beyond the spec: the service accepted
   * it from its published clients. A user token acts only for its own user.
   */
  userId?: string;
}

/**
 * Game events and leaderboards (openapi/areas/leaderboards.yaml).
 *
 * @example
 * const boards: Leaderboards = client.leaderboards;
 * await boards.sendEvent('match_end', { score: 120 });
 */
export type Leaderboards = ReturnType<typeof leaderboardsOn>;

/**
 * Creates the leaderboards client on a core; it sends `X-Service-Game-Id` and the session's (user) token. On a core
 * without `gameId` it does not compile (`MissingOption<'gameId'>`), and its calls reject with `MissingOptionError`.
 *
 * @example
 * const boards = createLeaderboards(createCore({ baseUrl, authenticationId, clientKey, gameId }));
 * await boards.sendEvent('match_end', { score: 120, kills: 3 });
 * const { rank } = await boards.rank('high-score');
 */
export function createLeaderboards<O extends ClientOptions>(core: Core<O>): AreaOf<O, 'gameId', Leaderboards> {
  return leaderboardsOn(core) as AreaOf<O, 'gameId', Leaderboards>;
}

function leaderboardsOn(core: Core) {
  const http = areaHttp(core, core.options.baseUrl, 'gameId');

  /**
   * One page of the ranking: `count` players from position `page × count`, page 0 first (beyond the spec: the
   * service's published Node client calls it).
   *
   * @example
   * const { usersProfile } = await boards.topPage('high-score', 1, 10); // ranks 11 to 20
   */
  const topPage = (
    leaderboardId: string,
    page: number,
    count: number,
    { signal }: CallOptions = {},
  ): Promise<ProfileList> =>
    core.call(
      http.GET('/game/leaderboards/topPage/{leaderboardId}', {
        params: { path: { leaderboardId }, query: { page, count } },
        signal,
      }),
    );

  return {
    /**
     * Submits a game event with its field values (the contract's `submitGameEvent`); the leaderboards defined on them update.
     *
     * @example
     * await boards.sendEvent('match_end', { score: 120, kills: 3 });
     * await adminBoards.sendEvent('match_end', { score: 90 }, { userId: 'player-id' }); // master token
     */
    async sendEvent(
      eventName: string,
      fields: Record<string, number>,
      { signal, userId }: PlayerOptions = {},
    ): Promise<void> {
      await core.call(
        http.POST('/game/events', {
          params: { query: { userId } },
          body: { eventName, fieldsAndValues: fieldValues(fields) },
          signal,
        }),
      );
    },

    /**
     * Submits several players' events at once, in order, all or none (beyond the spec: the service's published
     * Node client calls it). Master only: server-side code, each event naming its player.
     *
     * @example
     * await admin.leaderboards.sendEvents([
     *   { userId: annId, eventName: 'match_end', fields: { score: 120 } },
     *   { userId: bobId, eventName: 'match_end', fields: { score: 90 } },
     * ]);
     */
    async sendEvents(events: PlayerEvent[], { signal }: CallOptions = {}): Promise<void> {
      const eventBunchDataList = events.map(({ userId, eventName, fields }) => ({
        userId,
        eventName,
        fieldsAndValues: fieldValues(fields),
      }));
      await core.call(http.POST('/game/events/bulk', { body: { eventBunchDataList }, signal }));
    },

    /**
     * The signed-in player's rank and scores (the contract's `getLeaderboardRank`).
     *
     * @example
     * const { rank, scores } = await boards.rank('high-score');
     */
    rank: (leaderboardId: string, { signal, userId }: PlayerOptions = {}): Promise<Rank> =>
      core.call(
        http.GET('/game/leaderboards/{leaderboardId}', {
          params: { path: { leaderboardId }, query: { userId } },
          signal,
        }),
      ),

    /**
     * The best `count` players (the contract's `getLeaderboardTop`).
     *
     * @example
     * const { usersProfile } = await boards.top('high-score', 10);
     */
    top: (leaderboardId: string, count: number, { signal }: CallOptions = {}): Promise<ProfileList> =>
      core.call(
        http.GET('/game/leaderboards/top/{leaderboardId}', {
          params: { path: { leaderboardId }, query: { count } },
          signal,
        }),
      ),

    topPage,

    /**
     * Every ranked player, best first, fetched `pageSize` at a time (default 100, at most 100) with `topPage`.
     * Scores that change while it runs can move a player across a page boundary (seen twice, or not at all).
     *
     * @example
     * for await (const { userBriefProfile, scores } of boards.ranking('high-score')) console.log(userBriefProfile.userName, scores[0]);
     */
    async *ranking(
      leaderboardId: string,
      { signal, pageSize = 100 }: CallOptions & { pageSize?: number } = {},
    ): AsyncGenerator<RankedPlayer, void, undefined> {
      for (let page = 0; ; page++) {
        const { usersProfile } = await topPage(leaderboardId, page, pageSize, { signal });
        yield* usersProfile;
        if (usersProfile.length < pageSize) return;
      }
    },

    /**
     * The ids of the leaderboards the signed-in player (or, with the master token, `userId`) has a score on (beyond
     * the spec: the service's published Node client calls it).
     *
     * @example
     * const ids = await boards.myLeaderboards(); // ['high-score', 'total-kills']
     */
    myLeaderboards: async ({ signal, userId }: PlayerOptions = {}): Promise<string[]> =>
      (await core.call(http.GET('/game/leaderboards/myLeaderboards', { params: { query: { userId } }, signal })))
        .userLeaderbaordsId,

    /**
     * The rank and scores of each listed player, in the order asked (beyond the spec: the service's published Node
     * client calls it); rank 0 for a player without a score.
     *
     * @example
     * const [ann, bob] = await boards.usersScores('high-score', [annId, bobId]);
     */
    usersScores: async (
      leaderboardId: string,
      userIds: string[],
      { signal }: CallOptions = {},
    ): Promise<PlayerScore[]> =>
      (
        await core.call(
          http.POST('/game/leaderboards/usersScore/{leaderboardId}', {
            params: { path: { leaderboardId } },
            body: { userIdList: userIds },
            signal,
          }),
        )
      ).leaderboardInfoList,

    /**
     * Sets a player's scores as given, whatever the leaderboard's aggregation (beyond the spec: the service's
     * published Node client calls it). Master only.
     *
     * @example
     * await admin.leaderboards.setScores('high-score', userId, [500]);
     */
    async setScores(
      leaderboardId: string,
      userId: string,
      scores: number[],
      { signal }: CallOptions = {},
    ): Promise<void> {
      await core.call(
        http.PUT('/game/leaderboards/{leaderboardId}/scores', {
          params: { path: { leaderboardId } },
          body: { userId, scores },
          signal,
        }),
      );
    },

    /**
     * Empties one leaderboard (beyond the spec: the service's published Node client calls it). Master only.
     *
     * @example
     * await admin.leaderboards.reset('weekly');
     */
    async reset(leaderboardId: string, { signal }: CallOptions = {}): Promise<void> {
      await core.call(
        http.PUT('/game/leaderboards/{leaderboardId}/reset', { params: { path: { leaderboardId } }, signal }),
      );
    },

    /**
     * Empties every leaderboard of the game (beyond the spec: the service's published Node client calls it).
     * Master only.
     *
     * @example
     * await admin.leaderboards.resetAll();
     */
    async resetAll({ signal }: CallOptions = {}): Promise<void> {
      await core.call(http.PUT('/game/leaderboards/reset', { signal }));
    },

    /**
     * Removes a leaderboard from the game: afterwards it is unknown (beyond the spec: the service's published Node
     * client calls it). Master only.
     *
     * @example
     * await admin.leaderboards.remove('season-1');
     */
    async remove(leaderboardId: string, { signal }: CallOptions = {}): Promise<void> {
      await core.call(
        http.DELETE('/game/leaderboards/{leaderboardId}', { params: { path: { leaderboardId } }, signal }),
      );
    },

    /**
     * The signed-in player and the players around them, `count` in all (the contract's `getLeaderboardAroundMe`).
     *
     * @example
     * const { usersProfile } = await boards.aroundMe('high-score', 10);
     */
    aroundMe: (leaderboardId: string, count: number, { signal, userId }: PlayerOptions = {}): Promise<ProfileList> =>
      core.call(
        http.GET('/game/leaderboards/around-me/{leaderboardId}', {
          params: { path: { leaderboardId }, query: { count, userId } },
          signal,
        }),
      ),
  };
}
