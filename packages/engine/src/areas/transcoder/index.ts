import type { Area } from '../../area.js';
import { transcoderRoutes } from './routes.js';
import { transcoderState } from './state.js';

/** The video transcoder (openapi/areas/transcoder.yaml): settings records, conversion jobs, deliveries and webhooks. */
export const transcoderArea: Area = {
  name: 'transcoder',
  routes: transcoderRoutes,
  state: transcoderState,
};
