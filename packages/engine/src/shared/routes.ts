import { HonoBase } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import type { AppEnv } from './env.js';

/**
 * A Hono app on TrieRouter alone, as every part of the engine builds its routes. Hono's default router tries
 * RegExpRouter first, which cannot take the database's routes (`classes/query/:table` beside `classes/:table/:id`),
 * and settles on TrieRouter at the first request anyway; naming it keeps RegExpRouter out of browser bundles
 * (1.8 KB gzip) and its failed build out of every start-up.
 *
 * `getPath` (the engine's app only) turns a request into the path routes are matched against.
 *
 * @example
 * export const leaderboardsRoutes = createRoutes();
 * leaderboardsRoutes.get('/leaderboards/:id', handler);
 */
export function createRoutes(getPath?: (request: Request) => string) {
  return new HonoBase<AppEnv>({ router: new TrieRouter(), ...(getPath && { getPath }) });
}
