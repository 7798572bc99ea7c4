import { createClient, type ClientOptions, type UploadProgress } from '@basekit/sdk';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createHandlers } from '@basekit/msw';

/** The test environments front-end teams run their component and unit tests in. */
export type Environment = 'jsdom' | 'happy-dom' | 'node';

const baseUrl = 'https://api.example.test';
const options: ClientOptions = {
  baseUrl,
  authenticationId: 'dev-auth-id',
  clientKey: 'dev-client-key',
  objectStorageId: 'dev-db',
  storageId: 'dev-storage',
  gameId: 'dev-game',
};

/**
 * The name every uploaded file gets under Vitest's jsdom environment: Vitest copies jsdom's form data into Node's
 * and drops the file names on the way (vitest-dev/vitest#9260), before any request reaches msw.
 */
const JSDOM_FILE_NAME = 'blob';

/** Which environment the globals come from: a DOM implementation names itself in the user agent. */
function currentEnvironment(): string {
  if (typeof window === 'undefined') return 'node';
  if (navigator.userAgent.includes('jsdom')) return 'jsdom';
  if (navigator.userAgent.includes('HappyDOM')) return 'happy-dom';
  return navigator.userAgent;
}

/**
 * What a front-end test suite does with `@basekit/msw`, run in the `environment` the calling file selects:
 * `setupServer` with the handlers and a seed, the real SDK signing in, creating and querying rows, uploading and
 * downloading a file, sending a game event and reading a leaderboard, and `reset()` between tests.
 */
export function frontEndScenario(environment: Environment): void {
  const backend = createHandlers({
    baseUrl,
    seed: { users: [{ username: 'ann', password: 'ann-password', userId: 'ann-id' }] },
  });
  const server = setupServer(...backend);

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(async () => {
    server.resetHandlers();
    await backend.reset();
  });
  afterAll(() => server.close());

  async function signedIn() {
    const client = createClient(options);
    await client.auth.login('ann', 'ann-password');
    return client;
  }

  it(`runs under ${environment}`, () => {
    expect(currentEnvironment()).toBe(environment);
  });

  it('logs the seeded user in', async () => {
    const client = await signedIn();
    expect(await client.auth.me()).toMatchObject({ userId: 'ann-id', username: 'ann' });
  });

  it('creates rows and queries them', async () => {
    const notes = (await signedIn()).db.table<{ title: string; stars: number }>('Note');
    for (const [title, stars] of [
      ['a', 3],
      ['b', 5],
      ['c', 1],
    ] as const)
      await notes.create({ title, stars });
    const rows = await notes.query().greaterThanOrEqualTo('stars', 2).descending('stars').find();
    expect(rows.map((row) => row.title)).toEqual(['b', 'a']);
  });

  it('uploads a file and downloads it', async () => {
    const client = await signedIn();
    // A File, as an <input type="file"> or testing-library's `userEvent.upload` gives one.
    const [saved] = await client.files.upload([
      { file: new File(['hello from a test'], 'hello.txt', { type: 'text/plain' }), path: 'docs' },
    ]);
    expect(saved).toBe(`docs/${environment === 'jsdom' ? JSDOM_FILE_NAME : 'hello.txt'}`);
    expect(await (await client.files.download(saved!)).text()).toBe('hello from a test');
  });

  it('reports the progress of an upload, the last event with loaded === total', async () => {
    const client = await signedIn();
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    const events: UploadProgress[] = [];
    const [saved] = await client.files.upload([{ file: new File([bytes], 'big.bin'), path: 'docs' }], {
      onProgress: (progress) => events.push(progress),
    });
    const last = events.at(-1)!;
    expect(last.loaded).toBe(last.total);
    // The whole multipart body: the file and its fields.
    expect(last.total).toBeGreaterThan(bytes.length);
    expect(events.map(({ loaded }) => loaded)).toEqual(events.map(({ loaded }) => loaded).sort((a, b) => a - b));
    // Node streams the body to fetch 64 KiB at a time: a step each; jsdom and happy-dom send it in one go.
    if (environment === 'node') expect(events.length).toBeGreaterThanOrEqual(5);
    expect(new Uint8Array(await (await client.files.download(saved!)).arrayBuffer())).toEqual(bytes);
  });

  it('posts a game event and reads the leaderboard', async () => {
    const client = await signedIn();
    await client.leaderboards.sendEvent('match_end', { score: 120 });
    const { usersProfile } = await client.leaderboards.top('high-score', 10);
    expect(usersProfile.map(({ userBriefProfile, scores }) => `${userBriefProfile.userName} ${scores[0]}`)).toEqual([
      'ann 120',
    ]);
  });

  it('starts over from the seed after reset()', async () => {
    await (await signedIn()).db.table('Note').create({ title: 'gone after reset' });
    await backend.reset();
    expect(await backend.rows('Note')).toEqual([]);
    expect(await (await signedIn()).auth.me()).toMatchObject({ userId: 'ann-id' });
  });
}
