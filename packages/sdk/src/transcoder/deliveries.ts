/**
 * The receiving side of the transcoder (docs/transcoder.md#3-receive): the webhook notification it posts on status changes, the five
 * kinds of upload delivery it posts with the results, and a small receiver that stores each delivered file where
 * it belongs, so that the master playlist of a VOD conversion resolves.
 *
 * Platform-neutral: it works on web `Request`/`Response` (Node 18+, Deno, Bun, service workers, edge runtimes).
 */

/**
 * Status values of a webhook notification (the contract's `transcoderNotification`).
 *
 * @example
 * const note = await parseNotification(request);
 * const status: TranscoderStatus = note.status; // 'REJECTED' | 'THUMBNAIL_REJECTED' | 'COMPLETE'
 */
export type TranscoderStatus = 'REJECTED' | 'THUMBNAIL_REJECTED' | 'COMPLETE';

/**
 * What a notification's `payload` carries.
 *
 * @example
 * const { payload } = await parseNotification(request);
 * console.log(payload.playlist);
 */
export interface TranscoderNotificationPayload {
  videoId: string;
  /** Why the job or its thumbnails were rejected. */
  reason?: string;
  /** Thumbnails delivered (thumbnail job, COMPLETE). */
  count?: number;
  /** Convert job, COMPLETE: whether the result is HLS. */
  vod?: boolean;
  /** Convert job, COMPLETE: each quality in preset order, `WxH`, with its bandwidth in bits per second. */
  qualities?: { resolution: string; bandwidth: number }[];
  /** Convert job, COMPLETE with VOD: the `path` of the master playlist. */
  playlist?: string;
}

/**
 * The JSON body the transcoder posts to the webhook setting's url (the contract's `transcoderNotification`).
 *
 * @example
 * const note: TranscoderNotification = await parseNotification(request);
 * if (note.status === 'REJECTED') console.warn(note.job, 'rejected');
 */
export interface TranscoderNotification {
  queueId: string;
  requestId: string;
  status: TranscoderStatus;
  /** `thumbnail` for the thumbnails of a request, `convert` for the conversion (and for a request rejected as a whole). */
  job: 'convert' | 'thumbnail';
  payload: TranscoderNotificationPayload;
  /** How many times this notification was sent before, as a string: `"0"` on the first try. */
  retry: string;
}

interface DeliveryBase {
  requestId: string;
  videoId: string;
  file: File;
}

/**
 * Category 1: a captured image.
 *
 * @example
 * const delivery = await parseDelivery(request);
 * if (delivery.category === 'thumbnail') await save(deliveryPath(delivery), delivery.file);
 */
export interface ThumbnailDelivery extends DeliveryBase {
  category: 'thumbnail';
  thumbnail: true;
}
/**
 * Category 2: a whole converted file (no VOD).
 *
 * @example
 * const delivery = await parseDelivery(request);
 * if (delivery.category === 'converted') await save(deliveryPath(delivery), delivery.file);
 */
export interface ConvertedFileDelivery extends DeliveryBase {
  category: 'converted';
  vod: false;
}
/**
 * Category 3: a file of one HLS quality (segment, key or the quality's playlist), to be stored at `path`.
 *
 * @example
 * const delivery = await parseDelivery(request);
 * if (delivery.category === 'chunk') await save(delivery.path, delivery.file);
 */
export interface HlsChunkDelivery extends DeliveryBase {
  category: 'chunk';
  vod: true;
  /** The quality's height, e.g. `"360"`. */
  resolution: string;
  path: string;
}
/**
 * Category 4: the master playlist, to be stored at `path`.
 *
 * @example
 * const delivery = await parseDelivery(request);
 * if (delivery.category === 'playlist') await save(delivery.path, delivery.file);
 */
export interface HlsPlaylistDelivery extends DeliveryBase {
  category: 'playlist';
  vod: true;
  playlist: true;
  path: string;
}
/**
 * Category 5: a per-quality MP4 meant for download.
 *
 * @example
 * const delivery = await parseDelivery(request);
 * if (delivery.category === 'downloadable') await save(deliveryPath(delivery), delivery.file);
 */
export interface DownloadableDelivery extends DeliveryBase {
  category: 'downloadable';
  vod: true;
  downloadable: true;
}

/**
 * One upload delivery (the contract's `transcoderUpload`), told apart by its fields; `category` is added by the parser.
 *
 * @example
 * const delivery: TranscoderDelivery = await parseDelivery(request);
 * console.log(delivery.category, deliveryPath(delivery));
 */
export type TranscoderDelivery =
  | ThumbnailDelivery
  | ConvertedFileDelivery
  | HlsChunkDelivery
  | HlsPlaylistDelivery
  | DownloadableDelivery;

/**
 * A request that is not a well-formed delivery or notification.
 *
 * @example
 * try { await parseDelivery(request) } catch (e) { if (e instanceof DeliveryFormatError) return new Response(e.message, { status: 400 }) }
 */
export class DeliveryFormatError extends Error {
  override name = 'DeliveryFormatError';
}

function text(form: FormData, field: string): string {
  const value = form.get(field);
  if (typeof value !== 'string' || value === '') throw new DeliveryFormatError(`field "${field}" is missing`);
  return value;
}

