// The reference server with one user and `argv[2]` refresh tokens kept (as many logins of many users over the
// last 30 days would leave, none expired yet), alone in its process. Prints the address and a login request.
import { usersState } from '../../../packages/engine/src/areas/users/state.js';
import { newSecret, unrecorded } from '../../../packages/engine/src/shared/ids.js';
import { startServer } from '../../src/server.js';
import { benchUsers, loginForm } from '../users.js';

const TOKENS = Number(process.argv[2]);
const server = await startServer({ port: 0 });
const { project } = server.engine;
await benchUsers(server, 1, 'login');
const { refreshTokens } = project.state(usersState);
const now = project.clock.now();
const ttl = project.config.refreshTokenTtlSeconds * 1000;
for (let i = refreshTokens.size; i < TOKENS; i++)
  refreshTokens.add(newSecret(unrecorded), {
    userId: `user-${i % 10_000}`,
    expiresAt: now + 60_000 + Math.floor((ttl * i) / TOKENS),
  });
const { authenticationId, clientKey } = project.config;
const form = loginForm();
console.log(
  `ready ${JSON.stringify({
    url: `${server.url}/auth/login`,
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': authenticationId,
      'X-Service-Authentication-Key': clientKey,
      'Content-Type': form.contentType,
    },
    body: form.body,
    tokens: refreshTokens.size,
  })}`,
);
