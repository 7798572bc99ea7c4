import type { Area } from '../../area.js';
import { filesRoutes } from './routes.js';
import { filesState } from './state.js';

/** File storage (openapi/areas/files.yaml): upload, folders, listing, info, delete, copy, move, rename and downloads. */
export const filesArea: Area = {
  name: 'storage',
  routes: filesRoutes,
  state: filesState,
  attach(project) {
    // Restores the tree a durable store saved (--data-dir) now, at start-up, rather than on first use.
    project.state(filesState);
  },
};
