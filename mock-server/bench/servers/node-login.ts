// The ceiling of any login over HTTP on this machine: plain node:http that reads the form, checks its password with
// the same hash as the password check alone (the Node server's `pbkdf2` capability) and sends a JSON answer of a
// login's size, with no routing, no Request or Response objects, no token, no state. Prints the login request as
// `login.ts` does, so the same load generator drives it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from '../../../packages/engine/src/shared/clock.js';
import { Moment } from '../../../packages/engine/src/shared/moment.js';
import { hashPassword, verifyPassword } from '../../../packages/engine/src/shared/auth/password.js';
import { pbkdf2 } from '../../src/pbkdf2.js';
import { loginForm } from '../users.js';

const moment = new Moment(new Clock());
const stored = await hashPassword(moment, 'login-0-pw', pbkdf2);
const answer = Buffer.from(
  JSON.stringify({
    access_token: 'x'.repeat(280),
    token_type: 'bearer',
    refresh_token: 'r'.repeat(64),
    expires_in: 7199,
    scope: 'client',
    jti: 'j'.repeat(16),
  }),
);
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', async () => {
    const password = /name="password"\r\n\r\n([^\r]*)/.exec(Buffer.concat(chunks).toString())?.[1] ?? '';
    const ok = await verifyPassword(moment, password, stored, pbkdf2);
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const form = loginForm();
console.log(
  `ready ${JSON.stringify({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/login`,
    method: 'POST',
    headers: { 'Content-Type': form.contentType },
    body: form.body,
  })}`,
);
