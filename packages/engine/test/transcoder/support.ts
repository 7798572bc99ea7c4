// Test helpers of the transcoder's API: requests of a user, and the fresh start of a test.
import { expect } from 'vitest';
import type { TestServer } from '../support/server.js';
import { createUser } from '../support/users.js';

/**
 * Resets the server (state and job policy), applies `policy`, and answers a client of a new user "producer":
 * the fresh start of a transcoder test.
 */
export async function resetForProducer(
  server: TestServer,
  policy: Record<string, number>,
): Promise<ReturnType<typeof transcoderClient>> {
  await server.reset();
  expect(
    (await server.admin('/__admin/transcoder/policy', { method: 'PATCH', body: JSON.stringify(policy) })).status,
  ).toBe(200);
  return transcoderClient(server, (await createUser(server, 'producer')).auth);
}

/** JSON requests to the transcoder with a user's token. */
export function transcoderClient(server: TestServer, auth: Record<string, string>) {
  return (path: string, body: unknown) =>
    server.request(path, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
}
