import { unrecordedBytes } from '../../shared/ids.js';
import type { Project } from '../../shared/project.js';
import { Deliveries, type Upload } from './deliveries.js';
import type { NotifiedJob, JobRecord, Status } from './job-record.js';
import { masterPlaylist, playlistAddress } from './playlist.js';
import { download, outboundLimits, type OutboundLimits } from './outbound.js';
import {
  UnreadableSource,
  type Conversion,
  type ConvertPlan,
  type OpenedSource,
  type ProducedFile,
  type Rendition,
  type TranscodeRunner,
  type WatermarkLocation,
} from '../../shared/transcoder-capability.js';
import type { SettingRecord } from './setting-kinds.js';
import type { TranscoderPolicy } from './state.js';
import { hms, thumbnailMoments } from './thumbnails.js';
import { parseBitrate, parseResolution } from './units.js';

/** One queued request: its record and the settings it referenced, copied at submission. */
export interface JobSpec {
  record: JobRecord;
  upload: SettingRecord;
  webhook?: SettingRecord;
  thumbnail?: SettingRecord;
  watermark?: SettingRecord;
  preset?: SettingRecord;
}

/** HLS segment length: short enough for quick quality switches, long enough to keep requests few. */
const SEGMENT_SECONDS = 2;

/** Ends a job as REJECTED: `message` is the reason the caller is told, `detail` what the admin job view adds. */
class Rejection extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

interface Notification {
  status: Status;
  job: NotifiedJob;
  payload: Record<string, unknown>;
}

/** Everything one running job works with. */
interface Run {
  project: Project;
  spec: JobSpec;
  deliveries: Deliveries;
  source: OpenedSource;
  signal: AbortSignal;
}

/**
 * The reason a caller is told when a source or watermark cannot be used: the same words whether the address is
 * unreachable, refused, answered 403, was too slow or too long, or sent something else, so that jobs cannot probe
 * which addresses answer (a port scan). What happened goes to the admin job view only.
 */
function unusable(
  what: string,
  content: string,
  maxBytes: number,
  { firstByteTimeoutMs, transferTimeoutMs }: OutboundLimits,
): string {
  return `the ${what} could not be used: its address must answer 2xx within ${firstByteTimeoutMs} ms and send ${content} of at most ${maxBytes} bytes within ${transferTimeoutMs} ms`;
}

async function openSource(
  project: Project,
  runner: TranscodeRunner,
  record: JobRecord,
  signal: AbortSignal,
): Promise<OpenedSource> {
  const limits = outboundLimits(project.config);
  const maxBytes = project.config.transcoderMaxSourceBytes;
  try {
    const source = await download(project.capabilities.fetch, record.url, maxBytes, limits, signal);
    return await runner.open(source, signal, (run) => record.log.push({ ...run, endedAt: project.clock.iso() }));
  } catch (error) {
    if (signal.aborted) throw error;
    const detail =
      error instanceof UnreadableSource ? `not a readable video: ${error.message}` : (error as Error).message;
    throw new Rejection(unusable('source', 'a readable video', maxBytes, limits), detail);
  }
}

function undelivered(failed: number): string {
  return `${failed} upload deliveries failed: the upload address did not accept them`;
}

/** Makes the thumbnails of `times`: alone, or with the renditions of a conversion (one decode for both). */
type MakeThumbnails = (times: number[]) => Promise<ProducedFile[]>;

/** Makes (with `make`) and delivers the thumbnails (category 1): COMPLETE, or THUMBNAIL_REJECTED without stopping the job. */
async function thumbnails({ spec, source, deliveries, signal }: Run, make: MakeThumbnails): Promise<Notification> {
  const { videoId } = spec.record;
  const rejected = (reason: string): Notification => ({
    status: 'THUMBNAIL_REJECTED',
    job: 'thumbnail',
    payload: { videoId, reason },
  });
  const times = thumbnailMoments(spec.thumbnail!, source.durationSeconds);
  const late = times.filter((t) => t >= source.durationSeconds);
  if (late.length > 0)
    return rejected(
      `moments past the end of the video (${source.durationSeconds.toFixed(2)} s): ${late.map(hms).join(', ')}`,
    );
  let files;
  try {
    files = await make(times);
  } catch (error) {
    if (signal.aborted) throw error;
    return rejected(`thumbnails failed: ${(error as Error).message}`);
  }
  const failed = await deliveries.files(
    [files.map((file) => ({ fields: { thumbnail: true }, file: { ...file, name: `thumbnail-${file.name}` } }))],
    signal,
  );
  if (failed > 0) return rejected(undelivered(failed));
  return { status: 'COMPLETE', job: 'thumbnail', payload: { videoId, count: files.length } };
}

