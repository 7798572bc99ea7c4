import { describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { developmentConfig } from '../src/config.js';
import { StorageError } from '../src/shared/errors.js';
import { MemoryJournal } from './support/memory-journal.js';

// A change whose record cannot be written after it was made (room was set aside, then the write failed) is undone:
// the state is rebuilt from what the journal keeps, and the change is answered 507.

/** A journal in memory whose next appends can be made to fail, as a disk that fills under it. */
class FailingJournal extends MemoryJournal {
  failing = false;
  reserve = () => Promise.resolve();
  override append(record: unknown): Promise<void> {
    if (this.failing) return Promise.reject(new StorageError(true, 'ENOSPC: no space left on device'));
    return super.append(record);
  }
}

const config = developmentConfig();
const db = { 'X-Service-Object-Storage-Id': config.objectStorageId, 'Content-Type': 'application/json' };

describe('a record that cannot be written', () => {
  it('answers 507, undoes the change, and the next change is kept once writes succeed', async () => {
    const journal = new FailingJournal();
    const engine = createEngine({ config, capabilities: { journal } });
    await engine.ready;
    const login = await engine.fetch(
      new Request('http://local/auth/login', {
        method: 'POST',
        headers: {
          'X-Service-Authentication-Id': config.authenticationId,
          'X-Service-Authentication-Key': config.masterKey,
        },
      }),
    );
    const headers = {
      ...db,
      Authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}`,
    };
    const create = (name: string) =>
      engine.fetch(
        new Request('http://local/object-storage/classes/Item', {
          method: 'POST',
          headers,
          body: JSON.stringify({ name }),
        }),
      );
    const count = async () => {
      const res = await engine.fetch(
        new Request('http://local/object-storage/classes/query/Item', { method: 'POST', headers, body: '{}' }),
      );
      return ((await res.json()) as { results: unknown[] }).results.length;
    };

    expect((await create('kept')).status).toBe(201);
    journal.failing = true;
    const refused = await create('lost');
    expect(refused.status).toBe(507);
    expect(await refused.json()).toMatchObject({ code: 30, error: expect.stringContaining('nothing changed') });
    expect(await count()).toBe(1);

    journal.failing = false;
    expect((await create('kept too')).status).toBe(201);
    expect(await count()).toBe(2);
    expect(journal.contents.records).toHaveLength(3); // the log-in and the two creates
  });
});
