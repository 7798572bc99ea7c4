import { ApiError, service, type ProjectConfig } from '../../api.js';

export type EventDefinition = ProjectConfig['events'][number];
export type LeaderboardDefinition = ProjectConfig['leaderboards'][number];
export type BoardField = LeaderboardDefinition['fields'][number];

/** A player's line of a top list or neighbourhood (spec 2.7). */
export interface Standing {
  userBriefProfile: { firstName: string; lastName: string; userName: string; userId: string };
  scores: number[];
}

/** Players a page of the top list shows. */
export const TOP_PAGE_SIZE = 20;
/** Players around the chosen one (the service's largest around-me `count` is 20). */
export const NEIGHBOURHOOD_SIZE = 10;

export const fieldLabel = (field: BoardField) => `${field.event}.${field.field}`;

/** `list` with `item` in place of the one of the same key (where it was), or at the end when new. */
export function upsert<T>(list: readonly T[], item: T, key: (t: T) => string): T[] {
  return list.some((t) => key(t) === key(item)) ? list.map((t) => (key(t) === key(item) ? item : t)) : [...list, item];
}

const board = (id: string) => encodeURIComponent(id);

/** A page of the top list (`GET /game/leaderboards/topPage/<id>`, page 0 first) with the master token. */
export async function topPage(id: string, page: number): Promise<Standing[]> {
  return (
    await service<{ usersProfile: Standing[] }>(
      `/game/leaderboards/topPage/${board(id)}?page=${page}&count=${TOP_PAGE_SIZE}`,
    )
  ).usersProfile;
}

/** A player's rank and scores and the players around them, as that player would see them (`?userId=` with the master token). */
export async function neighbourhood(
  id: string,
  userId: string,
): Promise<{ rank: number; scores: number[]; around: Standing[] }> {
  const player = `userId=${encodeURIComponent(userId)}`;
  const [{ rank, scores }, { usersProfile }] = await Promise.all([
    service<{ rank: number; scores: number[] }>(`/game/leaderboards/${board(id)}?${player}`),
    service<{ usersProfile: Standing[] }>(
      `/game/leaderboards/around-me/${board(id)}?${player}&count=${NEIGHBOURHOOD_SIZE}`,
    ),
  ]);
  return { rank, scores, around: usersProfile };
}

/** The user a username or a user id names (the username first); an error saying so when none does. */
export async function findPlayer(text: string): Promise<{ userId: string; username: string }> {
  for (const path of [
    `/auth/users/by-username/${encodeURIComponent(text)}`,
    `/auth/users/${encodeURIComponent(text)}`,
  ]) {
    try {
      return await service<{ userId: string; username: string }>(path);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404) throw error;
    }
  }
  throw new Error(`No user has the username or user id "${text}".`);
}
