// Settings records and convert requests through HTTP: validation, naming, defaults, references, access. No video
// is converted here (the queued jobs have unreachable sources).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth } from '../support/users.js';
import { transcoderClient } from './support.js';

let server: TestServer;
let post: ReturnType<typeof transcoderClient>;
let producerId: string;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  const producer = await createUser(server, 'producer');
  producerId = producer.userId;
  post = transcoderClient(server, producer.auth);
});

/** A settings kind, a record of it that must be refused, and the field the answer names. */
type BadRecord = [string, Record<string, unknown>, string];

const VALID = {
  thumbnail: { name: 't', shots: ['00:00:01', '01:59:59'] },
  webhook: { name: 'w', url: 'https://example.com/hook' },
  upload: { name: 'u', url: 'http://example.com/up', headers: { 'x-api-key': 'k' } },
  watermark: { name: 'm', url: 'https://example.com/logo.png', location: 'BOTTOM_CENTER', paddingX: 4, paddingY: 6 },
  preset: {
    name: 'p',
    vod: true,
    speed: 'veryfast',
    videoEncoder: 'x264',
    audioEncoder: 'aac',
    profile: 'main',
    encrypt: true,
    vodPlaylistBaseUrl: 'https://cdn.example.com/',
    rawParameters: { '-tune': 'film', crf: '23' },
    outputs: [
      { videoBitrate: '800k', audioBitrate: '96k', resolution: '360' },
      { videoBitrate: '1.5M', audioBitrate: '128000', resolution: '1280x720' },
    ],
  },
} as const;

