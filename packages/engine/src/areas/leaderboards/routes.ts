import { Hono } from 'hono';
import { adminKey } from '../../admin/guard.js';
import { bearer, projectHeader, serviceEnabled } from '../../shared/auth.js';
import type { AppContext, AppEnv } from '../../shared/env.js';
import { ApiError, ErrorCode, notFound } from '../../shared/errors.js';
import { intParam, readJsonObject } from '../../shared/http.js';
import { submitEvent } from './events.js';
import { aroundMe, rankOf, top } from './results.js';
import { resetLeaderboard } from './state.js';

/**
 * The player an operation is about: the caller's own user, or, for the master token, the user named by `?userId=`
 * (server-side code acts for a player this way; the published clients send it). A master token without `userId`
 * names none: 417 rather than 403, since spec 5.6 says master requests never receive a 403 and spec 7 gives these
 * operations 417 for incorrect data. A user token acts only for its own user.
 */
function player(c: AppContext): string {
  const { userId, isMaster } = c.var.principal;
  const named = c.req.query('userId');
  if (isMaster) {
    if (named === undefined) throw new ApiError(417, ErrorCode.OPERATION_FORBIDDEN, 'the master token has no player: name one with ?userId= or use a user token');
    if (!c.env.project.directory.has(named)) throw new ApiError(417, ErrorCode.USER_NOT_FOUND, `no user "${named}"`);
    return named;
  }
  if (named !== undefined && named !== userId) throw new ApiError(417, ErrorCode.OPERATION_FORBIDDEN, 'a user token acts only for its own user: drop ?userId=');
  return userId!;
}

export const leaderboardsRoutes = new Hono<AppEnv>();

// Spec 7 answers 417 for a disabled service and for a wrong game id.
leaderboardsRoutes.use('/game/*', serviceEnabled('leaderboards', 417), projectHeader('x-service-game-id', 'gameId', 417), bearer);

leaderboardsRoutes.post('/game/events', async (c) => {
  const userId = player(c);
  submitEvent(c.env.project, userId, await readJsonObject(c));
  return c.json({ message: 'OK' });
});

leaderboardsRoutes.get('/game/leaderboards/top/:id', (c) => {
  const count = intParam(c, 'count', { min: 1, max: 100, fallback: 10 });
  return c.json(top(c.env.project, c.req.param('id'), count));
});

leaderboardsRoutes.get('/game/leaderboards/around-me/:id', (c) => {
  const userId = player(c);
  const count = intParam(c, 'count', { min: 1, max: 20, fallback: 10 });
  return c.json(aroundMe(c.env.project, c.req.param('id'), userId, count));
});

leaderboardsRoutes.get('/game/leaderboards/:id', (c) => c.json(rankOf(c.env.project, c.req.param('id'), player(c))));

// Admin API (not part of the service contract): empties one leaderboard.
leaderboardsRoutes.put('/__admin/leaderboards/:id/reset', adminKey, (c) => {
  const id = c.req.param('id');
  if (!resetLeaderboard(c.env.project, id)) throw notFound(ErrorCode.UNKNOWN_LEADERBOARD, `no leaderboard "${id}"`);
  return c.json({});
});
