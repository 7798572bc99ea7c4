// Anyone may register with only the public authentication id, so what one user stores is bounded
// (maxUserFieldsBytes, 16 KiB by default): past it, 400 code 142 and nothing is stored or changed.
import { describe, expect, it } from 'vitest';
import { expectStatus, registerRequest, useCast, usersCall } from './helpers.js';

const cast = useCast();

describe('maxUserFieldsBytes', () => {
  it('refuses a registration whose extra fields take more than 16 KiB, and registers nobody', async () => {
    const extra = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`field${i}`, 'x'.repeat(100)]));
    const refused = await expectStatus(
      await registerRequest(cast.server, { username: 'hoarder', password: 'pw', ...extra }),
      400,
      142,
    );
    expect(refused['error']).toContain('maxUserFieldsBytes');
    const list = await expectStatus(await usersCall(cast.server, '/auth/users?pageSize=100', cast.master), 200);
    expect(list['userCount']).toBe(2);
    const fewer = Object.fromEntries(Object.entries(extra).slice(0, 100));
    await expectStatus(await registerRequest(cast.server, { username: 'hoarder', password: 'pw', ...fewer }), 200);
  });

  it('counts the avatar and the profile too (a 20 KB avatar is refused)', async () => {
    await expectStatus(
      await registerRequest(cast.server, {
        username: 'painter',
        password: 'pw',
        avatar: `data:image/png;base64,${'A'.repeat(20_000)}`,
      }),
      400,
      142,
    );
  });

  it('refuses an update that would make the user larger than the limit, and changes nothing', async () => {
    const res = await usersCall(cast.server, '/auth/users/me', cast.ann.auth, {
      method: 'PUT',
      body: { firstName: 'Anna', phoneNumber: '1'.repeat(20_000) },
    });
    await expectStatus(res, 400, 142);
    const me = await expectStatus(await usersCall(cast.server, '/auth/users/me', cast.ann.auth), 200);
    expect(me).toMatchObject({ firstName: 'Ann', phoneNumber: '' });
  });

  it('does not count the password (its size only costs hashing, bounded by the body limit)', async () => {
    await expectStatus(await registerRequest(cast.server, { username: 'long-pw', password: 'p'.repeat(20_000) }), 200);
  });
});
