import { ApiError, ErrorCode } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import type { Moment } from '../../shared/moment.js';
import type { Project } from '../../shared/project.js';
import { httpUrl, invalid, object, type Check } from './fields.js';
import { runJob, type JobSpec } from './pipeline.js';
import type { JobRecord } from './job-record.js';
import type { SettingKind, SettingRecord } from './setting-kinds.js';
import { validateSetting } from './setting-checks.js';
import { simulatedRunner } from './simulated-runner.js';
import { JobQueue, MASTER_OWNER } from './queue.js';
import { transcoderState, type TranscoderState } from './state.js';
import { booksFor, type SettingsOwner } from './setting-books.js';

/** A reference to a settings record: its name, `true` for the kind's default, `false` (or absent) for none. */
const reference: Check<string | boolean> = (value, field) => {
  if (typeof value === 'boolean' || (typeof value === 'string' && value !== '')) return value;
  throw invalid(field, 'must be the name of a stored setting, or true for the default one');
};

const convertRequest = object(
  {
    url: httpUrl,
    preset: reference,
    upload: reference,
    webhook: reference,
    thumbnail: reference,
    watermark: reference,
  },
  ['url', 'upload'],
);

/** A reference resolved among the caller's settings, then (for users) the project's; 400 (700) when none fits. */
function resolve(
  state: TranscoderState,
  owner: SettingsOwner,
  kind: SettingKind,
  ref: unknown,
): SettingRecord | undefined {
  if (ref === undefined || ref === false) return undefined;
  const find = (records: Map<string, SettingRecord>) =>
    ref === true ? [...records.values()].find((r) => r.default) : records.get(ref as string);
  const record = booksFor(state, owner)
    .map((book) => find(book[kind]))
    .find(Boolean);
  if (!record) {
    const missing =
      ref === true ? `there is no default ${kind} setting` : `there is no ${kind} setting named "${String(ref)}"`;
    throw new ApiError(400, ErrorCode.UNKNOWN_SETTING, `"${kind}": ${missing}`);
  }
  // Checked again: a record may have come in through a state import. Validation also copies it, so later changes
  // to the stored record do not reach a queued job.
  return validateSetting(kind, record);
}

/** Drops the oldest finished jobs past `keep`, so that the job list cannot grow without end. */
function forgetOldJobs(jobs: Map<string, JobRecord>, keep: number): void {
  let finished = [...jobs.values()].filter((j) => j.finishedAt !== undefined).length;
  for (const [queueId, job] of jobs) {
    if (finished <= keep) break;
    if (job.finishedAt === undefined) continue;
    jobs.delete(queueId);
    finished--;
  }
}

/**
 * `POST /video/convert`: checks the request and every reference, then queues the job (the contract's `convertVideo`).
 * The settings are copied at submission, so later changes do not affect a queued job. A user may have at most
 * `transcoderMaxQueuedJobsPerUser` jobs waiting (400, 703).
 */
export function submitConvert(project: Project, moment: Moment, owner: SettingsOwner, body: unknown): JobRecord {
  const capability = project.capabilities.transcoder;
  if (capability && 'unavailable' in capability)
    throw new ApiError(503, ErrorCode.TRANSCODER_UNAVAILABLE, capability.unavailable);
  const request = convertRequest(body, '');
  const state = project.state(transcoderState);
  const upload = resolve(state, owner, 'upload', request['upload']);
  const spec: Omit<JobSpec, 'record' | 'upload'> = {
    webhook: resolve(state, owner, 'webhook', request['webhook']),
    thumbnail: resolve(state, owner, 'thumbnail', request['thumbnail']),
    watermark: resolve(state, owner, 'watermark', request['watermark']),
    preset: resolve(state, owner, 'preset', request['preset']),
  };
  if (!upload) throw invalid('upload', 'is required: results are delivered there');
  if (!spec.preset && !spec.thumbnail) throw invalid('preset', 'or "thumbnail" is required: there is nothing to do');
  if (spec.watermark && !spec.preset)
    throw invalid('watermark', 'needs "preset": a watermark is drawn on converted video');
  const queueOwner = owner ?? MASTER_OWNER;
  const queue = (state.queue ??= new JobQueue(() => state.policy));
  const maxWaiting = project.config.transcoderMaxQueuedJobsPerUser;
  if (owner !== undefined && queue.waiting(queueOwner) >= maxWaiting) {
    throw new ApiError(
      400,
      ErrorCode.TOO_MANY_JOBS,
      `you have ${maxWaiting} jobs waiting to start (transcoderMaxQueuedJobsPerUser); send more once they have started`,
    );
  }
  const record: JobRecord = {
    queueId: newId(moment, 16),
    requestId: newId(moment, 16),
    videoId: newId(moment, 16),
    ...(owner !== undefined && { userId: owner }),
    url: request['url'] as string,
    state: 'queued',
    createdAt: moment.iso(),
    deliveries: { delivered: 0, failed: 0, retries: 0 },
    notifications: [],
    settings: Object.fromEntries(Object.entries({ upload, ...spec }).filter(([, record]) => record)),
    calls: [],
    log: [],
  };
  forgetOldJobs(state.jobs, project.config.transcoderJobHistory);
  state.jobs.set(record.queueId, record);
  const runner = capability?.runner ?? simulatedRunner;
  // A request replayed from the journal at start-up only rebuilds the record: its job ran (or was cut short) before.
  if (!project.restoring)
    queue.push(queueOwner, () =>
      runJob(project, runner, state.policy, { ...spec, upload, record }).finally(() =>
        project.backgroundChange(transcoderState),
      ),
    );
  return record;
}
