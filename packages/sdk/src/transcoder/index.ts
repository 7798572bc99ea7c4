/**
 * `@basekit/sdk/transcoder`: the video transcoder's settings and conversions, and the receiving side of its
 * deliveries and notifications, for an app that imports it alone.
 *
 * @example
 * import { createCore } from '@basekit/sdk/core';
 * import { createTranscoder } from '@basekit/sdk/transcoder';
 * const transcoder = createTranscoder(createCore({ baseUrl, authenticationId, clientKey }));
 *
 * @module @basekit/sdk/transcoder
 */
import type { Core } from '../core/core.js';
import type { CallOptions } from '../core/options.js';
import type { JsonBody, JsonResult } from '../core/types.js';

/**
 * Thumbnail settings (the contract's `TranscoderThumbnailSettings`): `shots`, or `random` with `count`, or `interval` with `count` from `startTime`.
 *
 * @example
 * const cover: ThumbnailSettings = { name: 'cover', default: true, shots: ['00:00:01'] };
 * await client.transcoder.saveThumbnail(cover);
 */
export type ThumbnailSettings = JsonBody<'/metadata/thumbnail', 'post'>;
/**
 * Webhook settings (the contract's `TranscoderWebhookSettings`): where status changes are posted.
 *
 * @example
 * const hook: WebhookSettings = { name: 'status', default: true, url: 'https://example.com/hooks/transcoder' };
 * await client.transcoder.saveWebhook(hook);
 */
export type WebhookSettings = JsonBody<'/metadata/webhook', 'post'>;
/**
 * Upload settings (the contract's `TranscoderUploadSettings`): where results are delivered, with extra headers.
 *
 * @example
 * const deliveries: UploadSettings = { name: 'mine', default: true, url: 'https://example.com/deliveries', headers: {} };
 * await client.transcoder.saveUpload(deliveries);
 */
export type UploadSettings = JsonBody<'/metadata/upload', 'post'>;
/**
 * Watermark settings (the contract's `TranscoderWatermarkSettings`): a static image at one of six places.
 *
 * @example
 * const mark: WatermarkSettings = { name: 'logo', default: true, url: 'https://example.com/logo.png', location: 'TOP_RIGHT', paddingX: 10, paddingY: 10 };
 * await client.transcoder.saveWatermark(mark);
 */
export type WatermarkSettings = JsonBody<'/metadata/watermark', 'post'>;
/**
 * Preset settings (the contract's `TranscoderPresetSettings`): encoders, speed, VOD (HLS) and the outputs.
 *
 * @example
 * const hls: PresetSettings = { name: 'hls', default: true, vod: true, outputs: [{ resolution: '360', videoBitrate: '800k', audioBitrate: '96k' }] };
 * await client.transcoder.savePreset(hls);
 */
export type PresetSettings = JsonBody<'/metadata/preset', 'post'>;
/**
 * A conversion request (the contract's `TranscoderConvertRequest`): the source video and, per kind, a setting's name or `true` for the default.
 *
 * @example
 * const request: ConvertRequest = { url: 'https://example.com/in.mp4', preset: true, upload: true, webhook: 'status' };
 * await client.transcoder.convert(request);
 */
export type ConvertRequest = JsonBody<'/video/convert', 'post'>;
/**
 * What the service answers to a conversion request.
 *
 * @example
 * const { requestId, videoId }: ConvertResult = await client.transcoder.convert({ url, upload: true });
 */
export type ConvertResult = JsonResult<'/video/convert', 'post'>;

export * from './deliveries.js';

/**
 * The video transcoder (openapi/areas/transcoder.yaml).
 *
 * @example
 * const transcoder: Transcoder = client.transcoder;
 * await transcoder.convert({ url: 'https://example.com/in.mp4', upload: true });
 */
export type Transcoder = ReturnType<typeof createTranscoder>;

/**
 * Creates the transcoder client on a core; it sends the session's token to `transcoderUrl`. Store settings
 * first, then convert videos that name them.
 *
 * @example
 * const transcoder = createTranscoder(createCore({ baseUrl, authenticationId, clientKey, transcoderUrl }));
 * await transcoder.savePreset({ name: 'hls', default: true, vod: true, outputs: [{ resolution: '360', videoBitrate: '800k', audioBitrate: '96k' }] });
 * await transcoder.saveUpload({ name: 'mine', default: true, url: 'https://example.com/deliveries', headers: {} });
 * await transcoder.convert({ url: 'https://example.com/in.mp4', preset: true, upload: true });
 */
export function createTranscoder(core: Core) {
  const http = core.http(core.options.transcoderUrl);
  const save =
    <
      P extends
        | '/metadata/thumbnail'
        | '/metadata/webhook'
        | '/metadata/upload'
        | '/metadata/watermark'
        | '/metadata/preset',
    >(
      path: P,
    ) =>
    (settings: JsonBody<P, 'post'>, { signal }: CallOptions = {}): Promise<JsonResult<P, 'post'>> =>
      core.call(http.POST(path as '/metadata/thumbnail', { body: settings as never, signal })) as never;

  return {
    /**
     * Stores thumbnail settings (the contract's `saveThumbnailSettings`).
     *
     * @example
     * await transcoder.saveThumbnail({ name: 'cover', default: true, shots: ['00:00:01'] });
     */
    saveThumbnail: save('/metadata/thumbnail'),
    /**
     * Stores webhook settings (the contract's `saveWebhookSettings`).
     *
     * @example
     * await transcoder.saveWebhook({ name: 'status', default: true, url: 'https://example.com/hook' });
     */
    saveWebhook: save('/metadata/webhook'),
    /**
     * Stores upload settings (the contract's `saveUploadSettings`).
     *
     * @example
     * await transcoder.saveUpload({ name: 'mine', default: true, url: 'https://example.com/deliveries', headers: { 'X-Token': 't' } });
     */
    saveUpload: save('/metadata/upload'),
    /**
     * Stores watermark settings (the contract's `saveWatermarkSettings`).
     *
     * @example
     * await transcoder.saveWatermark({ name: 'logo', default: true, location: 'TOP_RIGHT', paddingX: 8, paddingY: 8, url: 'https://example.com/logo.png' });
     */
    saveWatermark: save('/metadata/watermark'),
    /**
     * Stores preset settings (the contract's `savePresetSettings`).
     *
     * @example
     * await transcoder.savePreset({ name: 'mp4', default: true, vod: false, outputs: [{ resolution: '240', videoBitrate: '300k', audioBitrate: '64k' }] });
     */
    savePreset: save('/metadata/preset'),

    /**
     * Submits a video for conversion (the contract's `convertVideo`): each setting by name, or `true` for the default of its kind.
     *
     * @example
     * await transcoder.convert({ url: 'https://example.com/in.mp4', preset: 'hls', upload: true, webhook: 'status' });
     */
    convert: (request: ConvertRequest, { signal }: CallOptions = {}): Promise<ConvertResult> =>
      core.call(http.POST('/video/convert', { body: request, signal })),
  };
}
