import { expect } from 'vitest';
import type { ConfigInput } from '@basekit/engine';
import type { TestUser } from '../../../mock-server/test/support/users.js';
import type { Service } from '../support/service.js';
import { settle } from './client.js';
import type { Case } from './case.js';

/** The leaderboards the cases play on; `to-remove` exists for `LeaderBoard.remove` alone. */
export const LEADERBOARDS: Pick<ConfigInput, 'events' | 'leaderboards'> = {
  events: [
    { name: 'match_end', fields: ['score', 'kills'] },
    { name: 'level_up', fields: ['level'] },
  ],
  leaderboards: [
    { id: 'high-score', fields: [{ event: 'match_end', field: 'score' }] },
    { id: 'most-kills', fields: [{ event: 'match_end', field: 'kills' }], aggregation: 'sum' },
    { id: 'to-remove', fields: [{ event: 'level_up', field: 'level' }] },
  ],
};

interface ProfileList {
  usersProfile: { userBriefProfile: { userId: string }; scores: number[] }[];
}

/** What a player's own token reads of a leaderboard (the contract's `getLeaderboardRank` and `getLeaderboardTop`): what the client must see too. */
const rank = (service: Service, user: TestUser, board: string) =>
  service.call<{ rank: number; scores: number[] }>('GET', `/game/leaderboards/${board}`, user.auth);
const top = (service: Service, user: TestUser, board: string, count: number) =>
  service.call<ProfileList>('GET', `/game/leaderboards/top/${board}?count=${count}`, user.auth);

/** New players with one `match_end` each, in the order of `scores`. */
async function players(service: Service, prefix: string, scores: number[]): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (const score of scores) {
    const user = await service.user(prefix);
    await service.event(user, 'match_end', { score, kills: 1 });
    users.push(user);
  }
  return users;
}

