import type { components } from '@basekit/sdk';
import { NotFoundError } from '@basekit/sdk/core';
import { dataOf, service, type ProjectConfig } from '../../api.js';

export type EventDefinition = ProjectConfig['events'][number];
export type LeaderboardDefinition = ProjectConfig['leaderboards'][number];
export type BoardField = LeaderboardDefinition['fields'][number];

/** A player's line of a top list or neighbourhood (the contract's `LeaderboardProfileList`). */
export type Standing = components['schemas']['LeaderboardProfileList']['usersProfile'][number];

/** Players a page of the top list shows. */
export const TOP_PAGE_SIZE = 20;
/** Players around the chosen one (the service's largest around-me `count` is 20). */
const NEIGHBOURHOOD_SIZE = 10;

export const fieldLabel = (field: BoardField) => `${field.event}.${field.field}`;

/** `list` with `item` in place of the one of the same key (where it was), or at the end when new. */
export function upsert<T>(list: readonly T[], item: T, key: (t: T) => string): T[] {
  return list.some((t) => key(t) === key(item)) ? list.map((t) => (key(t) === key(item) ? item : t)) : [...list, item];
}

/** A page of the top list (`GET /game/leaderboards/topPage/<id>`, page 0 first) with the master token. */
export async function topPage(leaderboardId: string, page: number): Promise<Standing[]> {
  const params = { path: { leaderboardId }, query: { page, count: TOP_PAGE_SIZE } };
  return (await dataOf(service().GET('/game/leaderboards/topPage/{leaderboardId}', { params }))).usersProfile;
}

/** A player's rank and scores and the players around them, as that player would see them (`?userId=` with the master token). */
export async function neighbourhood(
  leaderboardId: string,
  userId: string,
): Promise<{ rank: number; scores: number[]; around: Standing[] }> {
  const path = { leaderboardId };
  const [{ rank, scores }, { usersProfile }] = await Promise.all([
    dataOf(service().GET('/game/leaderboards/{leaderboardId}', { params: { path, query: { userId } } })),
    dataOf(
      service().GET('/game/leaderboards/around-me/{leaderboardId}', {
        params: { path, query: { userId, count: NEIGHBOURHOOD_SIZE } },
      }),
    ),
  ]);
  return { rank, scores, around: usersProfile };
}

/** The user a username or a user id names (the username first); an error saying so when none does. */
export async function findPlayer(text: string): Promise<{ userId: string; username: string }> {
  for (const find of [
    () => service().GET('/auth/users/by-username/{username}', { params: { path: { username: text } } }),
    () => service().GET('/auth/users/{userId}', { params: { path: { userId: text } } }),
  ]) {
    try {
      return await dataOf(find());
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  throw new Error(`No user has the username or user id "${text}".`);
}
