import type { ConverterRun } from '../../shared/transcoder-capability.js';
import type { SettingKind, SettingRecord } from './setting-kinds.js';

// A conversion job as the admin API shows it (`GET /__admin/jobs`, the panel's job view): written by jobs.ts when it
// is submitted, by pipeline.ts as it runs and by deliveries.ts as its calls go.

/** Webhook statuses of the contract's `transcoderNotification`. */
export type Status = 'REJECTED' | 'THUMBNAIL_REJECTED' | 'COMPLETE';
/** Which part of a request a notification is about: its conversion or its thumbnails. */
export type NotifiedJob = 'convert' | 'thumbnail';

/** One try of a call: when it started, how long it took, and the answer's status or what went wrong. */
export interface DeliveryTry {
  at: string;
  ms: number;
  status?: number;
  error?: string;
}

/**
 * One upload delivery or webhook notification, as the admin job view lists it; `kind` says which of the two it is (not
 * a kind of settings record: those are `SettingKind`, `setting-kinds.ts`).
 */
export type DeliveryCall = { url: string; delivered: boolean; tries: DeliveryTry[] } & (
  | { kind: 'upload'; file: string; fields: UploadFields }
  | { kind: 'webhook'; status: Status; job: NotifiedJob }
);

/** The category fields of an upload delivery (the contract's `transcoderUpload`), besides requestId, videoId and file. */
export type UploadFields =
  | { thumbnail: true }
  | { vod: false }
  | { vod: true; resolution: string; path: string }
  | { vod: true; playlist: true; path: string }
  | { vod: true; downloadable: true };

type JobState = 'queued' | 'running' | 'complete' | 'rejected';

/**
 * A conversion job as the admin API lists it (`GET /__admin/jobs`).
 *
 * @example
 * const jobs: JobRecord[] = (await (await engine.fetch(new Request('http://local/__admin/jobs', { headers: masterKeyHeaders }))).json()).jobs;
 * jobs.filter((job) => job.state === 'rejected').map((job) => job.reason);
 */
export interface JobRecord {
  queueId: string;
  requestId: string;
  videoId: string;
  /** Who submitted it; absent for the master token. */
  userId?: string;
  url: string;
  state: JobState;
  /** Why the job was rejected, as the webhook told the caller. */
  reason?: string;
  /** What happened, in the server's words (only in this master-only view): which address failed and how. */
  detail?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** Upload deliveries that arrived, that failed after every try, and the retries they took. */
  deliveries: { delivered: number; failed: number; retries: number };
  /** Webhook notifications sent, with the tries each took. */
  notifications: { status: Status; job: NotifiedJob; attempts: number; delivered: boolean }[];
  lastDeliveryError?: string;
  /** The settings records the job uses, by kind, as they were at submission. */
  settings: Partial<Record<SettingKind, SettingRecord>>;
  /** Each upload delivery and webhook notification with its tries and answers (the first `MAX_LISTED_CALLS`). */
  calls: DeliveryCall[];
  /** The commands the converter ran (ffmpeg's, on Node), with their output and when they ended (server clock). */
  log: (ConverterRun & { endedAt: string })[];
}
