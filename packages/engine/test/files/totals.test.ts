// The totals each folder keeps (bytes, files, everything below) against a count made from scratch, after a seeded
// random sequence of every kind of change of the files tree: uploads (new and replacing), folders, deletes, copies,
// moves, renames, imports of a state and resets. Each change is a request through the transport; the totals are read
// from the engine's tree and through the listing, which must answer what a count of the exported tree gives.
import { describe, expect, it } from 'vitest';
import { filesState } from '../../src/areas/files/state.js';
import { type FolderNode, totalsMismatches } from '../../src/areas/files/tree.js';
import { masterClient, storageSuite } from './support.js';

const suite = storageSuite();

/** A small seeded generator (mulberry32): the same sequence on every run. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(list: readonly T[]): T => list[int(list.length)]! };
}

const FOLDERS = ['a', 'b', 'c'];
const FILES = ['x.txt', 'y.bin', 'z'];

interface Entry {
  path: string;
  kind: 'folder' | 'file';
  size?: number;
}

/** Every path of the tree (folders end with `/`), from the engine's own tree. */
function paths(folder: FolderNode, prefix = ''): { folders: string[]; files: string[] } {
  const out = { folders: [] as string[], files: [] as string[] };
  for (const [name, node] of folder.children) {
    if (node.kind === 'file') out.files.push(prefix + name);
    else {
      out.folders.push(prefix + name);
      const inner = paths(node, `${prefix}${name}/`);
      out.folders.push(...inner.folders);
      out.files.push(...inner.files);
    }
  }
  return out;
}

const parentOf = (path: string) => path.split('/').slice(0, -1).join('/');
const randomFolder = (random: ReturnType<typeof seeded>) =>
  Array.from({ length: random.int(4) }, () => random.pick(FOLDERS)).join('/');

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
    const random = seeded(28);
    const root = () => suite.server.engine.project.state(filesState).root;
    let master = suite.master;
    const kinds: Record<string, number> = {};
    for (let step = 0; step < 400; step++) {
      const { folders, files } = paths(root());
      const entries = [...folders, ...files];
      const roll = random.int(100);
      let kind: string;
      let res: Response | undefined;
      if (roll < 30 || entries.length === 0) {
        kind = 'upload';
        const items = Array.from({ length: 1 + random.int(3) }, () => ({
          name: random.pick(FILES),
          content: 'x'.repeat(random.int(300)),
          path: randomFolder(random),
          replacing: random.next() < 0.7,
        }));
        res = await master.upload(items);
      } else if (roll < 37) {
        kind = 'folder';
        res = await master.post('/directories', { path: randomFolder(random) || 'a' });
      } else if (roll < 50) {
        kind = 'delete';
        const first = random.pick(entries);
        const siblings = entries.filter((e) => parentOf(e) === parentOf(first) && e !== first);
        const urls = [first, ...siblings.filter(() => random.next() < 0.3)];
        res = await master.post('/files/delete', { urls, forced: urls.map(() => random.next() < 0.8) });
      } else if (roll < 80) {
        kind = random.next() < 0.5 ? 'copy' : 'move';
        const first = random.pick(entries);
        const siblings = entries.filter((e) => parentOf(e) === parentOf(first) && e !== first);
        const sourceUrls = [first, ...siblings.filter(() => random.next() < 0.3)];
        res = await master.post(`/files/${kind}`, {
          sourceUrls,
          forces: sourceUrls.map(() => random.next() < 0.7),
          destinationUrl: random.next() < 0.5 ? random.pick(['', ...folders]) || '/' : randomFolder(random) || '/',
        });
      } else if (roll < 92) {
        kind = 'rename';
        if (files.length === 0) continue;
        const items = [{ pathToRename: random.pick(files), newFileName: random.pick(FILES) }];
        res = await master.post('/files/rename', { items });
      } else if (roll < 98) {
        kind = 'import';
        const state = await (await suite.server.admin('/__admin/state')).json();
        res = await suite.server.admin('/__admin/state', {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(state),
        });
        master = await masterClient(suite.server);
      } else {
        kind = 'reset';
        await suite.server.reset();
        master = await masterClient(suite.server);
      }
      if (res) expect(res.status, `step ${step} (${kind})`).toBeLessThan(500);
      if (res?.status === 200) kinds[kind] = (kinds[kind] ?? 0) + 1;
      expect(totalsMismatches(root()), `step ${step} (${kind})`).toEqual([]);
      if (step % 50 === 49) await checkListings();
    }
    // The sequence changed the tree in every way (the counts of changes that were taken).
    for (const kind of ['upload', 'folder', 'delete', 'copy', 'move', 'rename', 'import'])
      expect(kinds[kind], kind).toBeGreaterThan(3);
    expect(paths(root()).files.length).toBeGreaterThan(0);
    await checkListings();
  });
});
