import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { masterClient, ownServers } from './support.js';

const { start, folder } = ownServers();

const bytes = new Uint8Array(100_000).map((_, i) => (i * 31) % 256);

describe('--data-dir (config dataDir)', () => {
  it('keeps files and their metadata across a restart', async () => {
    const dataDir = folder('restart');
    const first = await start({ dataDir });
    const master = await masterClient(first);
    const [saved] = await master.put([
      { name: 'kept ü.bin', content: bytes, path: 'a/b' },
      { name: 'gone.txt', content: 'x' },
    ]);
    await master.post('/files/rename', { items: [{ pathToRename: 'gone.txt', newFileName: 'renamed.txt' }] });
    await master.post('/directories', { path: 'empty' });
    const info = await (await master.post('/files/fileInfo', { url: saved })).json();
    await first.close();

    const second = await start({ dataDir });
    const again = await masterClient(second);
    expect(await (await again.post('/files/fileInfo', { url: saved })).json()).toEqual(info);
    expect(new Uint8Array(await (await second.request(`/dev-storage/${saved}`)).arrayBuffer())).toEqual(bytes);
    const range = await second.request(`/dev-storage/${saved}`, { headers: { Range: 'bytes=10-19' } });
    expect(new Uint8Array(await range.arrayBuffer())).toEqual(bytes.subarray(10, 20));
    const { files } = (await (await again.post('/files/directoryInfo', { url: '/' })).json()) as {
      files: { url: string }[];
    };
    expect(files.map((f) => f.url)).toEqual(['/dev-storage/a', '/dev-storage/empty', '/dev-storage/renamed.txt']);
  });

  it('stays empty after an admin reset and the next request, also across a restart', async () => {
    const dataDir = folder('reset');
    const first = await start({ dataDir });
    await (await masterClient(first)).put([{ name: 'old.txt', content: 'old' }]);
    await first.reset();
    expect((await first.request('/dev-storage/old.txt')).status).toBe(404);
    await first.close();
    const second = await start({ dataDir });
    expect((await second.request('/dev-storage/old.txt')).status).toBe(404);
  });

  it('keeps the files of an imported state across a restart (export, reset, import)', async () => {
    const dataDir = folder('import');
    const first = await start({ dataDir });
    const [saved] = await (await masterClient(first)).put([{ name: 'imported.bin', content: bytes }]);
    const state = await (await first.admin('/__admin/state')).text();
    await first.reset();
    expect((await first.admin('/__admin/state', { method: 'PUT', body: state })).status).toBe(200);
    await first.close();
    const second = await start({ dataDir });
    expect(new Uint8Array(await (await second.request(`/dev-storage/${saved}`)).arrayBuffer())).toEqual(bytes);
  });

  it('deletes the bytes of deleted files from the folder and writes nothing but its own files', async () => {
    const dataDir = folder('contents');
    const server = await start({ dataDir });
    const master = await masterClient(server);
    await master.put([
      { name: 'a.txt', content: 'a', path: 'p' },
      { name: 'b.txt', content: 'b', path: 'p' },
    ]);
    await master.post('/files/copy', { sourceUrls: ['p/a.txt'], forces: [false], destinationUrl: 'q' });
    await master.upload([{ name: 'x', content: 'x', path: '../../escape' }]);
    expect((await readdir(join(dataDir, 'blobs'))).length).toBe(3);
    await master.post('/files/delete', { urls: ['p'], forced: [true] });
    expect((await readdir(join(dataDir, 'blobs'))).length).toBe(1);
    expect((await readdir(dataDir)).sort()).toEqual(['blobs', 'journal', 'state', 'token-secret']);
    expect(await readdir(join(dataDir, 'state'))).toEqual(['files']);
    expect(await readdir(join(dataDir, 'journal'))).toEqual(['journal-0.log']);
    expect((await readdir(join(dataDir, 'blobs')))[0]).toMatch(/^[A-Za-z0-9]+$/);
  });

  it('never serves a half-written file: temporary files left by a crash are removed at start-up', async () => {
    const dataDir = folder('crash');
    const server = await start({ dataDir });
    await (await masterClient(server)).put([{ name: 'whole.txt', content: 'whole' }]);
    await server.close();
    // What a crash during a write leaves: a temporary file that was never renamed into place.
    await writeFile(join(dataDir, 'blobs', '.tmp-0123456789abcdef'), 'half');
    await writeFile(join(dataDir, 'state', '.tmp-fedcba9876543210'), '{"entries": [');
    const restarted = await start({ dataDir });
    expect(await (await restarted.request('/dev-storage/whole.txt')).text()).toBe('whole');
    expect((await readdir(join(dataDir, 'blobs'))).some((n) => n.startsWith('.tmp-'))).toBe(false);
    expect(await readdir(join(dataDir, 'state'))).toEqual(['files']);
  });
});

describe('GET/PUT /__admin/state', () => {
  it('exports folders, files and (in memory) their bytes, and imports them back', async () => {
    const server = await start();
    const master = await masterClient(server);
    const [saved] = await master.put([{ name: 'data.bin', content: bytes, path: 'x' }]);
    const info = await (await master.post('/files/fileInfo', { url: saved })).json();
    const state = (await (await server.admin('/__admin/state')).json()) as {
      areas: { files: { entries: unknown[]; blobs: Record<string, string> } };
    };
    expect(state.areas.files.entries).toHaveLength(2);
    expect(Object.values(state.areas.files.blobs)).toEqual([Buffer.from(bytes).toString('base64')]);

    await server.reset();
    expect((await server.request(`/dev-storage/${saved}`)).status).toBe(404);
    expect((await server.admin('/__admin/state', { method: 'PUT', body: JSON.stringify(state) })).status).toBe(200);
    expect(new Uint8Array(await (await server.request(`/dev-storage/${saved}`)).arrayBuffer())).toEqual(bytes);
    expect(await (await (await masterClient(server)).post('/files/fileInfo', { url: saved })).json()).toEqual(info);
  });

  it('refuses a files state that does not fit (400) and keeps the current one', async () => {
    const server = await start();
    const master = await masterClient(server);
    await master.put([{ name: 'keep.txt', content: 'keep' }]);
    const bad = { areas: { files: { entries: [{ path: 'orphan/child.txt', kind: 'file' }] } } };
    expect((await server.admin('/__admin/state', { method: 'PUT', body: JSON.stringify(bad) })).status).toBe(400);
    expect(await (await server.request('/dev-storage/keep.txt')).text()).toBe('keep');
  });
});
