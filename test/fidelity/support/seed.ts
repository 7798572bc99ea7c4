import type { ParameterPool } from './fuzzer.js';
import { startFixture, type Fixture } from './fixture.js';

/** A 1×1 PNG, so that resized downloads have an image to work on. */
export const TINY_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

async function ok(res: Promise<Response>, what: string): Promise<Record<string, unknown>> {
  const response = await res;
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${what} failed: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * A fixture with something behind every kind of id the contract's paths take: a row, a stored image, a score,
 * settings of each transcoder kind. Returns the fixture and the real values of each path parameter.
 */
export async function seededFixture(): Promise<{ fixture: Fixture; pool: ParameterPool }> {
  const fixture = await startFixture();
  const { server, user, otherUser, schemeValues } = fixture;
  const json = (path: string, body: unknown, headers: Record<string, string>) =>
    server.request(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...fixture.auth('user'), ...headers },
      body: JSON.stringify(body),
    });

  const row = await ok(
    json(
      '/object-storage/classes/Score',
      { player: 'ann', score: 10, tags: ['red'] },
      { 'X-Service-Object-Storage-Id': schemeValues['objectStorageId']! },
    ),
    'row',
  );
  const form = new FormData();
  form.append('fileItems[0].fileToUpload', new File([TINY_PNG], 'my cat.jpg', { type: 'image/png' }));
  form.append('fileItems[0].path', 'photos');
  await ok(
    server.request('/files', {
      method: 'POST',
      headers: { 'X-Service-Storage-Id': schemeValues['storageId']!, ...fixture.auth('user') },
      body: form,
    }),
    'upload',
  );
  await ok(
    json(
      '/game/events',
      { eventName: 'match_end', fieldsAndValues: [{ fieldName: 'score', value: 5 }] },
      { 'X-Service-Game-Id': schemeValues['gameId']! },
    ),
    'event',
  );
  const deliveries = `${server.url}/nowhere`;
  for (const [kind, body] of Object.entries({
    thumbnail: { name: 'every-10s', default: true, interval: 10, count: 2, startTime: 0 },
    webhook: { name: 'status', default: true, url: deliveries },
    upload: { name: 'storage', default: true, url: deliveries },
    preset: {
      name: 'hls-ladder',
      default: true,
      outputs: [{ resolution: '144', videoBitrate: '100k', audioBitrate: '32k' }],
    },
  })) {
    await ok(json(`/metadata/${kind}`, body, {}), `${kind} settings`);
  }
  return {
    fixture,
    pool: {
      tableName: ['Score'],
      objectId: [row['_id'] as string],
      userId: [user.userId, otherUser.userId],
      username: [user.username, otherUser.username],
      leaderboardId: ['high-score'],
      bucket: [server.engine.project.config.bucket],
      path: ['photos/my%20cat.jpg', 'photos/my%20cat.jpg/r/20x20'],
    },
  };
}
