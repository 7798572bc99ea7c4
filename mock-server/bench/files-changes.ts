// What one change of the files tree costs (an upload of a small file, a rename, a delete) with 1,000 and with
// 100,000 files in the tree, in memory and with a data folder: the change is kept by appending it to the tree's log
// (`state/files/`), so its cost must not grow with the tree. "Before" is the previous code's way of keeping a change
// with a data folder, verbatim: the whole entry list built (`toJSON`) and written atomically, flushed, after every
// change. In the engine (`engine.fetch`) with the Node server's capabilities, each contender an engine of its own,
// rounds taking turns; a figure is the median of the rounds' means, a ratio the median of the rounds' ratios.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type Engine, type Persistence, createEngine } from '@basekit/engine';
import { toEntries } from '../../packages/engine/src/areas/files/entries.js';
import { filesState } from '../../packages/engine/src/areas/files/state.js';
import { nodeCapabilities } from '../src/capabilities.js';
import { writeAtomic } from '../src/files/atomic.js';
import { engineMasterToken } from './users.js';

const SIZES = [1_000, 100_000];
/** Rounds, and changes of each kind per round: fewer for "before", whose change writes the whole tree. */
const RUNS = { now: { rounds: 15, changes: 100 }, before: { rounds: 3, changes: 2 } };
const FOLDER_FILES = 500;

type Mode = 'memory' | 'data folder' | 'data folder, before';

/** A state export whose tree holds `files` files, `FOLDER_FILES` to a folder (`f0`, `f1`, ...). */
function treeOf(files: number) {
  const base = { ownerId: null, creationDate: 0, lastModificationDate: 0 };
  const file = { size: 1234, md5Hash: 'm', crcHash: 'c', contentType: 'text/plain' };
  const entries: Record<string, unknown>[] = [];
  for (let n = 0; n < files; n++) {
    const folder = `f${Math.floor(n / FOLDER_FILES)}`;
    if (n % FOLDER_FILES === 0) entries.push({ ...base, guid: `d${n}`, path: folder, kind: 'folder' });
    entries.push({ ...base, ...file, guid: `g${n}`, blobKey: `k${n}`, path: `${folder}/${n}.txt`, kind: 'file' });
  }
  return { areas: { files: { entries } } };
}

/** The previous code's save of a change: the whole tree, as `toJSON` built it, written atomically (`writeAtomic`). */
function wholeTreeEveryChange(persistence: Persistence, file: string, engine: () => Engine): Persistence {
  return {
    restore: (key, parse) => persistence.restore(key, parse),
    save: (key, json) => persistence.save(key, json),
    append: () =>
      writeAtomic(file, JSON.stringify({ entries: toEntries(engine().project.state(filesState).root, '', []) })),
    settled: () => persistence.settled(),
  };
}

interface Contender {
  label: string;
  files: number;
  mode: Mode;
  engine: Engine;
  token: string;
  dir?: string;
  /** Per kind of change, each round's mean time of one change (ms): the process's CPU time and the wall time. */
  times: Record<'upload' | 'rename' | 'delete', { cpu: number[]; wall: number[] }>;
  done: number;
}

const empty = () => ({ cpu: [] as number[], wall: [] as number[] });

async function contender(files: number, mode: Mode): Promise<Contender> {
  const dir = mode === 'memory' ? undefined : await mkdtemp(join(tmpdir(), 'basekit-bench-tree-'));
  const capabilities = await nodeCapabilities({ dataDir: dir });
  let engine: Engine | undefined;
  if (mode === 'data folder, before')
    capabilities.persistence = wholeTreeEveryChange(capabilities.persistence!, join(dir!, 'files.json'), () => engine!);
  engine = createEngine({ capabilities, initialState: treeOf(files) });
  await engine.ready;
  const token = await engineMasterToken(engine);
  const label = `${files.toLocaleString('en')} files, ${mode}`;
  return {
    label,
    files,
    mode,
    engine,
    token,
    dir,
    times: { upload: empty(), rename: empty(), delete: empty() },
    done: 0,
  };
}

