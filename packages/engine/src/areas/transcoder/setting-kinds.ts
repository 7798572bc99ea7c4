/** The five kinds of settings record of openapi/areas/transcoder.yaml, in the order of the `/metadata/<kind>` operations. */
export const SETTING_KINDS = ['thumbnail', 'webhook', 'upload', 'watermark', 'preset'] as const;
export type SettingKind = (typeof SETTING_KINDS)[number];

/** A stored settings record: `name`, `default` and the kind's fields as the caller sent them. */
export type SettingRecord = { name: string; default: boolean } & Record<string, unknown>;