describe('settings records', () => {
  it.each(Object.entries(VALID))('stores a %s record (201) and answers the stored record', async (kind, body) => {
    const res = await post(`/metadata/${kind}`, body);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ...body, default: false });
  });

  it('replaces a record posted again under the same name (200)', async () => {
    expect((await post('/metadata/webhook', { name: 'w', url: 'https://a.example.com/' })).status).toBe(201);
    const res = await post('/metadata/webhook', { name: 'w', url: 'https://b.example.com/', default: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'w', url: 'https://b.example.com/', default: true });
    // Names are per kind: an upload may be called "w" too.
    expect((await post('/metadata/upload', { name: 'w', url: 'https://a.example.com/' })).status).toBe(201);
  });

  it.each<BadRecord>([
    ['thumbnail', { name: 't', shots: ['1:00:00'] }, 'shots[0]'],
    ['thumbnail', { name: 't', shots: ['00:61:00'] }, 'shots[0]'],
    ['thumbnail', { name: 't', random: true }, 'count'],
    ['thumbnail', { name: 't', interval: 5 }, 'count'],
    ['thumbnail', { name: 't', count: 3 }, 'shots'],
    ['thumbnail', { name: 't', random: true, count: 2, startTime: 4 }, 'startTime'],
    ['thumbnail', { name: 't', interval: 0, count: 2 }, 'interval'],
    ['thumbnail', { name: 't', interval: 2, count: 1.5 }, 'count'],
    ['webhook', { name: 'w' }, 'url'],
    ['webhook', { name: 'w', url: 'ftp://example.com/' }, 'url'],
    ['webhook', { url: 'https://example.com/' }, 'name'],
    ['webhook', { name: '', url: 'https://example.com/' }, 'name'],
    ['webhook', { name: 'w', url: 'https://example.com/', default: 'yes' }, 'default'],
    ['webhook', { name: 'w', url: 'https://example.com/', colour: 'red' }, 'colour'],
    ['webhook', { name: 'w', url: 'https://example.com/', toString: 'x' }, 'toString'],
    ['upload', { name: 'u', url: 'https://example.com/', headers: { 'x-n': 1 } }, 'headers.x-n'],
    ['upload', { name: 'u', url: 'https://example.com/', headers: { 'bad name': 'v' } }, 'headers.bad name'],
    ['upload', { name: 'u', url: 'https://example.com/', headers: { 'x-a': 'line\r\nbreak' } }, 'headers.x-a'],
    // Headers the delivery sets itself or that frame the message: a Content-Type would break the multipart body.
    ...['Host', 'Content-Type', 'content-length', 'Transfer-Encoding', 'Connection', 'Expect'].map(
      (name): BadRecord => [
        'upload',
        { name: 'u', url: 'https://example.com/', headers: { [name]: 'x' } },
        `headers.${name}`,
      ],
    ),
    ['upload', { name: 'u', url: 'https://example.com/', headers: { 'x-a': 'snow \u2603' } }, 'headers.x-a'],
    // A line break in a base address would add lines to the master playlist; parsers drop it silently.
    [
      'preset',
      { name: 'p', vodPlaylistBaseUrl: 'https://cdn.example.com/\n#EXT-X-ENDLIST', outputs: [VALID.preset.outputs[0]] },
      'vodPlaylistBaseUrl',
    ],
    [
      'preset',
      { name: 'p', vodPlaylistBaseUrl: 'https://cdn.example.com/a b/', outputs: [VALID.preset.outputs[0]] },
      'vodPlaylistBaseUrl',
    ],
    ['webhook', { name: 'w', url: 'https://example.com/\thook' }, 'url'],
    // Only http and https, in every address field.
    ...[
      'file:///etc/passwd',
      'data:text/plain,hello',
      'ftp://example.com/a',
      'javascript:alert(1)',
      'gopher://127.0.0.1:25/',
    ].flatMap((url): BadRecord[] => [
      ['webhook', { name: 'w', url }, 'url'],
      ['upload', { name: 'u', url }, 'url'],
      ['watermark', { name: 'm', url, location: 'TOP_LEFT' }, 'url'],
      ['preset', { name: 'p', vodPlaylistBaseUrl: url, outputs: [VALID.preset.outputs[0]] }, 'vodPlaylistBaseUrl'],
    ]),
    ['watermark', { name: 'm', url: 'https://example.com/a.png', location: 'MIDDLE' }, 'location'],
    ['watermark', { name: 'm', url: 'https://example.com/a.png' }, 'location'],
    ['watermark', { name: 'm', url: 'https://example.com/a.png', location: 'TOP_LEFT', paddingX: -1 }, 'paddingX'],
    ['preset', { name: 'p' }, 'outputs'],
    ['preset', { name: 'p', outputs: [] }, 'outputs'],
    ['preset', { name: 'p', speed: 'warp', outputs: [VALID.preset.outputs[0]] }, 'speed'],
    ['preset', { name: 'p', videoEncoder: 'vp9', outputs: [VALID.preset.outputs[0]] }, 'videoEncoder'],
    ['preset', { name: 'p', audioEncoder: 'opus', outputs: [VALID.preset.outputs[0]] }, 'audioEncoder'],
    ['preset', { name: 'p', videoEncoder: 'x265', profile: 'high', outputs: [VALID.preset.outputs[0]] }, 'profile'],
    ['preset', { name: 'p', encrypt: true, outputs: [VALID.preset.outputs[0]] }, 'encrypt'],
    [
      'preset',
      { name: 'p', outputs: [{ videoBitrate: 'fast', audioBitrate: '96k', resolution: '360' }] },
      'outputs[0].videoBitrate',
    ],
    ['preset', { name: 'p', outputs: [{ videoBitrate: '800k', resolution: '360' }] }, 'outputs[0].audioBitrate'],
    [
      'preset',
      { name: 'p', outputs: [{ videoBitrate: '800k', audioBitrate: '96k', resolution: '361' }] },
      'outputs[0].resolution',
    ],
    [
      'preset',
      { name: 'p', outputs: [{ videoBitrate: '800k', audioBitrate: '96k', resolution: 'hd' }] },
      'outputs[0].resolution',
    ],
    [
      'preset',
      {
        name: 'p',
        vod: true,
        outputs: [VALID.preset.outputs[0], { videoBitrate: '1M', audioBitrate: '96k', resolution: '640x360' }],
      },
      'outputs[1].resolution',
    ],
  ])('refuses a bad %s record naming the field: %j', async (kind, body, field) => {
    const res = await post(`/metadata/${kind}`, body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as { code: number; error: string };
    expect(error.code).toBe(142);
    expect(error.error).toContain(`"${field}"`);
  });

  it("lists every stored record, the project's and each user's, with the master key only", async () => {
    await post('/metadata/webhook', VALID.webhook);
    await transcoderClient(server, await masterAuth(server))('/metadata/upload', { ...VALID.upload, default: true });
    expect((await server.request('/__admin/transcoder/settings')).status).toBe(403);
    const listed = (await (await server.admin('/__admin/transcoder/settings')).json()) as {
      settings: Record<string, unknown[]>;
      userSettings: Record<string, Record<string, unknown[]>>;
    };
    expect(listed.settings).toEqual({
      thumbnail: [],
      webhook: [],
      upload: [{ ...VALID.upload, default: true }],
      watermark: [],
      preset: [],
    });
    expect(listed.userSettings).toEqual({
      [producerId]: {
        thumbnail: [],
        webhook: [{ ...VALID.webhook, default: false }],
        upload: [],
        watermark: [],
        preset: [],
      },
    });
  });

  it('refuses a body that is not a JSON object', async () => {
    const res = await post('/metadata/preset', [1, 2]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 107 });
  });

  it('needs an access token (401) and an enabled service (503)', async () => {
    const res = await server.request('/metadata/webhook', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(VALID.webhook),
    });
    expect(res.status).toBe(401);
    await server.patchConfig({ services: { transcoder: false } });
    try {
      const off = await post('/metadata/webhook', VALID.webhook);
      expect(off.status).toBe(503);
      expect(await off.json()).toMatchObject({ code: 3 });
    } finally {
      await server.patchConfig({ services: { transcoder: true } });
    }
  });
});

