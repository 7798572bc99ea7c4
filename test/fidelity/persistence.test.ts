import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@basekit/engine';
import { startServerProcess, type ServerProcess } from './support/cli.js';
import {
  Client as StateClient,
  checkGrowth,
  newGrowth,
  prepare,
  runLoad,
  type Acknowledged,
} from './support/state-load.js';

/**
 * Kill-restart rounds: a load of file writes runs against `--data-dir`, the server is SIGKILLed at a random moment,
 * and the restarted server must hold every write that was answered 2xx, and nothing half-done.
 * `FIDELITY_KILL_ROUNDS` sets the number of rounds (docs/reliability.md has the longer run).
 */
const ROUNDS = Number(process.env['FIDELITY_KILL_ROUNDS'] ?? 5);
const WORKERS = 6;
const { authenticationId, masterKey, storageId } = DEFAULT_CONFIG;
const bucket = storageId;

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/** A small deterministic PRNG (mulberry32), so a round's load is the same for the same seed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** What each path may hold after a restart: the MD5 of its bytes, or null for absent. One value once a write was answered. */
type Model = Map<string, Set<string | null>>;

class Client {
  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  static async connect(server: ServerProcess): Promise<Client> {
    const res = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': masterKey },
    });
    return new Client(server.url, ((await res.json()) as { access_token: string }).access_token);
  }

  post(path: string, body: FormData | object): Promise<Response> {
    const json = !(body instanceof FormData);
    return fetch(`${this.url}${path}`, {
      method: 'POST',
      headers: {
        'X-Service-Storage-Id': storageId,
        Authorization: `Bearer ${this.token}`,
        ...(json ? { 'Content-Type': 'application/json' } : {}),
      },
      body: json ? JSON.stringify(body) : body,
    });
  }

  upload(path: string, bytes: Uint8Array<ArrayBuffer>, replacing: boolean): Promise<Response> {
    const form = new FormData();
    const slash = path.lastIndexOf('/');
    form.append('fileItems[0].fileToUpload', new File([bytes], path.slice(slash + 1)));
    form.append('fileItems[0].path', path.slice(0, slash));
    form.append('fileItems[0].replacing', String(replacing));
    return this.post('/files', form);
  }

  async download(path: string): Promise<{ status: number; bytes: Uint8Array }> {
    const res = await fetch(`${this.url}/${bucket}/${path}`);
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
  }
}

/** Names are never reused, across workers and rounds. */
let serial = 0;

/** One worker's writes on its own paths until the server dies: uploads, replacements, deletes and renames. */
async function worker(client: Client, model: Model, next: () => number, id: number): Promise<number> {
  let answered = 0;
  const mine = () =>
    [...model.keys()].filter(
      (p) => p.startsWith(`w${id}/`) && model.get(p)!.size === 1 && [...model.get(p)!][0] !== null,
    );
  for (;;) {
    const i = ++serial;
    const owned = mine();
    const choice = owned.length === 0 ? 0 : Math.floor(next() * 4);
    const bytes = new Uint8Array(1 + Math.floor(next() * 64_000)).map(() => Math.floor(next() * 256));
    const path = choice === 0 ? `w${id}/f${i}.bin` : owned[Math.floor(next() * owned.length)]!;
    // Before sending, the path may end either way; after a 2xx it holds the new state only.
    const before = model.get(path) ?? new Set([null]);
    let after: string | null;
    let request: () => Promise<Response>;
    let renamed: string | undefined;
    if (choice === 0 || choice === 1) {
      after = md5(bytes);
      request = () => client.upload(path, bytes, choice === 1);
    } else if (choice === 2) {
      after = null;
      request = () => client.post('/files/delete', { urls: [path] });
    } else {
      renamed = `w${id}/r${i}.bin`;
      after = null;
      const moving = [...before][0]!;
      model.set(renamed, new Set([null, moving]));
      request = () => client.post('/files/rename', { items: [{ pathToRename: path, newFileName: `r${i}.bin` }] });
    }
    model.set(path, new Set([...before, after]));
    let res: Response;
    try {
      res = await request();
      await res.arrayBuffer();
    } catch {
      return answered; // the server is gone: this write stays undecided in the model
    }
    if (!res.ok) throw new Error(`write ${path} answered ${res.status}`);
    answered++;
    model.set(path, new Set([after]));
    if (renamed) model.set(renamed, new Set([[...before][0]!]));
  }
}

