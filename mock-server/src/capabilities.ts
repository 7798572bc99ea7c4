import { join } from 'node:path';
import type { Capabilities, Config } from '@basekit/engine';
import { nodeFiles } from './files/index.js';
import { jsonResponse } from './json-response.js';
import { inspectedHeaders } from './kept-headers.js';
import { DiskJournal } from './journal/disk-journal.js';
import { hmacSha256 } from './hmac.js';
import { pbkdf2 } from './pbkdf2.js';
import { byteSearch, requestBody } from './request-body.js';
import { DiskProjectStore } from './journal/project-store.js';
import { tokenSecret } from './token-secret.js';
import { nodeTranscoder } from './transcoder/index.js';

/** The Node implementations of the engine's platform capabilities; with a data folder, every state is kept there. */
export async function nodeCapabilities({
  dataDir,
  fsync = 'never',
}: {
  dataDir?: string | undefined;
  fsync?: Config['fsync'];
} = {}): Promise<Partial<Capabilities>> {
  return {
    jsonResponse,
    inspectedHeaders,
    requestBody,
    byteSearch,
    pbkdf2,
    hmacSha256,
    transcoder: await nodeTranscoder(),
    ...(await nodeFiles({ dataDir, fsync })),
    tokenSecret: await tokenSecret(dataDir), // after the files, which make the data folder
    ...(dataDir && {
      journal: new DiskJournal(join(dataDir, 'journal'), fsync),
      projects: new DiskProjectStore(dataDir, fsync),
    }),
  };
}
