import type { StateSlice } from '../../shared/project.js';
import type { JobRecord } from './job-record.js';
import type { JobQueue } from './queue.js';
import { SETTING_KINDS, type SettingKind, type SettingRecord } from './setting-kinds.js';

/** How jobs are scheduled and deliveries retried; changed through `PATCH /__admin/transcoder/policy`. */
export interface TranscoderPolicy {
  /** Jobs converting at the same time. */
  concurrency: number;
  /** Jobs of one user converting at the same time (the master token's may take every slot). */
  concurrencyPerUser: number;
  /** A job still working after this long ends REJECTED. */
  timeLimitMs: number;
  /** Tries per delivery (upload or webhook), the first included. */
  deliveryAttempts: number;
  /** Wait before the first retry; doubled before each further one. */
  retryDelayMs: number;
}

const DEFAULT_POLICY: TranscoderPolicy = {
  concurrency: 2,
  concurrencyPerUser: 1,
  timeLimitMs: 30 * 60_000,
  deliveryAttempts: 5,
  retryDelayMs: 1000,
};

/** Settings records of one owner: per kind, by name. */
export type SettingsBook = Record<SettingKind, Map<string, SettingRecord>>;

export interface TranscoderState {
  /** The master token's records: the project's, which every user may reference too. */
  settings: SettingsBook;
  /** Each user's own records, by user id. */
  userSettings: Map<string, SettingsBook>;
  /** Every job of the project by queueId, in submission order. */
  jobs: Map<string, JobRecord>;
  policy: TranscoderPolicy;
  /** Made by the first job (`jobs.ts`, loaded then), so that a page of msw that converts nothing does not fetch it. */
  queue?: JobQueue;
}

type BookJson = Partial<Record<SettingKind, SettingRecord[]>>;

interface TranscoderJson {
  settings: BookJson;
  userSettings: Record<string, BookJson>;
  jobs: JobRecord[];
  policy: TranscoderPolicy;
}

export function settingsBook(json: BookJson = {}): SettingsBook {
  return Object.fromEntries(
    SETTING_KINDS.map((k) => [k, new Map((json[k] ?? []).map((r) => [r.name, r]))]),
  ) as SettingsBook;
}

const bookJson = (book: SettingsBook): BookJson =>
  Object.fromEntries(SETTING_KINDS.map((k) => [k, [...book[k].values()]]));

/** Every stored settings record as JSON: the project's (`settings`) and each user's own (`userSettings`, by user id). */
export function settingsJson(s: TranscoderState): Pick<TranscoderJson, 'settings' | 'userSettings'> {
  return {
    settings: bookJson(s.settings),
    userSettings: Object.fromEntries([...s.userSettings].map(([userId, book]) => [userId, bookJson(book)])),
  };
}

function create({ settings, userSettings, jobs, policy }: TranscoderJson): TranscoderState {
  return {
    settings: settingsBook(settings),
    userSettings: new Map(Object.entries(userSettings).map(([userId, book]) => [userId, settingsBook(book)])),
    jobs: new Map(jobs.map((j) => [j.queueId, j])),
    policy,
  };
}

export const transcoderState: StateSlice<TranscoderState> = {
  key: 'transcoder',
  init: () => create({ settings: {}, userSettings: {}, jobs: [], policy: { ...DEFAULT_POLICY } }),
  count: (s) => ({
    settings: [s.settings, ...s.userSettings.values()].reduce(
      (sum, book) => sum + Object.values(book).reduce((n, records) => n + records.size, 0),
      0,
    ),
    jobs: s.jobs.size,
  }),
  toJSON: (s): TranscoderJson => ({
    ...settingsJson(s),
    jobs: [...s.jobs.values()],
    policy: s.policy,
  }),
  fromJSON: (json) => {
    // Parts left out of an imported state start empty.
    const { settings = {}, userSettings = {}, jobs = [], policy } = json as Partial<TranscoderJson>;
    // Jobs of a state saved before the admin view listed settings, calls and the converter's log have none.
    const complete = jobs.map((job) => ({
      ...job,
      settings: job.settings ?? {},
      calls: job.calls ?? [],
      log: job.log ?? [],
    }));
    return create({ settings, userSettings, jobs: complete, policy: { ...DEFAULT_POLICY, ...policy } });
  },
  restarted(state, project) {
    // Their conversion stopped with the previous run and is not started again: they end as a failed job would.
    for (const job of state.jobs.values()) {
      if (job.state !== 'queued' && job.state !== 'running') continue;
      job.state = 'rejected';
      job.reason = 'the server restarted before the job finished';
      job.finishedAt = project.clock.iso();
    }
  },
};
