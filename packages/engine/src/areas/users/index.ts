import type { Area } from '../../area.js';
import { usersRoutes } from './routes.js';
import { usersState } from './state.js';

export const usersArea: Area = {
  name: 'users',
  routes: usersRoutes,
  state: usersState,
  attach(project) {
    // How the other areas (leaderboards) read a user's profile without reaching into this area's state.
    project.directory = {
      profile(userId) {
        const user = project.state(usersState).users.get(userId);
        return user && { userId, userName: user.username, firstName: user.firstName, lastName: user.lastName };
      },
      has: (userId) => project.state(usersState).users.has(userId),
    };
  },
};
