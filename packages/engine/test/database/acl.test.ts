import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { createUser, masterAuth, type TestUser } from '../support/users.js';
import { database, type Database } from './support.js';

let server: TestServer;
let owner: TestUser;
let ownerDb: Database;
let otherDb: Database;
let masterDb: Database;
beforeAll(async () => {
  server = await startTestServer();
  owner = await createUser(server, 'acl-owner');
  ownerDb = database(server, owner.auth);
  otherDb = database(server, (await createUser(server, 'acl-other')).auth);
  masterDb = database(server, await masterAuth(server));
});
afterAll(() => server.close());

const forbidden = { status: 403, body: { code: 119, error: expect.any(String) } };

describe('ACLs', () => {
  it('a private row: the owner reads and writes it, another user gets 403 for get, update and delete', async () => {
    const ACL = { [owner.userId]: { read: true, write: true } };
    const { body } = await ownerDb.create('Diary', { text: 'secret', ACL });
    expect((await ownerDb.get('Diary', body._id)).body).toMatchObject({ text: 'secret', ACL });
    expect(await otherDb.get('Diary', body._id)).toEqual(forbidden);
    expect(await otherDb.update('Diary', body._id, { text: 'hacked' })).toEqual(forbidden);
    expect(await otherDb.remove('Diary', body._id)).toEqual(forbidden);
    expect((await ownerDb.get('Diary', body._id)).body.text).toBe('secret');
    expect((await ownerDb.update('Diary', body._id, { text: 'mine' })).status).toBe(200);
  });

  it('public read, owner write', async () => {
    const { body } = await ownerDb.create('Wall', {
      text: 'hi',
      ACL: { '*': { read: true }, [owner.userId]: { write: true } },
    });
    expect((await otherDb.get('Wall', body._id)).status).toBe(200);
    expect(await otherDb.update('Wall', body._id, { text: 'x' })).toEqual(forbidden);
    expect((await ownerDb.update('Wall', body._id, { text: 'edited' })).status).toBe(200);
  });

  it('"*" write lets everyone change the row; a row without ACL is public', async () => {
    const open = await ownerDb.create('Open', { n: 1, ACL: { '*': { read: true, write: true } } });
    expect((await otherDb.update('Open', open.body._id, { n: 2 })).status).toBe(200);
    const bare = await ownerDb.create('Open', { n: 3 });
    expect((await otherDb.get('Open', bare.body._id)).status).toBe(200);
    expect((await otherDb.remove('Open', bare.body._id)).status).toBe(200);
  });

  it('queries return only readable rows, and count only them', async () => {
    await ownerDb.create('Mixed', { n: 1 });
    await ownerDb.create('Mixed', { n: 2, ACL: { [owner.userId]: { read: true, write: true } } });
    await ownerDb.create('Mixed', { n: 3, ACL: {} });
    expect((await otherDb.query('Mixed', {}, 'count=1')).body).toEqual({
      results: [expect.objectContaining({ n: 1 })],
      count: 1,
    });
    expect((await ownerDb.query('Mixed', {}, 'count=1&order=n')).body.results.map((r) => r.n)).toEqual([1, 2]);
    expect((await masterDb.query('Mixed', {}, 'count=1')).body.count).toBe(3);
  });

  it('the master token bypasses every ACL', async () => {
    const { body } = await ownerDb.create('Vault', { n: 1, ACL: {} });
    expect((await ownerDb.get('Vault', body._id)).status).toBe(403);
    expect((await masterDb.get('Vault', body._id)).body.n).toBe(1);
    expect((await masterDb.update('Vault', body._id, { n: 2 })).status).toBe(200);
    expect((await masterDb.remove('Vault', body._id)).status).toBe(200);
  });

  it('the ACL can be replaced or deleted by who may write', async () => {
    const { body } = await ownerDb.create('Shared', { n: 1, ACL: { [owner.userId]: { read: true, write: true } } });
    expect((await ownerDb.update('Shared', body._id, { ACL: { '*': { read: true } } })).status).toBe(200);
    expect((await otherDb.get('Shared', body._id)).status).toBe(200);
    expect((await otherDb.update('Shared', body._id, { n: 2 })).status).toBe(403);
    expect((await ownerDb.update('Shared', body._id, { n: 2 })).status).toBe(403);
    expect((await masterDb.update('Shared', body._id, { ACL: { __op: 'Delete' } })).status).toBe(200);
    expect((await otherDb.update('Shared', body._id, { n: 3 })).status).toBe(200);
  });

  it('include leaves a pointer alone when the pointed row is not readable', async () => {
    const hidden = await ownerDb.create('Secret', { x: 1, ACL: { [owner.userId]: { read: true } } });
    await ownerDb.create('Ref', { to: { __type: 'Pointer', className: 'Secret', _id: hidden.body._id } });
    const seen = (await otherDb.query('Ref', {}, 'include=to')).body.results[0]!.to;
    expect(seen).toEqual({ __type: 'Pointer', className: 'Secret', _id: hidden.body._id });
    expect((await ownerDb.query('Ref', {}, 'include=to')).body.results[0]!.to).toMatchObject({
      __type: 'Object',
      x: 1,
    });
  });
});
