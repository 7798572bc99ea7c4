import type { Capabilities } from '../engine/index.js';
import { nodeTranscoder } from './transcoder/index.js';

/** The Node implementations of the engine's platform capabilities. */
export async function nodeCapabilities(): Promise<Partial<Capabilities>> {
  return { transcoder: await nodeTranscoder() };
}