async function send(c: Contender, path: string, body: FormData | object): Promise<void> {
  const json = !(body instanceof FormData);
  const res = await c.engine.fetch(
    new Request(`http://bench${path}`, {
      method: 'POST',
      headers: {
        'X-Service-Storage-Id': DEFAULT_CONFIG.storageId,
        Authorization: `Bearer ${c.token}`,
        ...(json && { 'Content-Type': 'application/json' }),
      },
      body: json ? JSON.stringify(body) : body,
    }),
  );
  if (res.status !== 200) throw new Error(`${c.label}: ${path} answered ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** One round: `count` uploads of a new small file into `f0`, then as many renames, then as many deletes. */
async function round(c: Contender, count: number): Promise<void> {
  globalThis.gc?.(); // the garbage of the contender before is not this one's
  const names = Array.from({ length: count }, (_, i) => `new-${c.done + i}`);
  c.done += count;
  const timed = async (kind: keyof Contender['times'], change: (name: string) => Promise<void>) => {
    const [started, cpu] = [performance.now(), process.cpuUsage()];
    for (const name of names) await change(name);
    const used = process.cpuUsage(cpu);
    c.times[kind].wall.push((performance.now() - started) / count);
    c.times[kind].cpu.push((used.user + used.system) / 1000 / count);
  };
  await timed('upload', (name) => {
    const form = new FormData();
    form.append('fileItems[0].fileToUpload', new File(['a small file'], `${name}.txt`));
    form.append('fileItems[0].path', 'f0');
    return send(c, '/files', form);
  });
  await timed('rename', (name) =>
    send(c, '/files/rename', { items: [{ pathToRename: `f0/${name}.txt`, newFileName: `${name}.bin` }] }),
  );
  await timed('delete', (name) => send(c, '/files/delete', { urls: [`f0/${name}.bin`], forced: [false] }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => (value >= 1 ? `${value.toFixed(1)} ms` : `${Math.round(value * 1000)} µs`);

/** Prints the cost of one change at 1,000 and at 100,000 files, side by side, in memory and with a data folder. */
export async function benchChanges(): Promise<void> {
  // A server's socket keeps its process alive; here nothing would while an upload waits on the (unref'd) file worker.
  const alive = setInterval(() => undefined, 60_000);
  const modes: Mode[] = ['memory', 'data folder', 'data folder, before'];
  const contenders: Contender[] = [];
  // The contenders of now take turns among themselves, then those of before (whose garbage would weigh on the others).
  for (const [run, among] of [
    [RUNS.now, modes.slice(0, 2)],
    [RUNS.before, modes.slice(2)],
  ] as const) {
    const these: Contender[] = [];
    for (const mode of among) for (const files of SIZES) these.push(await contender(files, mode));
    for (let r = 0; r < run.rounds; r++)
      for (const c of r % 2 ? [...these].reverse() : these) await round(c, run.changes);
    contenders.push(...these);
  }
  clearInterval(alive);
  console.log(
    `\nOne change of the files tree (engine.fetch, Node capabilities, fsync "never"), median of ${RUNS.now.rounds} rounds taking turns (${RUNS.before.rounds} for before); folders of ${FOLDER_FILES} files\n`,
  );
  console.log(
    `| change | storage | CPU, ${SIZES.map((n) => `${n.toLocaleString('en')} files`).join(' | ')} | ÷ | wall, ${SIZES.map((n) => `${n.toLocaleString('en')} files`).join(' | ')} | ÷ |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  let flat = true;
  for (const kind of ['upload', 'rename', 'delete'] as const) {
    for (const mode of modes) {
      const figures = (which: 'cpu' | 'wall') => {
        const [small, large] = SIZES.map((files) => contenders.find((c) => c.files === files && c.mode === mode)!).map(
          (c) => c.times[kind][which],
        ) as [number[], number[]];
        // The ratio of each round (the two sizes ran one after the other), then their median: a load that comes and
        // goes moves both sides of a round alike.
        const ratio = median(large.map((value, r) => value / small[r]!));
        return { ratio, text: `${ms(median(small))} | ${ms(median(large))} | ${ratio.toFixed(2)}×` };
      };
      const [cpu, wall] = [figures('cpu'), figures('wall')];
      if (mode !== 'data folder, before') flat &&= cpu.ratio <= 1.1;
      console.log(`| ${kind === 'upload' ? 'upload of a small file' : kind} | ${mode} | ${cpu.text} | ${wall.text} |`);
    }
  }
  console.log(
    `\nTarget: CPU per change within 1.1× of each other in memory and with a data folder: ${flat ? 'met' : 'NOT met'}`,
  );
  for (const c of contenders) {
    await c.engine.close();
    if (c.dir) await rm(c.dir, { recursive: true, force: true });
  }
  if (!flat) process.exitCode = 1;
}
