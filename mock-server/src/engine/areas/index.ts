import type { Area } from '../area.js';
import { usersArea } from './users/index.js';

/** Every area the engine serves, in mounting order. */
export const AREAS: readonly Area[] = [usersArea];
