import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@basekit/engine';
import { startTestServer, type TestServer } from '../support/server.js';
import { clientKey, expectStatus, loginRequest, registerRequest } from '../../../packages/engine/test/users/helpers.js';

interface Mail {
  to: string;
  subject: string;
  text: string;
  link: string;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ emailConfirmation: true });
});
afterAll(() => server.close());
beforeEach(async () => {
  await server.reset();
  await server.patchConfig({ emailConfirmation: true });
});

async function outbox(): Promise<Mail[]> {
  const res = await server.admin('/__admin/outbox');
  return ((await res.json()) as { messages: Mail[] }).messages;
}

const ann = { username: 'ann', password: 'secret', email: 'ann@example.com' };
const annLogin = () => loginRequest(server, { username: ann.username, password: ann.password }, clientKey(server));

describe('e-mail confirmation (emailConfirmation on)', () => {
  it('registers the user inactive and sends one message with a link on this server', async () => {
    const record = await expectStatus(await registerRequest(server, ann), 200);
    expect(record['active']).toBe(false);
    const messages = await outbox();
    expect(messages).toEqual([
      {
        to: 'ann@example.com',
        subject: expect.any(String),
        text: expect.stringContaining(messages[0]!.link),
        link: expect.any(String),
      },
    ]);
    expect(new URL(messages[0]!.link).origin).toBe(server.url);
  });

  it('refuses login with 401 until the link is opened, then logs in', async () => {
    await expectStatus(await registerRequest(server, ann), 200);
    await expectStatus(await annLogin(), 401, ErrorCode.USER_INACTIVE);
    const [mail] = await outbox();
    const confirmed = await expectStatus(await fetch(mail!.link), 200);
    expect(confirmed).toMatchObject({ username: 'ann', active: true });
    expect(confirmed).not.toHaveProperty('avatar');
    expect((await expectStatus(await annLogin(), 200))['scope']).toBe('client');
  });

  it('answers a wrong password with 401 invalid credentials, not "inactive"', async () => {
    await expectStatus(await registerRequest(server, ann), 200);
    const res = await loginRequest(server, { username: 'ann', password: 'wrong' }, clientKey(server));
    await expectStatus(res, 401, ErrorCode.INVALID_CREDENTIALS);
  });

  it('confirms only the user the link was sent to', async () => {
    await expectStatus(await registerRequest(server, ann), 200);
    await expectStatus(
      await registerRequest(server, { username: 'bob', password: 'pw', email: 'bob@example.com' }),
      200,
    );
    const [, bobMail] = await outbox();
    expect(bobMail!.to).toBe('bob@example.com');
    await expectStatus(await fetch(bobMail!.link), 200);
    await expectStatus(await annLogin(), 401, ErrorCode.USER_INACTIVE);
  });

  it('answers the same when the link is opened twice', async () => {
    await expectStatus(await registerRequest(server, ann), 200);
    const [mail] = await outbox();
    await expectStatus(await fetch(mail!.link), 200);
    expect((await expectStatus(await fetch(mail!.link), 200))['active']).toBe(true);
  });

  it('answers 404 to an unknown link', async () => {
    await expectStatus(await server.request('/auth/confirm/not-a-token'), 404, ErrorCode.UNKNOWN_CONFIRMATION);
  });

  it('requires an e-mail address (400), since the link must go somewhere', async () => {
    await expectStatus(
      await registerRequest(server, { username: 'ann', password: 'pw' }),
      400,
      ErrorCode.VALIDATION_FAILED,
    );
    expect(await outbox()).toEqual([]);
  });
});

/** A registration sent with a Host header of the caller's choosing (fetch does not let one set it). */
function registerWithHost(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.url}/auth/users`,
      {
        method: 'POST',
        headers: {
          Host: host,
          'Content-Type': 'application/json',
          'X-Service-Authentication-Id': server.config.authenticationId,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(ann));
  });
}

describe('where the confirmation link points', () => {
  it("is never the registration's Host header: without publicUrl, the address the server listens on", async () => {
    expect(await registerWithHost('attacker.example')).toBe(200);
    const [mail] = await outbox();
    expect(mail!.link).toMatch(new RegExp(`^${server.url}/auth/confirm/[^/]+$`));
    await expectStatus(await fetch(mail!.link), 200);
  });

  it('is publicUrl when the config has one (a path prefix and a trailing slash are kept right)', async () => {
    const behindProxy = await startTestServer({
      emailConfirmation: true,
      publicUrl: 'https://api.example.com/backend/',
    });
    try {
      expect((await registerRequest(behindProxy, ann)).status).toBe(200);
      const { messages } = (await (await behindProxy.admin('/__admin/outbox')).json()) as { messages: Mail[] };
      expect(messages[0]!.link).toMatch(/^https:\/\/api\.example\.com\/backend\/auth\/confirm\/[^/]+$/);
      expect(messages[0]!.text).toContain(messages[0]!.link);
    } finally {
      await behindProxy.close();
    }
  });

  it('refuses a publicUrl that is not an http(s) address', async () => {
    for (const publicUrl of [
      'api.example.com',
      'ftp://api.example.com',
      'https://api.example.com/?next=x',
      'javascript:alert(1)',
    ]) {
      const res = await server.admin('/__admin/config', {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ publicUrl }),
      });
      expect([publicUrl, res.status]).toEqual([publicUrl, 400]);
    }
  });
});

describe('e-mail confirmation switched at run time', () => {
  it('registers active users and sends nothing once switched off', async () => {
    await server.patchConfig({ emailConfirmation: false });
    expect((await expectStatus(await registerRequest(server, ann), 200))['active']).toBe(true);
    expect(await outbox()).toEqual([]);
    await expectStatus(await annLogin(), 200);
  });

  it('keeps users registered while it was on inactive until they confirm', async () => {
    await expectStatus(await registerRequest(server, ann), 200);
    await server.patchConfig({ emailConfirmation: false });
    await expectStatus(await annLogin(), 401, ErrorCode.USER_INACTIVE);
    const [mail] = await outbox();
    await expectStatus(await fetch(mail!.link), 200);
    await expectStatus(await annLogin(), 200);
  });
});
