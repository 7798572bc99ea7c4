/**
 * Platform capabilities the engine reaches through small interfaces: the Node server wires in real
 * implementations (disk, sharp, ffmpeg, outbound HTTP); the browser side supplies stand-ins.
 * Areas add their interface here and read it from `project.capabilities`.
 */
import type { TranscoderCapability } from '../areas/transcoder/runner.js';

export interface Capabilities {
  /** Outbound HTTP (transcoder source downloads, webhooks, upload deliveries). */
  fetch: typeof fetch;
  /** Video conversion (ffmpeg in Node), or why it cannot run. Absent: the transcoder simulates it with tiny files (browsers). */
  transcoder?: TranscoderCapability;
}

export function defaultCapabilities(): Capabilities {
  return { fetch: (...args) => globalThis.fetch(...args) };
}
