// mingo and re2js are imported by the first query that needs them (areas/database/evaluators.ts). Each Vitest file
// has its own module registry, so here neither is loaded yet; the tests run in order, each the first of its kind.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, createEngine } from '../src/index.js';

const engine = createEngine({ config: DEFAULT_CONFIG, onInternalError: () => {} });

async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await engine.fetch(
    new Request(`http://local${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as { results?: { name: string }[]; code?: number } };
}

const master = await engine.fetch(
  new Request('http://local/auth/login', {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': DEFAULT_CONFIG.authenticationId,
      'X-Service-Authentication-Key': DEFAULT_CONFIG.masterKey,
    },
  }),
);
const database = {
  'X-Service-Object-Storage-Id': DEFAULT_CONFIG.objectStorageId,
  Authorization: `Bearer ${((await master.json()) as { access_token: string }).access_token}`,
};
const query = (where: unknown) => call('/object-storage/classes/query/Pet', where, database);
for (const name of ['rex', 'tom', 'kit']) await call('/object-storage/classes/Pet', { name }, database);

describe('query evaluators loaded on demand', () => {
  it('loads mingo for the first condition that is not a plain comparison', async () => {
    expect(await query({ name: { $in: ['rex', 'kit'] } })).toMatchObject({
      status: 200,
      body: { results: [{ name: 'rex' }, { name: 'kit' }] },
    });
  });

  it('loads re2js for a $regex found only inside a sub-query', async () => {
    const where = {
      name: {
        $select: {
          query: { className: 'Pet', where: { $or: [{ name: { $regex: '^T', $options: 'i' } }] } },
          key: 'name',
        },
      },
    };
    expect(await query(where)).toMatchObject({ status: 200, body: { results: [{ name: 'tom' }] } });
  });

  it('refuses a pattern re2js cannot compile with 102', async () => {
    expect(await query({ $nor: [{ name: { $regex: '(a' } }] })).toMatchObject({ status: 400, body: { code: 102 } });
  });
});