interface Listed {
  url: string;
  isDirectory: boolean;
  fileSizeInBytes: number;
}

/** Every file the tree lists, by saved path (recursively through the folders). */
async function listAll(client: Client, folder = ''): Promise<Listed[]> {
  const found: Listed[] = [];
  for (let page = 0; ; page++) {
    const res = await client.post('/files/directoryInfo', {
      url: `/${bucket}/${folder}`,
      pageNumber: page,
      pageSize: 50,
    });
    const { files } = (await res.json()) as { files: Listed[] };
    for (const entry of files) {
      const path = entry.url.slice(bucket.length + 2);
      if (entry.isDirectory) found.push(...(await listAll(client, `${path}/`)));
      else found.push({ ...entry, url: path });
    }
    if (files.length < 50) return found;
  }
}

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'basekit-kill-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('--data-dir under SIGKILL', () => {
  it(`keeps every answered write through ${ROUNDS} kill-restart rounds, with nothing half-done`, async () => {
    const model: Model = new Map();
    const next = random(20_261_122);
    let answered = 0;
    const problems: string[] = [];
    const broken = new Set<string>(); // a broken file stays broken: reported once
    for (let round = 1; round <= ROUNDS; round++) {
      const server = await startServerProcess(['--data-dir', dataDir]);
      const client = await Client.connect(server);

      // What the previous round left must be exactly what was answered (or, for writes in flight, either outcome).
      const listed = await listAll(client);
      for (const [path, possible] of model) {
        const { status, bytes } = await client.download(path);
        const seen = status === 200 ? md5(bytes) : status === 404 ? null : `status ${status}`;
        if (!possible.has(seen))
          problems.push(`round ${round}: ${path} holds ${seen}, expected one of ${[...possible].join(' | ')}`);
        model.set(path, new Set([seen]));
      }
      for (const file of listed) {
        const { status, bytes } = await client.download(file.url);
        if (broken.has(file.url) || (status === 200 && bytes.length === file.fileSizeInBytes)) continue;
        broken.add(file.url);
        problems.push(
          `round ${round}: listed ${file.url} (${file.fileSizeInBytes} bytes) downloads as ${status} with ${bytes.length} bytes`,
        );
      }
      for (const folder of ['blobs', 'state']) {
        const leftovers = (await readdir(join(dataDir, folder))).filter((name) => name.startsWith('.tmp-'));
        if (leftovers.length)
          problems.push(`round ${round}: temporary files left in ${folder}: ${leftovers.join(', ')}`);
      }

      const load = Array.from({ length: WORKERS }, (_, id) => worker(client, model, next, id));
      await new Promise((resolve) => setTimeout(resolve, 150 + next() * 600));
      await server.kill('SIGKILL');
      answered += (await Promise.all(load)).reduce((a, b) => a + b, 0);
    }
    console.info(
      `persistence: ${ROUNDS} kill-restart rounds, ${answered} writes answered 2xx, ${model.size} paths checked after every restart`,
    );
    expect(problems).toEqual([]);
    expect(answered).toBeGreaterThan(ROUNDS * 5);
  }, 180_000);

  it(
    `keeps every answered write of every kind of state through ${ROUNDS} kill-restart rounds`,
    async () => {
      const folder = await mkdtemp(join(tmpdir(), 'basekit-kill-state-'));
      const acked: Acknowledged[] = [];
      const growth = newGrowth();
      const problems: string[] = [];
      const lost = new Set<Acknowledged>();
      let checked = 0;
      try {
        // ROUNDS rounds of load ended by SIGKILL, then two starts ended by SIGTERM (a clean stop writes a snapshot).
        for (let round = 1; round <= ROUNDS + 2; round++) {
          const server = await startServerProcess(['--data-dir', folder]);
          try {
            const client = await StateClient.connect(server.url);
            // Every write answered before the kill must be there; after the clean stops, every write of the run again.
            for (const write of round > ROUNDS ? acked : acked.slice(checked)) {
              const problem = await write.check(client);
              if (problem) lost.add(write);
              if (problem) problems.push(`round ${round}: ${problem}`);
            }
            checked = acked.length;
            if (round > 1) problems.push(...(await checkGrowth(client, growth)).map((p) => `round ${round}: ${p}`));
            if (round > ROUNDS) {
              await server.kill('SIGTERM');
              const journal = join(folder, 'journal');
              const names = await readdir(journal);
              const log = names.find((name) => name.endsWith('.log'));
              if (!names.includes('snapshot.json') || !log || (await stat(join(journal, log))).size !== 0)
                problems.push(
                  `round ${round}: SIGTERM left ${names.join(', ')} (a snapshot and an empty journal expected)`,
                );
              continue;
            }
            if (round === 1) await prepare(client);
            const load = runLoad(client, acked, growth);
            await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
            await server.kill('SIGKILL');
            await load;
          } finally {
            if (server.child.exitCode === null && server.child.signalCode === null) await server.kill('SIGKILL');
          }
        }
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
      const kinds = new Map<string, number>();
      for (const write of acked) kinds.set(write.kind, (kinds.get(write.kind) ?? 0) + 1);
      const counts = [...kinds]
        .map(([kind, n]) => `${kind} ${n} (lost ${[...lost].filter((write) => write.kind === kind).length})`)
        .join(', ');
      console.info(
        `persistence of every state: ${ROUNDS} SIGKILL rounds, then 2 SIGTERM; answered writes checked after each restart: ${counts}; config ${growth.config.acked}, clock ${growth.clock.acked} s, counter ${growth.counter.acked}, tied players ${growth.ties.length}`,
      );
      expect(problems).toEqual([]);
      for (const kind of [
        'user (password hash)',
        'outbox',
        'confirmation',
        'session (refresh + access token)',
        'row (types, ACL, relation)',
        'score',
        'transcoder setting',
        'transcoder job',
      ])
        expect(kinds.get(kind) ?? 0).toBeGreaterThan(0);
    },
    60_000 + ROUNDS * 15_000,
  );

  it('exports and imports the state exactly (a round trip changes nothing)', async () => {
    const server = await startServerProcess([]);
    try {
      const client = await Client.connect(server);
      await client.upload('trip/a.bin', new Uint8Array([1, 2, 3]), false);
      await fetch(`${server.url}/auth/users`, {
        method: 'POST',
        headers: { 'X-Service-Authentication-Id': authenticationId, 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'tripper', password: 'pw' }),
      });
      const admin = { 'X-Service-Authentication-Key': masterKey };
      const exported = await (await fetch(`${server.url}/__admin/state`, { headers: admin })).text();
      const reset = await fetch(`${server.url}/__admin/reset`, { method: 'POST', headers: admin });
      expect(reset.status).toBe(200);
      const imported = await fetch(`${server.url}/__admin/state`, {
        method: 'PUT',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: exported,
      });
      expect(imported.status).toBe(200);
      const again = (await (await fetch(`${server.url}/__admin/state`, { headers: admin })).json()) as {
        clockOffsetMs: number;
      };
      const first = JSON.parse(exported) as { clockOffsetMs: number };
      // The clock offset is real time minus server time, read at two moments: equal within the time between them.
      expect(Math.abs(again.clockOffsetMs - first.clockOffsetMs)).toBeLessThan(1_000);
      expect({ ...again, clockOffsetMs: 0 }).toEqual({ ...first, clockOffsetMs: 0 });
      expect(Array.from((await client.download('trip/a.bin')).bytes)).toEqual([1, 2, 3]);
    } finally {
      await server.kill('SIGTERM');
    }
  });
});
