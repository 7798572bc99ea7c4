// A seeded random sequence of every kind of change of the files tree, each a request through the transport: uploads
// (new and replacing), folders, deletes, copies, moves, renames, imports of the exported state and resets. Shared by
// the tests of what a folder keeps (totals.test.ts) and of what the saved tree keeps (the Node server's tree-log).
import { filesState } from '../../src/areas/files/state.js';
import type { FolderNode } from '../../src/areas/files/tree.js';
import { seeded } from '../support/seeded.js';
import type { TestServer } from '../support/server.js';
import { type StorageClient, masterClient } from './support.js';

const FOLDERS = ['a', 'b', 'c'];
const FILES = ['x.txt', 'y.bin', 'z'];

/** Every path of the tree (folders end with `/`), from the engine's own tree. */
export function paths(folder: FolderNode, prefix = ''): { folders: string[]; files: string[] } {
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

export const parentOf = (path: string) => path.split('/').slice(0, -1).join('/');
const randomFolder = (random: ReturnType<typeof seeded>) =>
  Array.from({ length: random.int(4) }, () => random.pick(FOLDERS)).join('/');

/** What one change was, and its answer (none when it was a reset). */
export interface Change {
  step: number;
  kind: string;
  res: Response | undefined;
}

/**
 * Makes `steps` changes chosen by `seed` through `server`, calling `after` after each; returns how many of each kind
 * were taken (answered 200). `server` must be of this process (its engine's tree is read to choose paths).
 */
export async function randomChanges(
  server: TestServer,
  { seed, steps }: { seed: number; steps: number },
  after: (change: Change) => Promise<void> | void,
): Promise<Record<string, number>> {
  const random = seeded(seed);
  const root = () => server.engine.project.state(filesState).root;
  let master: StorageClient = await masterClient(server);
  const kinds: Record<string, number> = {};
  for (let step = 0; step < steps; step++) {
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
      const state = await (await server.admin('/__admin/state')).json();
      res = await server.admin('/__admin/state', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(state),
      });
      master = await masterClient(server);
    } else {
      kind = 'reset';
      await server.reset();
      master = await masterClient(server);
    }
    if (res?.status === 200) kinds[kind] = (kinds[kind] ?? 0) + 1;
    await after({ step, kind, res });
  }
  return kinds;
}
