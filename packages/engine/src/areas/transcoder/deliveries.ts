import type { JobRecord } from './jobs.js';
import { send, type OutboundLimits } from './outbound.js';
import type { ProducedFile } from './runner.js';
import type { SettingRecord } from './settings.js';
import type { TranscoderPolicy } from './state.js';

/** Webhook statuses of spec 6.1. */
export type Status = 'REJECTED' | 'THUMBNAIL_REJECTED' | 'COMPLETE';
/** Which part of a request a notification is about. */
export type JobKind = 'convert' | 'thumbnail';

/** Files of one batch sent at the same time, at most (a job's uploads overlap their round trips). */
const PARALLEL_UPLOADS = 4;

/** The category fields of an upload delivery (spec 6.2), besides requestId, videoId and file. */
export type UploadFields =
  | { thumbnail: true }
  | { vod: false }
  | { vod: true; resolution: string; path: string }
  | { vod: true; playlist: true; path: string }
  | { vod: true; downloadable: true };

/** One file to deliver with its category fields. */
export interface Upload {
  fields: UploadFields;
  file: ProducedFile;
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  mp4: 'video/mp4',
  ts: 'video/mp2t',
  m3u8: 'application/vnd.apple.mpegurl',
  key: 'application/octet-stream',
};

function contentType(name: string): string {
  return CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/**
 * Sends one job's results: files as multipart POSTs to the upload setting's url (with its headers) and
 * notifications as JSON POSTs to the webhook setting's url, each try within the outbound time limits. A network
 * error, a limit run out or a non-2xx answer is retried after `retryDelayMs`, doubled each time, up to
 * `deliveryAttempts` tries; the outcome is counted on the job record.
 */
export class Deliveries {
  constructor(
    private readonly fetch: typeof globalThis.fetch,
    private readonly policy: TranscoderPolicy,
    private readonly limits: OutboundLimits,
    private readonly record: JobRecord,
    private readonly upload: SettingRecord,
    private readonly webhook?: SettingRecord,
  ) {}

  /**
   * Delivers batches one after the other, so that a file arrives only after those it names (a playlist after its
   * segments); the files of a batch go a few at a time. `signal` (the job's time limit) stops the tries.
   * Answers how many files failed every try.
   */
  async files(batches: Upload[][], signal: AbortSignal): Promise<number> {
    let failed = 0;
    for (const batch of batches) {
      const queue = [...batch];
      const worker = async () => {
        for (let next = queue.shift(); next; next = queue.shift()) if (!(await this.#file(next, signal))) failed++;
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, queue.length) }, worker));
    }
    return failed;
  }

  async #file({ fields, file }: Upload, signal: AbortSignal): Promise<boolean> {
    const { requestId, videoId, deliveries } = this.record;
    const body = () => {
      const form = new FormData();
      form.set('requestId', requestId);
      form.set('videoId', videoId);
      for (const [key, value] of Object.entries(fields)) form.set(key, String(value));
      form.set('file', new Blob([file.data], { type: contentType(file.name) }), file.name);
      return form;
    };
    const { delivered, attempts } = await this.#send(this.upload['url'] as string, () => ({ method: 'POST', headers: this.upload['headers'] as Record<string, string> | undefined, body: body() }), signal);
    deliveries.retries += attempts - 1;
    if (delivered) deliveries.delivered++;
    else deliveries.failed++;
    return delivered;
  }

  /** Notifies the webhook, when the request named one. Never cut short: it reports how the job ended. */
  async notify(status: Status, job: JobKind, payload: Record<string, unknown>): Promise<void> {
    if (!this.webhook) return;
    const { queueId, requestId } = this.record;
    const init = (retry: number): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ queueId, requestId, status, job, payload, retry: String(retry) }),
    });
    const { delivered, attempts } = await this.#send(this.webhook['url'] as string, init);
    this.record.notifications.push({ status, job, attempts, delivered });
  }

  async #send(url: string, init: (retry: number) => RequestInit, signal?: AbortSignal): Promise<{ delivered: boolean; attempts: number }> {
    let attempts = 0;
    while (attempts < this.policy.deliveryAttempts) {
      if (attempts > 0) await sleep(this.policy.retryDelayMs * 2 ** (attempts - 1), signal);
      attempts++;
      try {
        const status = await send(this.fetch, url, init(attempts - 1), this.limits, signal);
        if (status >= 200 && status < 300) return { delivered: true, attempts };
        this.record.lastDeliveryError = `${url} answered ${status}`;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        this.record.lastDeliveryError = (error as Error).message;
      }
    }
    return { delivered: false, attempts };
  }
}
