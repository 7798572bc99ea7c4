// Benchmark users: registered and logged in through the service, since every area refuses the token of a user that
// does not exist.
import type { Engine } from '@basekit/engine';
import type { RunningServer } from '../src/server.js';

export interface BenchUser {
  userId: string;
  accessToken: string;
}

/** The headers of `user`'s calls to the database of `server`'s project, with a JSON body. */
export function databaseHeaders(server: RunningServer, user: BenchUser): Record<string, string> {
  return {
    'X-Service-Object-Storage-Id': server.engine.project.config.objectStorageId,
    Authorization: `Bearer ${user.accessToken}`,
    'Content-Type': 'application/json',
  };
}

/** The master's access token of `engine`'s project, logged in through `engine.fetch` (no server). */
export async function engineMasterToken(engine: Engine): Promise<string> {
  const { authenticationId, masterKey } = engine.project.config;
  const login = await engine.fetch(
    new Request('http://bench/auth/login', {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': masterKey },
    }),
  );
  return ((await login.json()) as { access_token: string }).access_token;
}

/** Registers and logs in `count` users named `<prefix>-<i>`. */
export async function benchUsers(server: RunningServer, count: number, prefix = 'bench'): Promise<BenchUser[]> {
  const { authenticationId, clientKey } = server.engine.project.config;
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i++) {
    const username = `${prefix}-${i}`;
    const registered = await fetch(`${server.url}/auth/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Service-Authentication-Id': authenticationId },
      body: JSON.stringify({ username, password: `${username}-pw` }),
    });
    const { userId } = (await registered.json()) as { userId: string };
    const form = new FormData();
    form.set('username', username);
    form.set('password', `${username}-pw`);
    const login = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'X-Service-Authentication-Id': authenticationId, 'X-Service-Authentication-Key': clientKey },
      body: form,
    });
    const { access_token: accessToken } = (await login.json()) as { access_token?: string };
    if (!userId || !accessToken) throw new Error(`could not register and log in the benchmark user ${username}`);
    users.push({ userId, accessToken });
  }
  return users;
}

/**
 * The login form of the benchmark user `login-0` as the spec shows it (multipart), as the SDK and the published
 * clients send it: its Content-Type and its body, built once and sent on every login.
 */
export function loginForm(): { contentType: string; body: string } {
  const boundary = 'basekit-bench-form';
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Object.entries({ username: 'login-0', password: 'login-0-pw' })
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .concat(`--${boundary}--\r\n`)
      .join(''),
  };
}
