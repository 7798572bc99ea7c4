import type { Engine, FaultSpec, FaultView, JobRecord, Mail, SnapshotInfo } from '@basekit/engine';
import type { Seed } from './seed.js';
import type { ServiceApi } from './service-api.js';

/** Seeding code is loaded with the first seed, so a page that seeds nothing does not carry it. */
const applySeed = async (...args: Parameters<typeof import('./seed.js').applySeed>) =>
  (await import('./seed.js')).applySeed(...args);

export type { FaultSpec, FaultView, Mail, SnapshotInfo };

/** The named snapshot the backend saves right after its seed, which `reset()` restores. */
const SEED_SNAPSHOT = 'basekit-seed';

/** A transcoder job as the admin API lists it (`GET /__admin/jobs`). */
export type TranscoderJob = JobRecord;

/** The whole state as the admin API exports it (`GET /__admin/state`): one entry per area under `areas`. */
export interface StateExport {
  clockOffsetMs: number;
  outbox: Mail[];
  areas: Record<string, unknown>;
}

/** A row as the database stores it. */
export type StoredRow = Record<string, unknown> & { _id: string; createdAt: string; updatedAt: string };

/**
 * Test controls of one backend (the engine inside msw, or a running reference server), all through the service's
 * own HTTP API and its admin API.
 */
export interface Backend {
  /** Settles when the initial seed is in; rejects with the seed's error. Every other call waits for it. */
  ready: Promise<void>;
  /**
   * Back to the state right after the initial seed (and its config and clock, if a test changed them), with no fault
   * set: the named snapshot `basekit-seed`, restored in a few milliseconds whatever the seed's size.
   */
  reset(): Promise<void>;
  /** Adds users, folders, files, rows and scores; all or nothing. `reset()` drops them again. */
  seed(fixture: Seed): Promise<void>;
  /** The server clock: `advance` moves it forward (tokens expire, timestamps move) and returns the new time. */
  clock: { advance(seconds: number): Promise<Date>; now(): Promise<Date> };
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
   * await backend.faults.add({ path: '/object-storage/classes/query/{tableName}', delayMs: 2000 });
   */
  faults: {
    /** Sets a fault; it applies from the next request on. */
    add(fault: FaultSpec): Promise<FaultView>;
    /** Every fault set, with what is left of `times` and how often each applied. */
    list(): Promise<FaultView[]>;
    remove(id: string): Promise<void>;
    clear(): Promise<void>;
  };
  /**
   * Named snapshots (`/__admin/snapshots`): the whole backend saved under a name and brought back exactly, in a few
   * milliseconds (a seed of thousands of rows included): seed once, then restore before every test.
   *
   * @example
   * await backend.seed(bigFixture);
   * await backend.snapshots.save('seeded');
   * beforeEach(() => backend.snapshots.restore('seeded'));
   */
  snapshots: {
    /** Saves the backend as it is now under `name` (replacing a snapshot of that name). */
    save(name: string): Promise<SnapshotInfo>;
    /** Makes the backend exactly what it was when `name` was saved (faults are not part of it). */
    restore(name: string): Promise<void>;
    list(): Promise<SnapshotInfo[]>;
    remove(name: string): Promise<void>;
  };
}

const snapshotPath = (name: string) => `/__admin/snapshots/${encodeURIComponent(name)}`;

/**
 * The controls of a backend reached through `api`, seeded with `initial` (if any), whose `reset()` returns to the
 * state right after that seed. With a `persisted` engine (one with a journal), a state it restored is kept as it is
 * (the seed went in when the journal was new) and the engine itself keeps what a reset returns to.
 */
export function createBackend(api: ServiceApi, initial?: Seed, persisted?: Engine): Backend {
  const passwords = new Map<string, string>();
  const ready = (async () => {
    const restored = await persisted?.ready;
    if (restored && (restored.snapshot || restored.records > 0)) return undefined;
    if (initial) await applySeed(api, initial, passwords);
    if (persisted) return void (await persisted.setInitialState(await api.admin<StateExport>('GET', '/__admin/state')));
    await api.admin('PUT', snapshotPath(SEED_SNAPSHOT));
    return SEED_SNAPSHOT;
  })();
  const admin = async <T>(method: string, path: string, json?: unknown) => {
    await ready;
    return api.admin<T>(method, path, json);
  };
  const advance = async (seconds: number) =>
    new Date((await admin<{ now: string }>('POST', '/__admin/clock', { advanceSeconds: seconds })).now);

  return {
    ready: ready.then(() => undefined),
    async reset() {
      const baseline = await ready;
      if (!baseline) return void (await api.admin('POST', '/__admin/reset'));
      await api.admin('DELETE', '/__admin/faults');
      await api.admin('POST', `${snapshotPath(baseline)}/restore`);
    },
    async seed(fixture) {
      await ready;
      await applySeed(api, fixture, passwords);
    },
    clock: { advance, now: () => advance(0) },
    outbox: async () => (await admin<{ messages: Mail[] }>('GET', '/__admin/outbox')).messages,
    jobs: async () => (await admin<{ jobs: TranscoderJob[] }>('GET', '/__admin/jobs')).jobs,
    state: () => admin<StateExport>('GET', '/__admin/state'),
    async rows(table) {
      const { areas } = await admin<StateExport>('GET', '/__admin/state');
      return (areas['database'] as Record<string, { rows: StoredRow[] }>)[table]?.rows ?? [];
    },
    faults: {
      add: (fault) => admin<FaultView>('POST', '/__admin/faults', fault),
      list: async () => (await admin<{ faults: FaultView[] }>('GET', '/__admin/faults')).faults,
      remove: (id) => admin('DELETE', `/__admin/faults/${encodeURIComponent(id)}`),
      clear: () => admin('DELETE', '/__admin/faults'),
    },
    snapshots: {
      save: (name) => admin<SnapshotInfo>('PUT', snapshotPath(name)),
      restore: (name) => admin('POST', `${snapshotPath(name)}/restore`),
      list: async () => (await admin<{ snapshots: SnapshotInfo[] }>('GET', '/__admin/snapshots')).snapshots,
      remove: (name) => admin('DELETE', snapshotPath(name)),
    },
  };
}
