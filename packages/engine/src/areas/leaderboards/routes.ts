import { adminKey } from '../../admin/guard.js';
import { bearer, master, projectHeader, serviceEnabled } from '../../shared/auth/middlewares.js';
import { changes, reads } from '../../shared/durability/declarations.js';
import type { AppContext } from '../../shared/env.js';
import { ApiError, ErrorCode, notFound } from '../../shared/errors.js';
import { intParam, readJsonObject } from '../../shared/http/body.js';
import { createRoutes } from '../../shared/http/routes.js';
import { removeLeaderboard, resetAllLeaderboards, resetLeaderboard, setScores } from './admin.js';
import { submitEvent, submitEvents } from './events.js';
import { aroundMe, playerLeaderboards, rankOf, top, topPage, usersScores } from './results.js';
import { leaderboards } from './state.js';

/**
 * The player an operation is about: the caller's own user, or, for the master token, the user named by `?userId=`
 * (server-side code acts for a player this way; the published clients send it). A master token without `userId`
 * names none: 417 rather than 403, since master requests never receive a 403 (docs/reliability.md#who-can-do-what) and docs/errors.md gives these
 * operations 417 for incorrect data. A user token acts only for its own user.
 */
function player(c: AppContext): string {
  const { userId, isMaster } = c.get('principal');
  const named = c.req.query('userId');
  if (isMaster) {
    if (named === undefined)
      throw new ApiError(
        417,
        ErrorCode.OPERATION_FORBIDDEN,
        'the master token has no player: name one with ?userId= or use a user token',
      );
    if (!c.env.project.directory.has(named)) throw new ApiError(417, ErrorCode.USER_NOT_FOUND, `no user "${named}"`);
    return named;
  }
  if (named !== undefined && named !== userId)
    throw new ApiError(417, ErrorCode.OPERATION_FORBIDDEN, 'a user token acts only for its own user: drop ?userId=');
  return userId!;
}

export const leaderboardsRoutes = createRoutes();

// docs/errors.md: 417 for a disabled service and for a wrong game id.
leaderboardsRoutes.use(
  '/game/*',
  serviceEnabled('leaderboards', 417),
  projectHeader('x-service-game-id', 'gameId', 417),
  bearer,
);

const OK = { message: 'OK' } as const;
const topCount = (c: AppContext) => intParam(c, 'count', { min: 1, max: 100, fallback: 10 });

leaderboardsRoutes.post('/game/events', changes(), async (c) => {
  const userId = player(c);
  submitEvent(c.env.project, userId, await readJsonObject(c));
  return c.json(OK);
});

// The operations below /game/leaderboards/ named by a fixed word come before /game/leaderboards/:id, which would
// take the word for a leaderboard id. Those marked "beyond the spec" are the published Node client's (docs/published-clients.md);
// the ones that change scores of any player need the master token (403 for a user token, code 119).

// Beyond the spec: several players' events at once, each naming its userId.
leaderboardsRoutes.post('/game/events/bulk', changes(), master(), async (c) => {
  submitEvents(c.env.project, await readJsonObject(c));
  return c.json(OK);
});

leaderboardsRoutes.get('/game/leaderboards/top/:id', reads, (c) =>
  c.json(top(c.env.project, c.req.param('id'), topCount(c))),
);

// Beyond the spec: the top list page by page, page 0 first.
leaderboardsRoutes.get('/game/leaderboards/topPage/:id', reads, (c) => {
  const page = intParam(c, 'page', { min: 0, max: Number.MAX_SAFE_INTEGER, fallback: 0 });
  return c.json(topPage(c.env.project, c.req.param('id'), page, topCount(c)));
});

leaderboardsRoutes.get('/game/leaderboards/around-me/:id', reads, (c) => {
  const userId = player(c);
  const count = intParam(c, 'count', { min: 1, max: 20, fallback: 10 });
  return c.json(aroundMe(c.env.project, c.req.param('id'), userId, count));
});

// Beyond the spec: the leaderboards the player has a score on.
leaderboardsRoutes.get('/game/leaderboards/myLeaderboards', reads, (c) =>
  c.json(playerLeaderboards(c.env.project, player(c))),
);

// Beyond the spec: the rank and scores of listed players.
leaderboardsRoutes.post('/game/leaderboards/usersScore/:id', reads, async (c) =>
  c.json(usersScores(c.env.project, c.req.param('id'), await readJsonObject(c))),
);

// Beyond the spec: empties every leaderboard.
leaderboardsRoutes.put('/game/leaderboards/reset', changes(), master(), (c) => {
  resetAllLeaderboards(c.env.project);
  return c.json(OK);
});

leaderboardsRoutes.get('/game/leaderboards/:id', reads, (c) =>
  c.json(rankOf(c.env.project, c.req.param('id'), player(c))),
);

// Beyond the spec: sets a player's scores as given.
leaderboardsRoutes.put('/game/leaderboards/:id/scores', changes(), master(), async (c) => {
  setScores(c.env.project, c.req.param('id'), await readJsonObject(c));
  return c.json(OK);
});

// Beyond the spec: empties one leaderboard.
leaderboardsRoutes.put('/game/leaderboards/:id/reset', changes(), master(), (c) => {
  resetLeaderboard(c.env.project, c.req.param('id'));
  return c.json(OK);
});

// Beyond the spec: removes the leaderboard from the running config.
leaderboardsRoutes.delete('/game/leaderboards/:id', changes(), master(), (c) => {
  removeLeaderboard(c.env.project, c.req.param('id'));
  return c.json(OK);
});

// Admin API (not part of the service contract): empties one leaderboard; 404 for an unknown one.
leaderboardsRoutes.put('/__admin/leaderboards/:id/reset', changes(), adminKey, (c) => {
  const id = c.req.param('id');
  if (!leaderboards(c.env.project).boards.has(id))
    throw notFound(ErrorCode.UNKNOWN_LEADERBOARD, `no leaderboard "${id}"`);
  resetLeaderboard(c.env.project, id);
  return c.json({});
});
