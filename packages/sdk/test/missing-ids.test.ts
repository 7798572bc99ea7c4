// A client created without an area's id (objectStorageId, storageId, gameId): that area's calls fail before anything
// is sent, with an error naming the option, not with the service's 404 for the missing header (which reads like a
// missing row). The types refuse such calls too (types.test.ts); here the options come typed as `ClientOptions`,
// as from a config file, which the compiler cannot judge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MissingOptionError,
  createClient,
  memoryTokenStore,
  type ClientOptions,
  type Session,
  type TokenStore,
} from '../src/index.js';
import { optionsFor, recordingFetch, rejection, startTestServer, type TestServer } from './support.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const [DB, FILES, BOARDS] = ['client.db', 'client.files', 'client.leaderboards'];
let users = 0;

/**
 * A client of the test project signed in as a new user, without `option`, recording what it sends; its session is
 * due for renewal, so that a call that did anything would send the renewal first.
 */
async function clientWithout(option: 'objectStorageId' | 'storageId' | 'gameId', extra: Partial<ClientOptions> = {}) {
  const recording = recordingFetch();
  const { [option]: _left, ...options } = optionsFor(server, { fetch: recording.fetch, ...extra });
  const tokenStore: TokenStore = memoryTokenStore();
  const client = createClient({ ...options, tokenStore } as ClientOptions);
  const username = `user${++users}-without-${option}`;
  await client.auth.register({ username, password: 'pw' });
  const session: Session = await client.auth.login(username, 'pw');
  await tokenStore.set({ ...session, expiresAt: Date.now() });
  recording.exchanges.length = 0;
  return { client, username, sent: recording.exchanges };
}

/** Expects `error` to be the SDK's `MissingOptionError` for `option`, saying which area needs it and where to set it. */
function expectMissing(error: unknown, option: string, area: string) {
  expect(error).toBeInstanceOf(MissingOptionError);
  expect(error).toMatchObject({ name: 'MissingOptionError', option });
  expect((error as Error).message).toContain(`${area} needs the ${option} option`);
  expect((error as Error).message).toContain(`pass ${option} to createClient`);
}

describe('a client created without', () => {
  it('objectStorageId: the database names it and sends nothing', async () => {
    const { client, sent } = await clientWithout('objectStorageId');
    const notes = client.db.table('Note');
    expectMissing(await rejection(notes.create({ title: 'x' })), 'objectStorageId', DB);
    expectMissing(await rejection(notes.query().find()), 'objectStorageId', DB);
    expectMissing(await rejection(client.db.batch().delete('Note', 'n1').run()), 'objectStorageId', DB);
    expect(sent).toEqual([]);
  });

  it('storageId: the file storage names it and sends nothing; downloads need the bucket', async () => {
    const { client, sent } = await clientWithout('storageId');
    const file = new Blob(['hello']);
    const upload = client.files.upload([{ file, name: 'a.txt', path: 'docs' }]);
    expectMissing(await rejection(upload), 'storageId', FILES);
    expectMissing(await rejection(client.files.createFolder('docs')), 'storageId', FILES);
    expectMissing(await rejection((async () => client.files.downloadUrl('docs/a.txt'))()), 'storageId', FILES);
    expectMissing(await rejection(client.files.download('docs/a.txt')), 'storageId', FILES);
    expect(sent).toEqual([]);
  });

  it('storageId but with a bucket: downloads work, the rest names storageId', async () => {
    const { client } = await clientWithout('storageId', { bucket: server.config.storageId });
    expect(client.files.downloadUrl('docs/a.txt')).toBe(`${server.url}/${server.config.storageId}/docs/a.txt`);
    expectMissing(await rejection(client.files.list('docs')), 'storageId', FILES);
  });

  it('gameId: the leaderboards name it and send nothing', async () => {
    const { client, sent } = await clientWithout('gameId');
    expectMissing(await rejection(client.leaderboards.sendEvent('match_end', { score: 1 })), 'gameId', BOARDS);
    expectMissing(await rejection(client.leaderboards.top('high-score', 10)), 'gameId', BOARDS);
    expect(sent).toEqual([]);
  });

  it('any id: the other areas work as usual', async () => {
    const { client, username } = await clientWithout('objectStorageId');
    expect(await client.auth.me()).toMatchObject({ username });
    expect(await client.files.upload([{ file: new Blob(['x']), name: 'b.txt', path: 'docs' }])).toEqual(['docs/b.txt']);
  });
});
