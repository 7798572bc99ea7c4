import type { StateSlice } from '../../shared/project.js';
import type { JobRecord } from './jobs.js';
import { JobQueue } from './queue.js';
import { KINDS, type Kind, type SettingRecord } from './settings.js';

/** How jobs are scheduled and deliveries retried; changed through `PATCH /__admin/transcoder/policy`. */
export interface TranscoderPolicy {
  /** Jobs converting at the same time. */
  concurrency: number;
  /** A job still working after this long ends REJECTED. */
  timeLimitMs: number;
  /** Tries per delivery (upload or webhook), the first included. */
  deliveryAttempts: number;
  /** Wait before the first retry; doubled before each further one. */
  retryDelayMs: number;
}

export const DEFAULT_POLICY: TranscoderPolicy = { concurrency: 2, timeLimitMs: 30 * 60_000, deliveryAttempts: 5, retryDelayMs: 1000 };

export interface TranscoderState {
  /** Per kind, records by name. Settings belong to the project, shared by every token of it. */
  settings: Record<Kind, Map<string, SettingRecord>>;
  /** Every job of the project by queueId, in submission order. */
  jobs: Map<string, JobRecord>;
  policy: TranscoderPolicy;
  queue: JobQueue;
}

interface TranscoderJson {
  settings: Record<Kind, SettingRecord[]>;
  jobs: JobRecord[];
  policy: TranscoderPolicy;
}

function create(settings: Partial<Record<Kind, SettingRecord[]>>, jobs: JobRecord[], policy: TranscoderPolicy): TranscoderState {
  const state: TranscoderState = {
    settings: Object.fromEntries(KINDS.map((k) => [k, new Map((settings[k] ?? []).map((r) => [r.name, r]))])) as TranscoderState['settings'],
    jobs: new Map(jobs.map((j) => [j.queueId, j])),
    policy,
    queue: new JobQueue(() => state.policy.concurrency),
  };
  return state;
}

export const transcoderState: StateSlice<TranscoderState> = {
  key: 'transcoder',
  init: () => create({}, [], { ...DEFAULT_POLICY }),
  toJSON: (s): TranscoderJson => ({
    settings: Object.fromEntries(KINDS.map((k) => [k, [...s.settings[k].values()]])) as TranscoderJson['settings'],
    jobs: [...s.jobs.values()],
    policy: s.policy,
  }),
  fromJSON: (json) => {
    // Parts left out of an imported state start empty.
    const { settings = {}, jobs = [], policy } = json as Partial<TranscoderJson>;
    return create(settings, jobs, { ...DEFAULT_POLICY, ...policy });
  },
};
