import type { Area } from '../../area.js';
import { forgetPlayer } from './admin.js';
import { leaderboardsRoutes } from './routes.js';
import { leaderboardsState } from './state.js';

export const leaderboardsArea: Area = {
  name: 'leaderboards',
  routes: leaderboardsRoutes,
  state: leaderboardsState,
  attach(project) {
    project.onUserDeleted((userId) => forgetPlayer(project, userId));
  },
};