/** Makes and delivers the thumbnails the job asks for, if any, and notifies the webhook of them. */
async function notifyThumbnails(run: Run, make: MakeThumbnails): Promise<void> {
  if (!run.spec.thumbnail) return;
  const { status, job, payload } = await thumbnails(run, make);
  await run.deliveries.notify(status, job, payload);
}

async function watermarkOf({ project, spec, signal }: Run): Promise<ConvertPlan['watermark']> {
  const w = spec.watermark;
  if (!w) return undefined;
  const limits = outboundLimits(project.config);
  const maxBytes = project.config.transcoderMaxWatermarkBytes;
  let image: Blob;
  try {
    image = await new Response(
      await download(project.capabilities.fetch, w['url'] as string, maxBytes, limits, signal),
    ).blob();
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Rejection(unusable('watermark image', 'an image', maxBytes, limits), (error as Error).message);
  }
  return {
    image,
    location: w['location'] as WatermarkLocation,
    paddingX: (w['paddingX'] as number | undefined) ?? 0,
    paddingY: (w['paddingY'] as number | undefined) ?? 0,
  };
}

/** What ffmpeg (or the simulation) is asked to do for a preset. */
function convertPlan(preset: SettingRecord): ConvertPlan {
  const plan: ConvertPlan = {
    outputs: (preset['outputs'] as Record<string, string>[]).map((o) => ({
      videoBitrate: parseBitrate(o['videoBitrate']!),
      audioBitrate: parseBitrate(o['audioBitrate']!),
      ...parseResolution(o['resolution']!),
    })),
    speed: (preset['speed'] as string | undefined) ?? 'medium',
    videoEncoder: (preset['videoEncoder'] as 'x264' | 'x265' | undefined) ?? 'x264',
    audioEncoder: 'aac',
    profile: preset['profile'] as string | undefined,
    rawParameters: (preset['rawParameters'] as Record<string, string> | undefined) ?? {},
  };
  if (preset['vod'] === true)
    plan.hls = {
      segmentSeconds: SEGMENT_SECONDS,
      key: preset['encrypt'] === true ? unrecordedBytes(16) : undefined,
    };
  return plan;
}

/**
 * The files of a conversion as deliveries, in batches sent one after the other: converted files (category 2); or
 * the qualities' segments and keys, their playlists, the master playlist and the downloadable files (3, 3, 4, 5).
 */
function conversionUploads(
  videoId: string,
  preset: SettingRecord,
  renditions: Rendition[],
  bandwidths: number[],
): Upload[][] {
  if (preset['vod'] !== true) {
    return [
      renditions.map((r, i) => ({
        fields: { vod: false },
        file: { ...r.file, name: `output-${i + 1}-${r.width}x${r.height}.mp4` },
      })),
    ];
  }
  const chunks = renditions.flatMap((r) =>
    (r.hls ?? []).map(
      (file): Upload => ({
        fields: { vod: true, resolution: String(r.height), path: `${videoId}/${r.height}/${file.name}` },
        file,
      }),
    ),
  );
  const isPlaylist = (u: Upload) => u.file.name === 'playlist.m3u8';
  const base = preset['vodPlaylistBaseUrl'] as string | undefined;
  const master = masterPlaylist(
    renditions.map((r, i) => ({
      ...r,
      bandwidth: bandwidths[i]!,
      address: playlistAddress(`${videoId}/${r.height}/playlist.m3u8`, videoId, base),
    })),
  );
  return [
    chunks.filter((u) => !isPlaylist(u)),
    chunks.filter(isPlaylist),
    [
      {
        fields: { vod: true, playlist: true, path: `${videoId}/playlist.m3u8` },
        file: { name: 'playlist.m3u8', data: new Blob([master]) },
      },
    ],
    renditions.map((r) => ({
      fields: { vod: true, downloadable: true },
      file: { ...r.file, name: `${r.height}p.mp4` },
    })),
  ];
}

