// The totals each folder keeps (bytes, files, everything below) against a count made from scratch, after a seeded
// random sequence of every kind of change of the files tree: uploads (new and replacing), folders, deletes, copies,
// moves, renames, imports of a state and resets. Each change is a request through the transport; the totals are read
// from the engine's tree and through the listing, which must answer what a count of the exported tree gives.
import { describe, expect, it } from 'vitest';
import { filesState } from '../../src/areas/files/state.js';
import { totalsMismatches } from '../../src/areas/files/tree.js';
import { parentOf, paths, randomChanges } from './random-changes.js';
import { storageSuite } from './support.js';

const suite = storageSuite();

interface Entry {
  path: string;
  kind: 'folder' | 'file';
  size?: number;
}

/** Checks every listing of the tree against a count of the exported entries. */
async function checkListings(): Promise<void> {
  const state = (await (await suite.server.admin('/__admin/state')).json()) as {
    areas: { files: { entries: Entry[] } };
  };
  const entries = state.areas.files.entries;
  const below = (path: string) => entries.filter((e) => e.path.startsWith(`${path}/`));
  const expected = (entry: Entry) => ({
    url: `/${suite.server.config.storageId}/${entry.path}`,
    isDirectory: entry.kind === 'folder',
    fileSizeInBytes: entry.kind === 'file' ? entry.size : below(entry.path).reduce((n, e) => n + (e.size ?? 0), 0),
    numberOfDirectChildren: below(entry.path).filter((e) => !e.path.slice(entry.path.length + 1).includes('/')).length,
    numberOfTotalChildren: below(entry.path).length,
  });
  for (const folder of ['', ...entries.filter((e) => e.kind === 'folder').map((e) => e.path)]) {
    const listed = [];
    for (let page = 0; ; page++) {
      const res = await suite.master.post('/files/directoryInfo', { url: folder || '/', pageNumber: page });
      const { files } = (await res.json()) as { files: Record<string, unknown>[] };
      listed.push(...files.map(({ guid, ownerId, ...counted }) => counted));
      if (files.length < 50) break;
    }
    const children = entries.filter((e) => parentOf(e.path) === folder);
    children.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
    expect(listed, `the listing of /${folder}`).toEqual(children.map(expected));
  }
}

describe('the totals kept in folders', () => {
  it('match a count from scratch after a seeded random sequence of changes', { timeout: 120_000 }, async () => {
    const root = () => suite.server.engine.project.state(filesState).root;
    const kinds = await randomChanges(suite.server, { seed: 28, steps: 400 }, async ({ step, kind, res }) => {
      if (res) expect(res.status, `step ${step} (${kind})`).toBeLessThan(500);
      expect(totalsMismatches(root()), `step ${step} (${kind})`).toEqual([]);
      if (step % 50 === 49) await checkListings();
    });
    // The sequence changed the tree in every way (the counts of changes that were taken).
    for (const kind of ['upload', 'folder', 'delete', 'copy', 'move', 'rename', 'import'])
      expect(kinds[kind], kind).toBeGreaterThan(3);
    expect(paths(root()).files.length).toBeGreaterThan(0);
    await checkListings();
  });
});
