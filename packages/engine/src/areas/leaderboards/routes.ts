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
 * The player the caller's token names. A master token names none: 417 rather than 403, since spec 5.6 says
 * master requests never receive a 403 and spec 7 gives these operations 417 for incorrect data.
 */
function player(c: AppContext): string {
  const { userId } = c.var.principal;
  if (!userId) throw new ApiError(417, ErrorCode.OPERATION_FORBIDDEN, 'the master token has no player: this operation needs a user token');
  return userId;
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
