// The transcoder calls of the Transcoder page: the admin API's job and settings views (master key) and the
// service's own settings and convert operations (spec 4.7) with the master token, which act for the project.
import type { JobRecord } from '@basekit/engine';
import { admin, jsonBody, service } from '../../api.js';

export type { JobRecord };
export type DeliveryCall = JobRecord['calls'][number];

/** The five kinds of settings record (spec 2.8), in the order of the service's operations. */
export const KINDS = ['thumbnail', 'webhook', 'upload', 'watermark', 'preset'] as const;
export type Kind = (typeof KINDS)[number];

/** A stored settings record: `name`, `default` and the kind's fields. */
export type SettingRecord = { name: string; default: boolean } & Record<string, unknown>;
type Book = Record<Kind, SettingRecord[]>;

/** Every stored record: the project's (saved with the master token) and each user's own, by user id. */
export interface AllSettings {
  settings: Book;
  userSettings: Record<string, Book>;
}

export const listSettings = () => admin<AllSettings>('/__admin/transcoder/settings');

export async function listJobs(): Promise<JobRecord[]> {
  return (await admin<{ jobs: JobRecord[] }>('/__admin/jobs')).jobs;
}

/** Saves a record among the project's (a name that exists is replaced); answers the stored record. */
export function saveSetting(kind: Kind, record: unknown): Promise<SettingRecord> {
  return service<SettingRecord>(`/metadata/${kind}`, jsonBody('POST', record));
}

/** A reference to a settings record in a convert request: a name, `true` for the kind's default, or none. */
export type Reference = string | true | undefined;

/** Queues a conversion for the project (spec 4.7 #6). */
export function convert(
  url: string,
  references: Partial<Record<Kind, Reference>>,
): Promise<{ requestId: string; videoId: string }> {
  return service('/video/convert', jsonBody('POST', { url, ...references }));
}

/** A job is over once it is complete or rejected. */
export const finished = (job: JobRecord) => job.state === 'complete' || job.state === 'rejected';
