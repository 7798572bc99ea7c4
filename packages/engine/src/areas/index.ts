import type { Area } from '../area.js';
import { databaseArea } from './database/index.js';
import { filesArea } from './files/index.js';
import { leaderboardsArea } from './leaderboards/index.js';
import { transcoderArea } from './transcoder/index.js';
import { usersArea } from './users/index.js';

/** Every area the engine serves, in mounting order. */
export const AREAS: readonly Area[] = [usersArea, leaderboardsArea, databaseArea, transcoderArea, filesArea];
