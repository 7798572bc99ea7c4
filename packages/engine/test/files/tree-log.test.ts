// What a durable store keeps of the files tree (the `persistence` capability, here in memory): each change appended
// as what it changed, whatever the size of the tree; a restart from the saved tree and its log gives the same tree,
// byte for byte; a change the store refuses is taken back whole; the log is folded into the saved tree once it has
// outgrown it. The Node server's data folder is tested through HTTP in mock-server/test/files/tree-log.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBlobStore } from '../../src/areas/files/memory-blobs.js';
import { filesState } from '../../src/areas/files/state.js';
import { totalsMismatches } from '../../src/areas/files/tree.js';
import { StorageError } from '../../src/shared/errors.js';
import { MemoryJournal } from '../support/memory-journal.js';
import { MemoryPersistence } from '../support/memory-persistence.js';
import { type TestServer, TEST_CONFIG, startEngine } from '../support/server.js';
import { randomChanges } from './random-changes.js';
import { masterClient } from './support.js';

let running: TestServer[] = [];
afterEach(async () => {
  await Promise.all(running.map((server) => server.close()));
  running = [];
});

/** An engine keeping its tree in `persistence` and its bytes in `blobs` (both may come from an engine before). */
async function start(persistence: MemoryPersistence, blobs = new MemoryBlobStore()): Promise<TestServer> {
  const server = await startEngine(TEST_CONFIG, { persistence, blobs });
  running.push(server);
  return server;
}

/** The files area of the state export, as its JSON text. */
async function exported(server: TestServer): Promise<string> {
  const state = (await (await server.admin('/__admin/state')).json()) as { areas: { files: unknown } };
  return JSON.stringify(state.areas.files);
}

/** The exported entries, sorted by path. */
async function sortedEntries(server: TestServer): Promise<{ path: string }[]> {
  const { entries } = JSON.parse(await exported(server)) as { entries: { path: string }[] };
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A state export whose tree holds `files` files, 500 to a folder. */
function stateOf(files: number): string {
  const entry = (path: string, kind: 'folder' | 'file', n: number) => ({
    path,
    kind,
    guid: `g${n}`,
    ownerId: null,
    creationDate: n,
    lastModificationDate: n,
    ...(kind === 'file' && { size: 1, md5Hash: 'm', crcHash: 'c', contentType: 'text/plain', blobKey: `k${n}` }),
  });
  const entries = [];
  for (let n = 0; n < files; n++) {
    if (n % 500 === 0) entries.push(entry(`f${n / 500}`, 'folder', n));
    entries.push(entry(`f${Math.floor(n / 500)}/file${n}.txt`, 'file', n));
  }
  return JSON.stringify({ areas: { files: { entries } } });
}

/** Persistence whose saves wait for `release()`, as a slow disk: `settled()` waits for them too. */
class HeldPersistence extends MemoryPersistence {
  release!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.release = resolve));
  readonly #pending: Promise<void>[] = [];

  override save(key: string, json: unknown): Promise<void> {
    const saving = this.#gate.then(() => super.save(key, json));
    this.#pending.push(saving);
    return saving;
  }

  override settled(): Promise<void> {
    return Promise.allSettled(this.#pending).then(() => undefined);
  }
}

const storageFull = () => new StorageError(true, 'ENOSPC: no space left on device');