describe('convert requests', () => {
  beforeEach(async () => {
    for (const [kind, body] of Object.entries(VALID)) await post(`/metadata/${kind}`, { ...body, default: true });
  });

  it('queues a job and answers 202 with requestId and videoId', async () => {
    const res = await post('/video/convert', {
      url: 'http://127.0.0.1:9/in.mp4',
      preset: true,
      upload: 'u',
      webhook: 'w',
      thumbnail: 't',
      watermark: true,
    });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { requestId: string; videoId: string };
    expect(body).toEqual({ requestId: expect.any(String), videoId: expect.any(String) });
    const { jobs } = (await (await server.admin('/__admin/jobs')).json()) as {
      jobs: { requestId: string; videoId: string }[];
    };
    expect(jobs).toContainEqual(
      expect.objectContaining({
        ...body,
        url: 'http://127.0.0.1:9/in.mp4',
        state: expect.stringMatching(/queued|running|rejected/),
      }),
    );
  });

  it.each([
    [{ preset: 'missing' }, 'preset', 700],
    [{ watermark: 'missing' }, 'watermark', 700],
    [{ url: undefined }, 'url', 142],
    [{ url: 'file:///etc/passwd' }, 'url', 142],
    [{ upload: 3 }, 'upload', 142],
    [{ upload: undefined }, 'upload', 142],
    [{ preset: undefined, thumbnail: undefined }, 'preset', 142],
    [{ preset: false, thumbnail: false }, 'preset', 142],
    [{ upload: false }, 'upload', 142],
    [{ preset: false, watermark: true }, 'watermark', 142],
    [{ extra: 1 }, 'extra', 142],
  ])('refuses %j with 400 naming the field, queueing nothing', async (change, field, code) => {
    const res = await post('/video/convert', {
      url: 'http://127.0.0.1:9/in.mp4',
      preset: true,
      upload: true,
      thumbnail: true,
      ...change,
    });
    expect(res.status).toBe(400);
    const error = (await res.json()) as { code: number; error: string };
    expect(error).toMatchObject({ code });
    expect(error.error).toContain(`"${field}"`);
    expect(await (await server.admin('/__admin/jobs')).json()).toEqual({ jobs: [] });
  });

  it('resolves `true` to the current default and refuses it when the kind has none', async () => {
    await post('/metadata/preset', { ...VALID.preset, name: 'other', default: true });
    await post('/metadata/preset', { ...VALID.preset, name: 'other', default: false });
    const res = await post('/video/convert', { url: 'http://127.0.0.1:9/in.mp4', preset: true, upload: true });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 700, error: '"preset": there is no default preset setting' });
  });

  it('lists jobs and sets the job policy only with the master key', async () => {
    expect((await server.request('/__admin/jobs')).status).toBe(403);
    const bad = await server.admin('/__admin/transcoder/policy', {
      method: 'PATCH',
      body: JSON.stringify({ concurrency: 0 }),
    });
    expect(bad.status).toBe(400);
    const res = await server.admin('/__admin/transcoder/policy', {
      method: 'PATCH',
      body: JSON.stringify({ deliveryAttempts: 3 }),
    });
    expect(await res.json()).toMatchObject({ deliveryAttempts: 3, concurrency: expect.any(Number) });
  });
});
