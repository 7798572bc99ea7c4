import { integer, object } from './fields.js';
import type { TranscoderPolicy } from './state.js';

const HOUR = 3_600_000;
const patch = object({
  concurrency: integer(1, 16),
  concurrencyPerUser: integer(1, 16),
  timeLimitMs: integer(1, 24 * HOUR),
  deliveryAttempts: integer(1, 20),
  retryDelayMs: integer(0, HOUR),
});

/** Applies a partial policy (`PATCH /__admin/transcoder/policy`); all-or-nothing. */
export function updatePolicy(policy: TranscoderPolicy, body: unknown): TranscoderPolicy {
  return Object.assign(policy, patch(body, ''));
}
