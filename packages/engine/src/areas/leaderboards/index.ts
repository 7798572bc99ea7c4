import type { Area } from '../../area.js';
import { leaderboardsRoutes } from './routes.js';
import { leaderboardsState } from './state.js';

export const leaderboardsArea: Area = {
  name: 'leaderboards',
  routes: leaderboardsRoutes,
  state: leaderboardsState,
};
