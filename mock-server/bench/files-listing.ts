// A folder listing (`POST /files/directoryInfo`) of a folder whose subtree holds 100,000 files, read from the totals
// each folder keeps (the engine's `listFolder`) against the count each listed entry's whole subtree took before
// (the same listing with the subtree walked, as in the engine before folders kept their totals). In the engine, no HTTP, with
// rounds taking turns; the whole request through `engine.fetch` is printed beside them.
import { DEFAULT_CONFIG, createEngine } from '@basekit/engine';
import { type FileRecord, listFolder, sortedNames } from '../../packages/engine/src/areas/files/listing.js';
import { type FilePath, publicUrl } from '../../packages/engine/src/areas/files/paths.js';
import { filesState } from '../../packages/engine/src/areas/files/state.js';
import { type FileNode, type FolderNode, type TreeNode, existing } from '../../packages/engine/src/areas/files/tree.js';
import { engineMasterToken } from './users.js';

const FOLDERS = 100;
const FILES_EACH = 1000;
const ROUNDS = 9;

// The engine's code before the totals (packages/engine/src/areas/files/tree.ts before folders kept totals), verbatim.
function* nodesIn(node: TreeNode): Generator<TreeNode> {
  yield node;
  if (node.kind === 'folder') for (const child of node.children.values()) yield* nodesIn(child);
}
function* filesIn(node: TreeNode): Generator<FileNode> {
  for (const inner of nodesIn(node)) if (inner.kind === 'file') yield inner;
}
function descendantCount(node: TreeNode): number {
  if (node.kind === 'file') return 0;
  let count = 0;
  for (const child of node.children.values()) count += 1 + descendantCount(child);
  return count;
}
function sizeOf(node: TreeNode): number {
  let size = 0;
  for (const file of filesIn(node)) size += file.size;
  return size;
}

/** The listing as the engine computed it before the totals: each entry's subtree walked for its size and counts. */
function listWalking(root: FolderNode, bucket: string, path: FilePath): FileRecord[] {
  const folder = existing(root, path, bucket);
  if (folder.kind !== 'folder') throw new Error('not a folder');
  return sortedNames(folder)
    .slice(0, 50)
    .map((name) => {
      const node = folder.children.get(name)!;
      return {
        guid: node.guid,
        url: publicUrl(bucket, [...path, name]),
        ownerId: node.ownerId,
        isDirectory: node.kind === 'folder',
        fileSizeInBytes: sizeOf(node),
        numberOfDirectChildren: node.kind === 'folder' ? node.children.size : 0,
        numberOfTotalChildren: descendantCount(node),
      };
    });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Prints the listing of `/` (whose folder `big` holds 100,000 files in 100 folders), walked against kept totals. */
export async function benchListing(): Promise<void> {
  const entries: Record<string, unknown>[] = [];
  const base = { guid: 'g', ownerId: null, creationDate: 0, lastModificationDate: 0 };
  const file = { size: 1234, md5Hash: 'm', crcHash: 'c', contentType: 'text/plain', blobKey: 'k' };
  entries.push({ ...base, path: 'big', kind: 'folder' }, { ...base, path: 'small', kind: 'folder' });
  for (let f = 0; f < FOLDERS; f++) {
    entries.push({ ...base, path: `big/f${f}`, kind: 'folder' });
    for (let i = 0; i < FILES_EACH; i++) entries.push({ ...base, ...file, path: `big/f${f}/${i}.txt`, kind: 'file' });
  }
  entries.push({ ...base, ...file, path: 'small/one.txt', kind: 'file' });
  const engine = createEngine({ initialState: { areas: { files: { entries } } } });
  await engine.ready;
  const { project } = engine;
  const { bucket } = project.config;
  const token = await engineMasterToken(engine);
  const request = () =>
    engine.fetch(
      new Request('http://bench/files/directoryInfo', {
        method: 'POST',
        headers: {
          'X-Service-Storage-Id': DEFAULT_CONFIG.storageId,
          'Content-Type': 'application/json',
          Authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({ url: '/' }),
      }),
    );

  const kept = listFolder(project, [], 0, 50, 'ASC');
  const walked = listWalking(project.state(filesState).root, bucket, []);
  if (JSON.stringify(kept) !== JSON.stringify(walked)) throw new Error('the two listings differ');
  const answered = JSON.stringify(((await (await request()).json()) as { files: unknown }).files);
  if (answered !== JSON.stringify(kept)) throw new Error('the request answers another listing');

  const times = { walked: [] as number[], kept: [] as number[], request: [] as number[] };
  const time = async (run: () => unknown, repeat: number) => {
    const started = performance.now();
    for (let i = 0; i < repeat; i++) await run();
    return (performance.now() - started) / repeat;
  };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? (['kept', 'walked'] as const) : (['walked', 'kept'] as const);
    for (const which of order) {
      if (which === 'walked')
        times.walked.push(await time(() => listWalking(project.state(filesState).root, bucket, []), 5));
      else times.kept.push(await time(() => listFolder(project, [], 0, 50, 'ASC'), 2000));
    }
    times.request.push(await time(async () => (await request()).arrayBuffer(), 500));
  }
  const ms = (value: number) => (value >= 1 ? `${value.toFixed(1)} ms` : `${(value * 1000).toFixed(1)} µs`);
  console.log(
    `\nListing / (2 folders; \`big\` holds ${(FOLDERS * FILES_EACH).toLocaleString('en')} files in ${FOLDERS} folders), in the engine, median of ${ROUNDS} rounds taking turns\n`,
  );
  console.log(
    '| listing | subtree walked (before) | totals kept (now) | faster by | whole request now (engine.fetch) |',
  );
  console.log('|---|---|---|---|---|');
  const [walkedMs, keptMs] = [median(times.walked), median(times.kept)];
  console.log(
    `| directoryInfo of / | ${ms(walkedMs)} | ${ms(keptMs)} | ${Math.round(walkedMs / keptMs).toLocaleString('en')}× | ${ms(median(times.request))} |`,
  );
  await engine.close();
}