/** A relative path of plain segments: no `..`, no leading `/`, no backslash. */
function safePath(path: string): string {
  const segments = path.split('/');
  if (path.includes('\\') || segments.some((s) => s === '' || s === '.' || s === '..'))
    throw new DeliveryFormatError(`path "${path}" is not a safe relative path`);
  return path;
}

/**
 * Reads an upload delivery (a multipart POST, the contract's `transcoderUpload`) into one of the five categories.
 *
 * @example
 * const delivery = await parseDelivery(request);
 * if (delivery.category === 'chunk') console.log(delivery.resolution, delivery.path, delivery.file.size);
 * @throws DeliveryFormatError when the request is not a delivery.
 */
export async function parseDelivery(request: Request): Promise<TranscoderDelivery> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new DeliveryFormatError('the body is not multipart/form-data');
  }
  const file = form.get('file');
  if (typeof file === 'string' || file === null) throw new DeliveryFormatError('field "file" is missing or not a file');
  const base = { requestId: text(form, 'requestId'), videoId: text(form, 'videoId'), file };
  const flag = (field: string) => form.get(field) === 'true';
  if (flag('thumbnail')) return { ...base, category: 'thumbnail', thumbnail: true };
  if (form.get('vod') === 'false') return { ...base, category: 'converted', vod: false };
  if (!flag('vod')) throw new DeliveryFormatError('none of "thumbnail" and "vod" is set');
  if (flag('playlist'))
    return { ...base, category: 'playlist', vod: true, playlist: true, path: safePath(text(form, 'path')) };
  if (flag('downloadable')) return { ...base, category: 'downloadable', vod: true, downloadable: true };
  return {
    ...base,
    category: 'chunk',
    vod: true,
    resolution: text(form, 'resolution'),
    path: safePath(text(form, 'path')),
  };
}

const STATUSES: readonly string[] = ['REJECTED', 'THUMBNAIL_REJECTED', 'COMPLETE'];

/**
 * Reads a webhook notification (a JSON POST, the contract's `transcoderNotification`).
 *
 * @example
 * const note = await parseNotification(request);
 * if (note.status === 'COMPLETE' && note.job === 'convert') console.log('ready:', note.payload.playlist);
 * @throws DeliveryFormatError when the request is not a notification.
 */
export async function parseNotification(request: Request): Promise<TranscoderNotification> {
  let body: Partial<TranscoderNotification>;
  try {
    body = (await request.json()) as Partial<TranscoderNotification>;
  } catch {
    throw new DeliveryFormatError('the body is not JSON');
  }
  if (
    typeof body !== 'object' ||
    body === null ||
    !STATUSES.includes(body.status as string) ||
    typeof body.requestId !== 'string' ||
    typeof body.payload !== 'object'
  ) {
    throw new DeliveryFormatError('the body is not a transcoder notification');
  }
  return body as TranscoderNotification;
}

/**
 * Where a delivery is stored: its `path`, or `<videoId>/<file name>` for the categories without one.
 *
 * @example
 * const delivery = await parseDelivery(request);
 * await writeFile(join('videos', deliveryPath(delivery)), delivery.file.stream());
 */
export function deliveryPath(delivery: TranscoderDelivery): string {
  return 'path' in delivery ? delivery.path : safePath(`${delivery.videoId}/${delivery.file.name}`);
}

/**
 * How a delivery receiver keeps what it receives.
 *
 * @example
 * const options: DeliveryReceiverOptions = { save: (path, file) => writeFile(join('public/videos', path), file.stream()) };
 */
export interface DeliveryReceiverOptions {
  /** Stores one delivered file at `path` (relative, `/`-separated, already checked to stay inside its root). */
  save(path: string, file: File, delivery: TranscoderDelivery): Promise<void> | void;
}

/**
 * A handler for the upload setting's url: it accepts each delivery (multipart POST) and saves the file at its
 * `path` (`<videoId>/<file name>` for thumbnails, converted and downloadable files), so that a master playlist
 * and the quality playlists it names resolve when the saved folder is served. Answers 204 when saved, 400 for
 * a malformed delivery, 405 for other methods; an error thrown by `save` answers 500, so the transcoder retries.
 *
 * @example
 * // Node: store deliveries under ./videos
 * import { mkdir, writeFile } from 'node:fs/promises';
 * import { dirname, join } from 'node:path';
 * const receive = createDeliveryReceiver({
 *   async save(path, file) {
 *     await mkdir(dirname(join('videos', path)), { recursive: true });
 *     await writeFile(join('videos', path), new Uint8Array(await file.arrayBuffer()));
 *   },
 * });
 * // with any server that speaks Request/Response, e.g. Hono: app.post('/deliveries', (c) => receive(c.req.raw));
 */
export function createDeliveryReceiver({ save }: DeliveryReceiverOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return new Response(null, { status: 405, headers: { allow: 'POST' } });
    let delivery: TranscoderDelivery;
    let path: string;
    try {
      delivery = await parseDelivery(request);
      path = deliveryPath(delivery);
    } catch (error) {
      if (error instanceof DeliveryFormatError) return Response.json({ error: error.message }, { status: 400 });
      throw error;
    }
    try {
      await save(path, delivery.file, delivery);
    } catch (error) {
      return Response.json({ error: `could not save ${path}: ${(error as Error).message}` }, { status: 500 });
    }
    return new Response(null, { status: 204 });
  };
}
