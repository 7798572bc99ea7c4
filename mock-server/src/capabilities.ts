import type { Capabilities } from '@basekit/engine';
import { nodeFiles } from './files/index.js';
import { nodeTranscoder } from './transcoder/index.js';

/** The Node implementations of the engine's platform capabilities. */
export async function nodeCapabilities({ dataDir }: { dataDir?: string | undefined } = {}): Promise<Partial<Capabilities>> {
  return { transcoder: await nodeTranscoder(), ...(await nodeFiles({ dataDir })) };
}
