import type { Engine } from '@basekit/engine';
import type { AdminClient, Fault, FaultSpec, Mail, Snapshot, StateExport, TranscoderJob } from '@basekit/sdk/admin';
import type { BackendAccess, Seed } from './seed.js';

export type { Fault, FaultSpec, Mail, Snapshot, StateExport, TranscoderJob };

/** The named snapshot a backend saves right after its seed, which `reset()` restores. */
const SEED_SNAPSHOT = 'basekit-seed';

/**
 * A row as the database stores it.
 *
 * @example
 * const [note]: StoredRow[] = await backend.rows('Note');
 * expect(note).toMatchObject({ title: 'Hello' });
 */
export type StoredRow = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string };

/** What a backend starts from. */
interface BackendStart {
  /** Seeded at once; `reset()` returns to the state right after it. */
  seed?: Seed;
  /**
   * The engine in this page, started with the backend (msw): without a seed it starts as a reset leaves it, so nothing
   * is read at start. With `journaled`, a state its journal restored stays as it is (the seed went in when the
   * journal was new), and the engine itself keeps what a reset returns to.
   */
  engine?: Engine;
  journaled?: boolean;
}

/**
 * Test controls of one backend (the engine inside msw, or a running reference server), all through the service's
 * own HTTP API and its admin API.
 *
 * @example
 * const backend: Backend = createHandlers({ baseUrl }); // or connectServer({ url, masterKey })
 * await backend.seed({ users: [{ username: 'ann', password: 'pw' }] });
 * expect(await backend.rows('Note')).toEqual([]);
 * await backend.reset();
 */
export interface Backend {
  /** Settles when the initial seed is in; rejects with the seed's error. Every other call waits for it. */
  ready: Promise<void>;
  /**
   * Back to the state right after the initial seed (and its config and clock, if a test changed them), with no fault
   * set. With a seed, the named snapshot `basekit-seed` saved right after it, restored in milliseconds whatever its size.
   */
  reset(): Promise<void>;
  /** Adds users, folders, files, rows and scores; all or nothing. `reset()` drops them again. */
  seed(fixture: Seed): Promise<void>;
  /** The server clock: `advance` moves it forward (tokens expire, timestamps move) and returns the new time. */
  clock: {
    /** Moves the clock `seconds` forward; resolves with the new time. */
    advance(seconds: number): Promise<Date>;
    /** The server's time now. */
    now(): Promise<Date>;
  };
  /** The e-mails the service would have sent. */
  outbox(): Promise<Mail[]>;
  /** The transcoder's jobs, in submission order. */
  jobs(): Promise<TranscoderJob[]>;
  /** The whole state, for assertions. */
  state(): Promise<StateExport>;
  /** The rows of a table in creation order (none when the table does not exist), ACLs ignored. */
  rows(table: string): Promise<StoredRow[]>;
  /**
   * Faults (`/__admin/faults`): make requests of a method and path fail with a status, lose their connection (a
   * network error) or wait, for `times` requests or a `probability` share of them. `reset()` removes them all.
   *
   * @example
   * await backend.faults.add({ method: 'POST', path: '/auth/login', status: 503, times: 1 });
   */
  faults: Pick<AdminClient['faults'], 'add' | 'list' | 'remove' | 'clear'>;
  /**
   * Named snapshots (`/__admin/snapshots`) of the whole backend, restored exactly in milliseconds: seed once, restore
   * before every test.
   *
   * @example
   * await backend.seed(bigFixture);
   * await backend.snapshots.save('seeded');
   * beforeEach(() => backend.snapshots.restore('seeded'));
   */
  snapshots: Pick<AdminClient['snapshots'], 'save' | 'restore' | 'list' | 'delete'>;
}

/**
 * The controls of the backend `access` reaches, on the SDK's admin client. The client and the seeding code load with
 * their first use, so a page that calls no control carries neither.
 */
export function createBackend(
  access: BackendAccess,
  { seed: initial, engine, journaled = false }: BackendStart = {},
): Backend {
  let client: Promise<AdminClient> | undefined;
  const admin = () =>
    (client ??= import('@basekit/sdk/admin').then(({ createAdminClient }) => createAdminClient(access)));
  const passwords = new Map<string, string>();
  const applySeed = async (fixture: Seed) =>
    (await import('./seed.js')).applySeed(await admin(), access, fixture, passwords);

  // What `reset()` restores: none on a backend that keeps it itself (a journal, or an engine started as a reset leaves
  // it), else the snapshot saved right after the seed.
  const ready = (async (): Promise<string | undefined> => {
    const restored = await engine?.ready;
    if (restored && (restored.snapshot || restored.records > 0)) return undefined;
    if (engine && !initial) return undefined;
    if (initial) await applySeed(initial);
    const client = await admin();
    if (journaled) return void (await engine!.setInitialState(await client.state.export()));
    await client.snapshots.save(SEED_SNAPSHOT);
    return SEED_SNAPSHOT;
  })();
  const settled = async () => {
    await ready;
    return admin();
  };

  return {
    ready: ready.then(() => undefined),
    async reset() {
      const baseline = await ready;
      const client = await admin();
      if (!baseline) return client.reset();
      await client.faults.clear();
      await client.snapshots.restore(baseline);
    },
    async seed(fixture) {
      await ready;
      await applySeed(fixture);
    },
    clock: {
      advance: async (seconds) => (await settled()).clock.advance(seconds),
      now: async () => (await settled()).clock.now(),
    },
    outbox: async () => (await settled()).outbox(),
    jobs: async () => (await settled()).transcoder.jobs(),
    state: async () => (await settled()).state.export(),
    async rows(table) {
      const { areas } = await (await settled()).state.export();
      return (areas['database'] as Record<string, { rows: StoredRow[] }>)[table]?.rows ?? [];
    },
    faults: {
      add: async (fault, options) => (await settled()).faults.add(fault, options),
      list: async (options) => (await settled()).faults.list(options),
      remove: async (id, options) => (await settled()).faults.remove(id, options),
      clear: async (options) => (await settled()).faults.clear(options),
    },
    snapshots: {
      save: async (name, options) => (await settled()).snapshots.save(name, options),
      restore: async (name, options) => (await settled()).snapshots.restore(name, options),
      list: async (options) => (await settled()).snapshots.list(options),
      delete: async (name, options) => (await settled()).snapshots.delete(name, options),
    },
  };
}
