import { ApiError, ErrorCode } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Project } from '../../shared/project.js';
import type { JobKind, Status } from './deliveries.js';
import { httpUrl, invalid, object, type Check } from './fields.js';
import { runJob, type JobSpec } from './pipeline.js';
import { validateSetting, type Kind, type SettingRecord } from './settings.js';
import { simulatedRunner } from './simulated.js';
import { transcoderState } from './state.js';

export type JobState = 'queued' | 'running' | 'complete' | 'rejected';

/** A conversion job as the admin API lists it (`GET /__admin/jobs`). */
export interface JobRecord {
  queueId: string;
  requestId: string;
  videoId: string;
  url: string;
  state: JobState;
  /** Why the job was rejected. */
  reason?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** Upload deliveries that arrived, that failed after every try, and the retries they took. */
  deliveries: { delivered: number; failed: number; retries: number };
  /** Webhook notifications sent, with the tries each took. */
  notifications: { status: Status; job: JobKind; attempts: number; delivered: boolean }[];
  lastDeliveryError?: string;
}

/** A reference to a settings record: its name, `true` for the kind's default, `false` (or absent) for none. */
const reference: Check<string | boolean> = (value, field) => {
  if (typeof value === 'boolean' || (typeof value === 'string' && value !== '')) return value;
  throw invalid(field, 'must be the name of a stored setting, or true for the default one');
};

const convertRequest = object({ url: httpUrl, preset: reference, upload: reference, webhook: reference, thumbnail: reference, watermark: reference }, ['url', 'upload']);

function resolve(project: Project, kind: Kind, ref: unknown): SettingRecord | undefined {
  if (ref === undefined || ref === false) return undefined;
  const records = project.state(transcoderState).settings[kind];
  const record = ref === true ? [...records.values()].find((r) => r.default) : records.get(ref as string);
  if (!record) {
    const missing = ref === true ? `there is no default ${kind} setting` : `there is no ${kind} setting named "${String(ref)}"`;
    throw new ApiError(400, ErrorCode.UNKNOWN_SETTING, `"${kind}": ${missing}`);
  }
  // Checked again: a record may have come in through a state import. Validation also copies it, so later changes
  // to the stored record do not reach a queued job.
  return validateSetting(kind, record);
}

/**
 * `POST /video/convert`: checks the request and every reference, then queues the job (spec 4.7 #6).
 * The settings are copied at submission, so later changes do not affect a queued job.
 */
export function submitConvert(project: Project, body: unknown): JobRecord {
  const capability = project.capabilities.transcoder;
  if (capability && 'unavailable' in capability) throw new ApiError(503, ErrorCode.TRANSCODER_UNAVAILABLE, capability.unavailable);
  const request = convertRequest(body, '');
  const upload = resolve(project, 'upload', request['upload']);
  const spec: Omit<JobSpec, 'record' | 'upload'> = {
    webhook: resolve(project, 'webhook', request['webhook']),
    thumbnail: resolve(project, 'thumbnail', request['thumbnail']),
    watermark: resolve(project, 'watermark', request['watermark']),
    preset: resolve(project, 'preset', request['preset']),
  };
  if (!upload) throw invalid('upload', 'is required: results are delivered there');
  if (!spec.preset && !spec.thumbnail) throw invalid('preset', 'or "thumbnail" is required: there is nothing to do');
  if (spec.watermark && !spec.preset) throw invalid('watermark', 'needs "preset": a watermark is drawn on converted video');
  const record: JobRecord = {
    queueId: newId(16),
    requestId: newId(16),
    videoId: newId(16),
    url: request['url'] as string,
    state: 'queued',
    createdAt: project.clock.iso(),
    deliveries: { delivered: 0, failed: 0, retries: 0 },
    notifications: [],
  };
  const state = project.state(transcoderState);
  state.jobs.set(record.queueId, record);
  const runner = capability?.runner ?? simulatedRunner;
  state.queue.push(() => runJob(project, runner, state.policy, { ...spec, upload, record }));
  return record;
}
