// The transcoder calls of the Transcoder page: the admin API's job and settings views (master key) and the
// service's own settings and convert operations (openapi/areas/transcoder.yaml) with the master token, which act for the project.
import type { components } from '@basekit/sdk';
import type { TranscoderJob, TranscoderSettings } from '@basekit/sdk/admin';
import { admin, dataOf, service } from '../../api.js';

/** A convert job as the admin API lists it. */
export type JobRecord = TranscoderJob;
export type DeliveryCall = JobRecord['calls'][number];

/** The five kinds of settings record (openapi/areas/transcoder.yaml), in the order of the service's operations. */
export const KINDS = ['thumbnail', 'webhook', 'upload', 'watermark', 'preset'] as const;
export type Kind = (typeof KINDS)[number];

/** Every stored record: the project's (saved with the master token) and each user's own, by user id. */
export type AllSettings = TranscoderSettings;
/** A stored settings record: `name`, `default` and the kind's fields. */
export type SettingRecord = AllSettings['settings'][Kind][number];

export const listSettings = () => admin().transcoder.settings();

export const listJobs = () => admin().transcoder.jobs();

/**
 * Saves a record among the project's (a name that exists is replaced); answers the stored record. Each kind is an
 * operation of its own (the contract's `saveThumbnailSettings` and the four beside it) of the same shape: the record is checked by the service, not here.
 */
export async function saveSetting(kind: Kind, record: unknown): Promise<SettingRecord> {
  return dataOf(service().POST(`/metadata/${kind}` as '/metadata/preset', { body: record as never }));
}

/** A reference to a settings record in a convert request: a name, `true` for the kind's default, or none. */
export type Reference = string | true | undefined;

/** Queues a conversion for the project (the contract's `convertVideo`). */
export function convert(
  url: string,
  references: Partial<Record<Kind, Reference>>,
): Promise<{ requestId: string; videoId: string }> {
  // The form may leave `upload` out: the service then says what is missing (400).
  const body = { url, ...references } as components['schemas']['TranscoderConvertRequest'];
  return dataOf(service().POST('/video/convert', { body }));
}

/** A job is over once it is complete or rejected. */
export const finished = (job: JobRecord) => job.state === 'complete' || job.state === 'rejected';
