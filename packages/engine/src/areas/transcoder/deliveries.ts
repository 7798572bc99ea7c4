import { stopwatch } from '../../shared/clock.js';
import { unrecordedBytes } from '../../shared/ids.js';
import type { DeliveryCall, DeliveryTry, NotifiedJob, JobRecord, Status, UploadFields } from './job-record.js';
import { send, type OutboundLimits } from './outbound.js';
import type { ProducedFile } from '../../shared/transcoder-capability.js';
import type { SettingRecord } from './setting-kinds.js';
import type { TranscoderPolicy } from './state.js';

/** Files of one batch sent at the same time, at most (a job's uploads overlap their round trips). */
const PARALLEL_UPLOADS = 4;

/**
 * Calls one job record lists with their tries; the counters cover the rest. A VOD job sends one call per HLS
 * segment, so a long video would otherwise keep thousands in the job history.
 */
const MAX_LISTED_CALLS = 200;

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

/** A part's name or file name inside its quoted header value, escaped as browsers do (`"` and line breaks). */
const quoted = (text: string) => text.replaceAll('"', '%22').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/**
 * A delivery's multipart body: its fields, then the file (last, as the contract's `transcoderUpload` lists it).
 * Built as one Blob around the file's own Blob (read from disk as it is sent), not through FormData, whose
 * serialisation streams the parts through more layers (about a third more CPU and garbage per delivery).
 * The boundary is 24 random bytes in hex: it cannot be told from the file's bytes in advance.
 */
function multipart(fields: Record<string, unknown>, file: ProducedFile): { body: Blob; type: string } {
  const boundary = `basekit-${[...unrecordedBytes(24)].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const head = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${String(value)}\r\n`,
    )
    .join('');
  const fileHead = `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${quoted(file.name)}"\r\ncontent-type: ${contentType(file.name)}\r\n\r\n`;
  return {
    body: new Blob([head, fileHead, file.data, `\r\n--${boundary}--\r\n`]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/** What one job's deliveries go by. */
interface DeliveriesOptions {
  /** The platform's outbound fetch (`project.capabilities.fetch`). */
  fetch: typeof globalThis.fetch;
  /** Tries and the delay between them. */
  policy: TranscoderPolicy;
  /** Each try's time limits. */
  limits: OutboundLimits;
  /** The job record the calls and their outcome are counted on. */
  record: JobRecord;
  /** The upload setting: where the files go. */
  upload: SettingRecord;
  /** The webhook setting, when the job notifies one. */
  webhook: SettingRecord | undefined;
  /** The server clock's time, for the tries' timestamps. */
  now: () => string;
}

/**
 * Sends one job's results: files as multipart POSTs to the upload setting's url (with its headers) and
 * notifications as JSON POSTs to the webhook setting's url, each try within the outbound time limits. A network
 * error, a limit run out or a non-2xx answer is retried after `retryDelayMs`, doubled each time, up to
 * `deliveryAttempts` tries; the outcome is counted on the job record.
 */
export class Deliveries {
  private readonly fetch: typeof globalThis.fetch;
  private readonly policy: TranscoderPolicy;
  private readonly limits: OutboundLimits;
  private readonly record: JobRecord;
  private readonly upload: SettingRecord;
  private readonly webhook: SettingRecord | undefined;
  private readonly now: () => string;

  constructor({ fetch, policy, limits, record, upload, webhook, now }: DeliveriesOptions) {
    this.fetch = fetch;
    this.policy = policy;
    this.limits = limits;
    this.record = record;
    this.upload = upload;
    this.webhook = webhook;
    this.now = now;
  }

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
    const { body, type } = multipart({ requestId, videoId, ...fields }, file);
    const url = this.upload['url'] as string;
    const call = this.#list({ kind: 'upload', url, file: file.name, fields, delivered: false, tries: [] });
    const { delivered, attempts } = await this.#send(
      call,
      () => ({
        method: 'POST',
        headers: { ...(this.upload['headers'] as Record<string, string> | undefined), 'content-type': type },
        body,
      }),
      signal,
    );
    deliveries.retries += attempts - 1;
    if (delivered) deliveries.delivered++;
    else deliveries.failed++;
    return delivered;
  }

  /** Notifies the webhook, when the request named one. Never cut short: it reports how the job ended. */
  async notify(status: Status, job: NotifiedJob, payload: Record<string, unknown>): Promise<void> {
    if (!this.webhook) return;
    const { queueId, requestId } = this.record;
    const init = (retry: number): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ queueId, requestId, status, job, payload, retry: String(retry) }),
    });
    const call = this.#list({
      kind: 'webhook',
      url: this.webhook['url'] as string,
      status,
      job,
      delivered: false,
      tries: [],
    });
    const { delivered, attempts } = await this.#send(call, init);
    this.record.notifications.push({ status, job, attempts, delivered });
  }

  /** Adds a call to the job record while it has room; the call is filled in as its tries go. */
  #list(call: DeliveryCall): DeliveryCall {
    if (this.record.calls.length < MAX_LISTED_CALLS) this.record.calls.push(call);
    return call;
  }

  async #send(
    call: DeliveryCall,
    init: (retry: number) => RequestInit,
    signal?: AbortSignal,
  ): Promise<{ delivered: boolean; attempts: number }> {
    const { url } = call;
    let attempts = 0;
    while (attempts < this.policy.deliveryAttempts) {
      if (attempts > 0) await sleep(this.policy.retryDelayMs * 2 ** (attempts - 1), signal);
      attempts++;
      const elapsed = stopwatch();
      const attempt: DeliveryTry = { at: this.now(), ms: 0 };
      call.tries.push(attempt);
      try {
        const status = await send(this.fetch, url, init(attempts - 1), this.limits, signal);
        attempt.status = status;
        if (status >= 200 && status < 300) {
          call.delivered = true;
          return { delivered: true, attempts };
        }
        this.record.lastDeliveryError = `${url} answered ${status}`;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        attempt.error = this.record.lastDeliveryError = (error as Error).message;
      } finally {
        attempt.ms = elapsed();
      }
    }
    return { delivered: false, attempts };
  }
}