/** The plan of the job's preset, its watermark fetched; REJECTED when its outputs would take too much disk. */
async function conversionPlan(run: Run): Promise<ConvertPlan> {
  const plan = convertPlan(run.spec.preset!);
  const bandwidths = plan.outputs.map((o) => o.videoBitrate + o.audioBitrate);
  // Bitrates are capped (-maxrate), so this bounds the disk a job takes: MP4s, and HLS cut from them for VOD.
  const seconds = run.source.durationSeconds;
  const expectedBytes = Math.ceil((bandwidths.reduce((a, b) => a + b, 0) / 8) * seconds * (plan.hls ? 2 : 1));
  const maxBytes = run.project.config.transcoderMaxOutputBytes;
  if (expectedBytes > maxBytes) {
    throw new Rejection(
      `the outputs of this ${seconds.toFixed(1)} s video would take about ${expectedBytes} bytes, more than the limit of ${maxBytes} (lower the bitrates or the number of outputs)`,
    );
  }
  plan.watermark = await watermarkOf(run);
  return plan;
}

/**
 * Converts every output and makes the thumbnails in the same decode, delivers the thumbnails (and notifies), then
 * the converted files, and says how the conversion went. Should the one command fail, thumbnails and conversion run
 * apart, so that each gets its own verdict, as when they always ran apart.
 */
async function convert(run: Run): Promise<Notification> {
  const { spec, source, deliveries, signal } = run;
  const { videoId } = spec.record;
  const preset = spec.preset!;
  const alone: MakeThumbnails = (times) => source.thumbnails(times);
  let plan: ConvertPlan;
  try {
    plan = await conversionPlan(run);
  } catch (error) {
    await notifyThumbnails(run, alone);
    throw error;
  }
  let conversion: Conversion | undefined;
  await notifyThumbnails(run, async (times) => {
    try {
      conversion = await source.convert({ ...plan, thumbnails: times });
      return conversion.thumbnails;
    } catch (error) {
      if (signal.aborted) throw error;
      return alone(times);
    }
  });
  const { renditions } = conversion ?? (await source.convert(plan));
  const bandwidths = plan.outputs.map((o) => o.videoBitrate + o.audioBitrate);
  const failed = await deliveries.files(conversionUploads(videoId, preset, renditions, bandwidths), signal);
  if (failed > 0) return { status: 'REJECTED', job: 'convert', payload: { videoId, reason: undelivered(failed) } };
  const qualities = renditions.map((r, i) => ({ resolution: `${r.width}x${r.height}`, bandwidth: bandwidths[i]! }));
  const payload: Record<string, unknown> = { videoId, vod: plan.hls !== undefined, qualities };
  if (plan.hls) payload['playlist'] = `${videoId}/playlist.m3u8`;
  return { status: 'COMPLETE', job: 'convert', payload };
}

/**
 * Runs one job: fetches the source, makes thumbnails, converts, delivers every file and notifies the webhook.
 * Never throws: whatever goes wrong ends the job REJECTED with a reason, and the runner's files are removed before
 * the last notification goes out.
 */
export async function runJob(
  project: Project,
  runner: TranscodeRunner,
  policy: TranscoderPolicy,
  spec: JobSpec,
): Promise<void> {
  const { record } = spec;
  record.state = 'running';
  record.startedAt = project.clock.iso();
  const deliveries = new Deliveries({
    fetch: project.capabilities.fetch,
    policy,
    limits: outboundLimits(project.config),
    record,
    upload: spec.upload,
    webhook: spec.webhook,
    now: () => project.clock.iso(),
  });
  const signal = AbortSignal.timeout(policy.timeLimitMs);
  const job: NotifiedJob = spec.preset ? 'convert' : 'thumbnail';
  let last: Notification;
  let source: OpenedSource | undefined;
  try {
    source = await openSource(project, runner, record, signal);
    const run: Run = { project, spec, deliveries, source, signal };
    last = spec.preset ? await convert(run) : await thumbnails(run, (times) => run.source.thumbnails(times));
  } catch (error) {
    const reason = signal.aborted
      ? `the job took longer than its time limit of ${policy.timeLimitMs} ms`
      : (error as Error).message;
    if (error instanceof Rejection && error.detail) record.detail = error.detail;
    last = { status: 'REJECTED', job, payload: { videoId: record.videoId, reason } };
  } finally {
    await source?.close();
  }
  record.state = last.status === 'COMPLETE' ? 'complete' : 'rejected';
  if (last.status !== 'COMPLETE') record.reason = last.payload['reason'] as string;
  await deliveries.notify(last.status, last.job, last.payload);
  record.finishedAt = project.clock.iso();
}