/** `lib/game/game.js` and `lib/game/rest/gameRest.js`: every call with the master token, the player named by `userId`. */
export const LEADERBOARD_CASES: Case[] = [
  {
    operation: 'Event.sendFromUser',
    async drive({ client, service }) {
      const user = await service.user('sender');
      const event = new client.Event('match_end');
      event.add('score', 42);
      event.add('kills', 3);
      await settle((o) => event.sendFromUser(user.userId, o));
      expect((await rank(service, user, 'high-score')).body.scores).toEqual([42, 0, 0]);
      expect((await rank(service, user, 'most-kills')).body.scores).toEqual([3, 0, 0]);
    },
  },
  {
    operation: 'EventBulk.send',
    async drive({ client, service }) {
      const [first, second] = [await service.user('bulk'), await service.user('bulk')];
      const bulk = new client.EventBulk();
      for (const [user, score] of [
        [first, 11],
        [second, 12],
      ] as const) {
        const event = new client.Event('match_end');
        event.add('score', score);
        bulk.add(event, user.userId);
      }
      await settle((o) => bulk.send(o));
      expect((await rank(service, first, 'high-score')).body.scores[0]).toBe(11);
      expect((await rank(service, second, 'high-score')).body.scores[0]).toBe(12);
    },
  },
  {
    operation: 'LeaderBoard.getUserRank',
    async drive({ client, service }) {
      const [user] = await players(service, 'ranked', [33]);
      const [place, scores] = await settle<[number, number[]]>((o) =>
        new client.LeaderBoard('high-score').getUserRank(user!.userId, o),
      );
      expect({ rank: place, scores }).toEqual((await rank(service, user!, 'high-score')).body);
    },
  },
  {
    operation: 'LeaderBoard.getAroundUser',
    async drive({ client, service }) {
      const [user] = await players(service, 'centered', [34, 35, 36]);
      const [list] = await settle<[unknown]>((o) =>
        new client.LeaderBoard('high-score').getAroundUser(user!.userId, 4, o),
      );
      expect(list).toEqual(
        (await service.call('GET', '/game/leaderboards/around-me/high-score?count=4', user!.auth)).body,
      );
    },
  },
  {
    operation: 'LeaderBoard.getTopUsers',
    async drive({ client, service }) {
      const [user] = await players(service, 'topped', [37]);
      const [list] = await settle<[unknown]>((o) => new client.LeaderBoard('high-score').getTopUsers(3, o));
      expect(list).toEqual((await top(service, user!, 'high-score', 3)).body);
    },
  },
  {
    operation: 'LeaderBoard.getTopUsersWithPagination',
    async drive({ client, service }) {
      const [user] = await players(service, 'paged', [101, 102, 103, 104]);
      // Page 0 is the first (the client's own test asks for page 0 and expects a full page).
      const [list] = await settle<[unknown]>((o) =>
        new client.LeaderBoard('high-score').getTopUsersWithPagination(1, 2, o),
      );
      expect((list as ProfileList).usersProfile).toEqual(
        (await top(service, user!, 'high-score', 4)).body.usersProfile.slice(2, 4),
      );
    },
  },
  {
    operation: 'Game.getUserLeaderBoards',
    async drive({ client, service }) {
      const [user] = await players(service, 'member', [5]);
      // Callback form: the client's getUserLeaderBoardsAsync calls a LeaderBoard method that does not exist.
      const [ids] = await settle<[unknown]>((o) => client.Game.getUserLeaderBoards(user!.userId, o));
      expect(ids, 'the answer\'s "userLeaderbaordsId" (spelled so in the client)').toEqual(
        expect.arrayContaining(['high-score', 'most-kills']),
      );
      expect(ids).not.toContain('to-remove');
    },
  },
  {
    operation: 'LeaderBoard.getUsersScore',
    async drive({ client, service }) {
      const [first, second] = await players(service, 'scored', [21, 22]);
      const [list] = await settle<[unknown]>((o) =>
        new client.LeaderBoard('high-score').getUsersScore([first!.userId, second!.userId], o),
      );
      expect(list, 'the answer\'s "leaderboardInfoList"').toEqual(
        expect.arrayContaining([
          expect.objectContaining({ userId: first!.userId, scores: [21, 0, 0] }),
          expect.objectContaining({ userId: second!.userId, scores: [22, 0, 0] }),
        ]),
      );
    },
  },
  {
    operation: 'LeaderBoard.updateScore',
    async drive({ client, service }) {
      const [user] = await players(service, 'corrected', [9]);
      await settle((o) => new client.LeaderBoard('high-score').updateScore(user!.userId, [77, 0, 0], o));
      expect((await rank(service, user!, 'high-score')).body.scores).toEqual([77, 0, 0]);
    },
  },
  {
    operation: 'LeaderBoard.reset',
    async drive({ client, service }) {
      const [user] = await players(service, 'reset', [8]);
      await settle((o) => new client.LeaderBoard('most-kills').reset(o));
      expect((await top(service, user!, 'most-kills', 10)).body.usersProfile).toEqual([]);
      expect((await rank(service, user!, 'high-score')).body.scores[0], 'another leaderboard was reset too').toBe(8);
    },
  },
  {
    operation: 'Game.resetAllLeaderBoards',
    async drive({ client, service }) {
      const [user] = await players(service, 'reset-all', [7]);
      await settle((o) => client.Game.resetAllLeaderBoards(o));
      for (const board of ['high-score', 'most-kills'])
        expect((await top(service, user!, board, 10)).body.usersProfile, board).toEqual([]);
    },
  },
  {
    operation: 'LeaderBoard.remove',
    async drive({ client, service }) {
      const user = await service.user('remover');
      await service.event(user, 'level_up', { level: 3 });
      await settle((o) => new client.LeaderBoard('to-remove').remove(o));
      // A removed leaderboard answers as one that never existed.
      const unknown = await rank(service, user, 'never-existed');
      expect((await rank(service, user, 'to-remove')).status).toBe(unknown.status);
    },
  },
];
