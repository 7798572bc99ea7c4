import type { Capabilities, Config } from '@basekit/engine';
import { diskStorage } from './disk.js';
import { nodeHashing } from './hashing.js';
import { sharpResizer } from './images.js';

/**
 * The Node capabilities of the files area: Node's MD5 and CRC-32, sharp for resized downloads and, with a data
 * folder, durable storage.
 *
 * @example
 * const capabilities = await nodeFiles({ dataDir: './data', fsync: 'never' });
 */
export async function nodeFiles({
  dataDir,
  fsync = 'never',
}: {
  dataDir?: string | undefined;
  fsync?: Config['fsync'];
}): Promise<Partial<Capabilities>> {
  return { hashing: nodeHashing, images: sharpResizer, ...(dataDir ? await diskStorage(dataDir, fsync) : {}) };
}
