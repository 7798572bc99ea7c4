import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type Fixture } from './support/fixture.js';

/**
 * Many requests at once on one thing: the figures printed here are recorded in docs/reliability.md.
 * Every request is in flight before the first answer is awaited.
 */

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(() => fixture.close());

const db = () => ({
  'X-Service-Object-Storage-Id': fixture.schemeValues['objectStorageId']!,
  ...fixture.auth('user'),
  'Content-Type': 'application/json',
});
const storage = () => ({ 'X-Service-Storage-Id': fixture.schemeValues['storageId']!, ...fixture.auth('user') });
function statusCount(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
}

async function newRow(body: unknown): Promise<string> {
  const res = await fixture.server.request('/object-storage/classes/Counter', {
    method: 'POST',
    headers: db(),
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { _id: string })._id;
}

async function readRow(id: string): Promise<Record<string, unknown>> {
  return (await (
    await fixture.server.request(`/object-storage/classes/Counter/${id}`, { headers: db() })
  ).json()) as Record<string, unknown>;
}

describe('at the same time', () => {
  it('1,000 concurrent Increments on one column end at exactly their sum', async () => {
    const id = await newRow({ total: 0 });
    // Amounts of both signs and fractions whose sums are exact in binary (multiples of 1/4).
    const amounts = Array.from({ length: 1_000 }, (_, i) => ((i * 7919) % 201) - 100 + (i % 4) / 4);
    const statuses = await Promise.all(
      amounts.map(async (amount) => {
        const res = await fixture.server.request(`/object-storage/classes/Counter/${id}`, {
          method: 'PUT',
          headers: db(),
          body: JSON.stringify({ total: { __op: 'Increment', amount } }),
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    expect(statusCount(statuses)).toEqual({ 200: 1_000 });
    expect((await readRow(id))['total']).toBe(amounts.reduce((a, b) => a + b, 0));
  });

  it('50 concurrent uploads of one new path with replacing=false: one 200, the rest 417, the winner stored', async () => {
    const uploads = Array.from({ length: 50 }, (_, i) => `upload number ${i}`);
    const answers = await Promise.all(
      uploads.map(async (content) => {
        const form = new FormData();
        form.append('fileItems[0].fileToUpload', new File([content], 'race.txt'));
        form.append('fileItems[0].path', 'race');
        form.append('fileItems[0].replacing', 'false');
        const res = await fixture.server.request('/files', { method: 'POST', headers: storage(), body: form });
        return { content, status: res.status, body: (await res.json()) as { code?: number } };
      }),
    );
    expect(statusCount(answers.map((a) => a.status))).toEqual({ 200: 1, 417: 49 });
    expect(answers.filter((a) => a.status === 417).every((a) => a.body.code === 601)).toBe(true);
    const winner = answers.find((a) => a.status === 200)!;
    const stored = await fixture.server.request(`/${fixture.server.engine.project.config.bucket}/race/race.txt`);
    expect(await stored.text()).toBe(winner.content);
    const info = await fixture.server.request('/files/fileInfo', {
      method: 'POST',
      headers: { ...storage(), ...fixture.auth('master'), 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'race/race.txt' }),
    });
    expect(((await info.json()) as { md5Hash: string }).md5Hash).toBe(
      createHash('md5').update(winner.content).digest('hex'),
    );
  });

  it('50 concurrent renewals of one refresh token all succeed (no rotation, as decided) with distinct working access tokens', async () => {
    const { authenticationId, authenticationKey } = fixture.schemeValues;
    const renewals = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const form = new FormData();
        form.set('refresh_token', fixture.user.refreshToken);
        const res = await fixture.server.request('/auth/login', {
          method: 'POST',
          headers: {
            'X-Service-Authentication-Id': authenticationId!,
            'X-Service-Authentication-Key': authenticationKey!,
            'X-Service-Authentication-Refresh': '1',
          },
          body: form,
        });
        return {
          status: res.status,
          body: (await res.json()) as { access_token: string; refresh_token: string; jti: string },
        };
      }),
    );
    expect(statusCount(renewals.map((r) => r.status))).toEqual({ 200: 50 });
    expect(new Set(renewals.map((r) => r.body.refresh_token))).toEqual(new Set([fixture.user.refreshToken]));
    expect(new Set(renewals.map((r) => r.body.jti)).size).toBe(50);
    const me = await Promise.all(
      renewals.map(
        async ({ body }) =>
          (
            await fixture.server.request('/auth/users/me', {
              headers: {
                'X-Service-Authentication-Id': authenticationId!,
                Authorization: `Bearer ${body.access_token}`,
              },
            })
          ).status,
      ),
    );
    expect(statusCount(me)).toEqual({ 200: 50 });
  });

  it('20 concurrent batches of 20 items on one row never interleave inside an item', async () => {
    const id = await newRow({ a: 'start', b: 'start', n: 0 });
    const batches = Array.from({ length: 20 }, (_, k) => ({
      requests: Array.from({ length: 20 }, (_, j) => ({
        method: 'PUT',
        path: `/classes/Counter/${id}`,
        body: { a: `${k}-${j}`, b: `${k}-${j}`, n: { __op: 'Increment', amount: 1 } },
      })),
    }));
    const results = await Promise.all(
      batches.map(async (batch) => {
        const res = await fixture.server.request('/object-storage/batch', {
          method: 'POST',
          headers: db(),
          body: JSON.stringify(batch),
        });
        return (await res.json()) as { success?: unknown }[];
      }),
    );
    expect(results.flat().filter((r) => !r.success)).toEqual([]);
    const row = await readRow(id);
    expect(row['n']).toBe(400);
    expect(row['a']).toBe(row['b']); // both columns of the last item applied, never half of one and half of another
    // Within one batch, items apply in order: the row ends at the last item of some batch.
    expect(String(row['a'])).toMatch(/^\d+-19$/);
  });

  it('20 concurrent registrations of one username: one 200, the rest 409', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fixture.server.request('/auth/users', {
          method: 'POST',
          headers: {
            'X-Service-Authentication-Id': fixture.schemeValues['authenticationId']!,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ username: 'same-name', password: `pw${i}` }),
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    expect(statusCount(statuses)).toEqual({ 200: 1, 409: 19 });
  });

  it('20 concurrent creations of one folder: one 201, the rest 200', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await fixture.server.request('/directories', {
          method: 'POST',
          headers: { ...storage(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ path: 'same/folder' }),
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    expect(statusCount(statuses)).toEqual({ 200: 19, 201: 1 });
  });
});
