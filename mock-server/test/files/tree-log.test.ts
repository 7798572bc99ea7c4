import { appendFile, readFile, readdir, stat, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StateRestoreError } from '@basekit/engine';
import { randomChanges } from '../../../packages/engine/test/files/random-changes.js';
import type { TestServer } from '../support/server.js';
import { masterClient, ownServers } from './support.js';

// The files tree in a data folder (`state/files/`): each change appended to a log beside the saved tree, never the
// whole tree rewritten; a restart gives the same tree, byte for byte; a torn last line is cut back; a folder of an
// earlier version (`state/files.json`) is read and carried on. A full disk and SIGKILL: test/fidelity/files-log.test.ts.

const { start, folder } = ownServers();

/** The files area of the state export, as its JSON text. */
async function exported(server: TestServer): Promise<string> {
  const state = (await (await server.admin('/__admin/state')).json()) as { areas: { files: unknown } };
  return JSON.stringify(state.areas.files);
}

/** The log of the saved tree (`state/files/journal-<n>.log`). */
async function logOf(dataDir: string): Promise<string> {
  const folder = join(dataDir, 'state', 'files');
  const log = (await readdir(folder)).find((name) => /^journal-\d+\.log$/.test(name));
  if (!log) throw new Error(`no log in ${folder}`);
  return join(folder, log);
}

/** The whole records of a log (the room set aside after them, zeros, left out). */
const linesOf = async (log: string) => (await readFile(log, 'utf8')).replace(/\0+$/, '').split('\n').slice(0, -1);

describe('the files tree in a data folder', () => {
  it('comes back byte for byte after restarts, through a seeded sequence of every kind of change', {
    timeout: 180_000,
  }, async () => {
    const dataDir = folder('sequence');
    let server = await start({ dataDir });
    for (const seed of [1, 2, 3]) {
      await randomChanges(server, { seed, steps: 120 }, ({ step, kind, res }) => {
        if (res) expect(res.status, `seed ${seed}, step ${step} (${kind})`).toBeLessThan(500);
      });
      const before = await exported(server);
      await server.close();
      server = await start({ dataDir });
      expect(await exported(server), `after seed ${seed}`).toBe(before);
    }
    expect(JSON.parse(await exported(server)).entries.length).toBeGreaterThan(5);
  });

  it('appends each change to the log and leaves the saved tree as it is', async () => {
    const dataDir = folder('append');
    const server = await start({ dataDir });
    const master = await masterClient(server);
    await master.put([{ name: 'a.txt', content: 'a', path: 'p' }]);
    const snapshot = join(dataDir, 'state', 'files', 'snapshot.json');
    const saved = await stat(snapshot);
    const log = await logOf(dataDir);
    const lines = (await linesOf(log)).length;
    await master.put([{ name: 'b.txt', content: 'b', path: 'p' }]);
    await master.post('/files/rename', { items: [{ pathToRename: 'p/b.txt', newFileName: 'c.txt' }] });
    await master.post('/files/delete', { urls: ['p/a.txt'], forced: [false] });
    expect((await linesOf(log)).length).toBe(lines + 3);
    const now = await stat(snapshot);
    expect([now.ino, now.mtimeMs]).toEqual([saved.ino, saved.mtimeMs]);
    expect(await readdir(join(dataDir, 'state'))).toEqual(['files']);
  });

  it('cuts a torn last line back: the tree as answered, and the next change follows it', async () => {
    const dataDir = folder('torn');
    const first = await start({ dataDir });
    const master = await masterClient(first);
    await master.put([{ name: 'kept.txt', content: 'kept', path: 'p' }]);
    await master.post('/directories', { path: 'q' });
    const answered = await exported(first);
    await first.close();
    // What a crash in the middle of a write leaves: part of a line (never answered).
    const log = await logOf(dataDir);
    await appendFile(log, '0badc0de {"v":1,"steps":[{"in":"","t":1,"set":[{"path":"torn"');

    const second = await start({ dataDir });
    expect(await exported(second)).toBe(answered);
    await (await masterClient(second)).post('/directories', { path: 'after' });
    const changed = await exported(second);
    await second.close();
    expect(await readFile(log, 'utf8')).not.toContain('torn');
    const third = await start({ dataDir });
    expect(await exported(third)).toBe(changed);
    expect(changed).toContain('"after"');
  });

  it('refuses to start on a damaged line that others follow, naming the log and leaving it as it is', async () => {
    const dataDir = folder('damaged');
    const first = await start({ dataDir });
    const master = await masterClient(first);
    await master.post('/directories', { path: 'one' });
    await master.post('/directories', { path: 'two' });
    await first.close();
    const log = await logOf(dataDir);
    const text = (await readFile(log, 'utf8')).replace('"one"', '"0ne"');
    await writeFile(log, text);
    const error = await start({ dataDir }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(error).toBeInstanceOf(StateRestoreError);
    expect((error as Error).message).toContain(log);
    expect(await readFile(log, 'utf8')).toBe(text);
  });

  it('reads the saved tree of an earlier version (state/files.json) and carries it on', async () => {
    const source = await start();
    await (await masterClient(source)).put([{ name: 'old.txt', content: 'old', path: 'p' }]);
    const { entries } = JSON.parse(await exported(source)) as { entries: unknown[] };
    const dataDir = folder('earlier');
    await mkdir(join(dataDir, 'state'), { recursive: true });
    await writeFile(join(dataDir, 'state', 'files.json'), JSON.stringify({ entries }));

    const first = await start({ dataDir });
    expect(JSON.parse(await exported(first)).entries).toEqual(entries);
    await (await masterClient(first)).post('/directories', { path: 'new' });
    const changed = await exported(first);
    await first.close();
    const second = await start({ dataDir });
    expect(await exported(second)).toBe(changed);
    // An import saves the tree whole: the file of the earlier version goes.
    expect(
      (await second.admin('/__admin/state', { method: 'PUT', body: `{"areas":{"files":${changed}}}` })).status,
    ).toBe(200);
    await second.close();
    expect(await readdir(join(dataDir, 'state'))).toEqual(['files']);
  });
});