describe('the files tree kept by a durable store', () => {
  it('comes back byte for byte from the saved tree and its log after a seeded sequence of changes', {
    timeout: 120_000,
  }, async () => {
    const persistence = new MemoryPersistence();
    const blobs = new MemoryBlobStore();
    const server = await start(persistence, blobs);
    const kinds = await randomChanges(server, { seed: 2028, steps: 300 }, async ({ step, kind, res }) => {
      if (res) expect(res.status, `step ${step} (${kind})`).toBeLessThan(500);
      if (step % 20 !== 19) return;
      const restarted = await start(persistence.copy(), blobs);
      expect(await exported(restarted), `after step ${step}`).toBe(await exported(server));
      expect(totalsMismatches(restarted.engine.project.state(filesState).root)).toEqual([]);
    });
    for (const kind of ['upload', 'folder', 'delete', 'copy', 'move', 'rename', 'import'])
      expect(kinds[kind], kind).toBeGreaterThan(3);
    // Changes went to the log: the tree was saved whole only at a start, a reset or an import.
    expect(persistence.appended.length).toBeGreaterThan(150);
    expect(persistence.saves).toBeLessThan(1 + (kinds['import'] ?? 0) + 20);
  });

  it('appends what a change changed, the same at 20,000 files as at 10', async () => {
    const sizes: number[][] = [];
    for (const files of [10, 20_000]) {
      const persistence = new MemoryPersistence();
      const server = await start(persistence);
      expect((await server.admin('/__admin/state', { method: 'PUT', body: stateOf(files) })).status).toBe(200);
      const master = await masterClient(server);
      const saves = persistence.saves;
      await master.put([{ name: 'new.txt', content: 'new', path: 'f0' }]);
      await master.post('/files/rename', { items: [{ pathToRename: 'f0/new.txt', newFileName: 'renamed.txt' }] });
      await master.post('/directories', { path: 'f0/made' });
      await master.post('/files/move', { sourceUrls: ['f0/renamed.txt'], forces: [false], destinationUrl: 'f0/made' });
      await master.post('/files/delete', { urls: ['f0/made'], forced: [true] });
      expect(persistence.saves, 'no whole save').toBe(saves);
      sizes.push(persistence.appended.map((text) => text.length));
    }
    expect(sizes[0]).toHaveLength(5);
    expect(sizes[1]).toEqual(sizes[0]);
    for (const size of sizes[1]!) expect(size).toBeLessThan(600);
  });

  it('takes back a change the store refuses, whole, and deletes the bytes it stored', async () => {
    const persistence = new MemoryPersistence();
    const blobs = new MemoryBlobStore();
    const server = await start(persistence, blobs);
    const master = await masterClient(server);
    await master.put([
      { name: 'a.txt', content: 'a', path: 'p' },
      { name: 'b.txt', content: 'b', path: 'p/q' },
      { name: 'c.txt', content: 'c' },
    ]);
    const before = await sortedEntries(server);
    const keys = Object.keys(blobs.toJSON()).sort();
    persistence.refuse = storageFull();
    const refused = [
      await master.upload([{ name: 'new.txt', content: 'new', path: 'n/m' }]),
      await master.upload([{ name: 'a.txt', content: 'replaced', path: 'p', replacing: true }]),
      await master.post('/directories', { path: 'x/y/z' }),
      await master.post('/files/rename', { items: [{ pathToRename: 'p/a.txt', newFileName: 'z.txt' }] }),
      await master.post('/files/move', { sourceUrls: ['p/q'], forces: [false], destinationUrl: 'elsewhere' }),
      await master.post('/files/copy', { sourceUrls: ['p'], forces: [false], destinationUrl: 'copies' }),
      await master.post('/files/delete', { urls: ['p'], forced: [true] }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(507);
      expect(await res.json()).toMatchObject({ code: 30 });
    }
    expect(await sortedEntries(server)).toEqual(before);
    expect(totalsMismatches(server.engine.project.state(filesState).root)).toEqual([]);
    expect(Object.keys(blobs.toJSON()).sort()).toEqual(keys);
    expect(await (await server.request(`/${server.config.storageId}/p/a.txt`)).text()).toBe('a');

    // Room again: changes are kept, and a restart finds the tree as it is.
    persistence.refuse = undefined;
    await master.post('/files/rename', { items: [{ pathToRename: 'p/a.txt', newFileName: 'z.txt' }] });
    const restarted = await start(persistence.copy(), blobs);
    expect(await sortedEntries(restarted)).toEqual(await sortedEntries(server));
  });

  it('folds the log into the saved tree once the log has outgrown it', { timeout: 60_000 }, async () => {
    const persistence = new MemoryPersistence();
    const server = await start(persistence);
    const master = await masterClient(server);
    await master.put([{ name: '0.txt', content: 'x' }]);
    const saves = persistence.saves;
    for (let n = 0; n < 600; n++)
      await master.post('/files/rename', { items: [{ pathToRename: `${n}.txt`, newFileName: `${n + 1}.txt` }] });
    // Each rename logs 2 (a removal and an entry): past 1,024, the tree is saved whole once and the log starts again.
    expect(persistence.saves).toBe(saves + 1);
    expect(persistence.kept.get('files')!.changes.length).toBeLessThan(100);
    const restarted = await start(persistence.copy());
    expect(await exported(restarted)).toBe(await exported(server));
  });

  it('is written before the engine has closed: a closed engine (or a start that failed) writes nothing after', async () => {
    const persistence = new HeldPersistence();
    const server = await startEngine(TEST_CONFIG, { persistence, journal: new MemoryJournal() });
    // The empty tree is saved as the project is made, without a request to wait for it.
    let closed = false;
    const closing = server.close().then(() => (closed = true));
    await new Promise((wait) => setTimeout(wait, 50));
    expect(closed).toBe(false);
    persistence.release();
    await closing;
    expect(persistence.saves).toBeGreaterThan(0);
  });
});
