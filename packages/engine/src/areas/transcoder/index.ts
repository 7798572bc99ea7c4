import type { Area } from '../../area.js';
import { transcoderRoutes } from './routes.js';
import { transcoderState } from './state.js';

/** The video transcoder (spec 2.8, 4.7, 6): settings records, conversion jobs, deliveries and webhooks. */
export const transcoderArea: Area = {
  name: 'transcoder',
  routes: transcoderRoutes,
  state: transcoderState,
};
