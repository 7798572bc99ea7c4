// The engine's random source (shared/ids.ts): bytes come from a pool refilled from the platform 4 KiB at a time.
import { describe, expect, it } from 'vitest';
import { newId, newSecret, unrecorded, unrecordedBytes } from '../src/shared/ids.js';

describe('random bytes', () => {
  it('hands out fresh bytes of every length, across refills of the pool and beyond its size', () => {
    const draws = Array.from({ length: 3000 }, (_, i) => unrecordedBytes((i % 7) + 1));
    expect(draws.map((d) => d.length)).toEqual(Array.from({ length: 3000 }, (_, i) => (i % 7) + 1));
    expect(unrecordedBytes(10_000)).toHaveLength(10_000);
    // Over 12,000 bytes drawn, every value of a byte turns up: no slice of the pool is handed out twice as zeros.
    expect(new Set(draws.flatMap((d) => [...d])).size).toBe(256);
  });

  it('makes ids and secrets that do not repeat', () => {
    expect(new Set(Array.from({ length: 20_000 }, () => newId(unrecorded))).size).toBe(20_000);
    expect(new Set(Array.from({ length: 2_000 }, () => newSecret(unrecorded))).size).toBe(2_000);
  });

  it('writes a secret as two lowercase hex digits a byte, zeros kept', () => {
    const bytes = new Uint8Array([0, 1, 15, 16, 127, 128, 171, 255]);
    expect(newSecret({ secretBytes: () => bytes }, bytes.length)).toBe('00010f107f80abff');
    expect(newSecret(unrecorded)).toMatch(/^[0-9a-f]{64}$/);
  });
});
