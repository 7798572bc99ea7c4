import { HonoBase } from 'hono/hono-base';
import { TrieRouter } from 'hono/router/trie-router';
import { onLastHandler } from '../durability/declarations.js';
import type { AppEnv } from '../env.js';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/**
 * A Hono app on TrieRouter alone, as every part of the engine builds its routes. Hono's default router tries
 * RegExpRouter first, which cannot take the database's routes (`classes/query/:table` beside `classes/:table/:id`),
 * and settles on TrieRouter at the first request anyway; naming it keeps RegExpRouter out of browser bundles
 * (1.8 KB gzip) and its failed build out of every start-up. Each route's declaration of the state it changes
 * (`reads`, `changes()`: see `../durability/declarations.ts`) is carried by its own handler rather than run as a step.
 *
 * `getPath` (the engine's app only) turns a request into the path routes are matched against.
 *
 * @example
 * export const leaderboardsRoutes = createRoutes();
 * leaderboardsRoutes.get('/leaderboards/:id', reads, handler);
 */
export function createRoutes(getPath?: (request: Request) => string) {
  const app = new HonoBase<AppEnv>({ router: new TrieRouter(), ...(getPath && { getPath }) });
  for (const method of METHODS) {
    const register = app[method] as (path: string, ...handlers: object[]) => typeof app;
    Object.assign(app, {
      [method]: (path: string, ...handlers: object[]) => register(path, ...onLastHandler(handlers)),
    });
  }
  return app;
}
