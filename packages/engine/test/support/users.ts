import type { TestServer } from './server.js';

export interface TestUser {
  userId: string;
  username: string;
  password: string;
  accessToken: string;
  refreshToken: string;
  /** `{ Authorization: 'Bearer <token>' }` */
  auth: Record<string, string>;
}

export function authIdHeader(server: TestServer): Record<string, string> {
  return { 'X-Service-Authentication-Id': server.config.authenticationId };
}

/** Logs in through the real endpoint; throws with the response body when it fails. */
export async function login(
  server: TestServer,
  form: Record<string, string>,
  headers: Record<string, string>,
): Promise<Record<string, unknown>> {
  const body = new FormData();
  for (const [k, v] of Object.entries(form)) body.set(k, v);
  const res = await server.request('/auth/login', {
    method: 'POST',
    headers: { ...authIdHeader(server), ...headers },
    body,
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/**
 * Registers a user over HTTP with the password `pw-<username>` (not logged in: with e-mail confirmation on, a user
 * with an e-mail stays inactive); throws with the response body when it fails.
 */
export async function registerUser(
  server: TestServer,
  username: string,
  profile: Record<string, string> = {},
): Promise<{ userId: string; password: string }> {
  const password = `pw-${username}`;
  const res = await server.request('/auth/users', {
    method: 'POST',
    headers: { ...authIdHeader(server), 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password, ...profile }),
  });
  const record = (await res.json()) as { userId: string };
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(record)}`);
  return { userId: record.userId, password };
}

/** Registers a user over HTTP and logs them in with the client key. */
export async function createUser(
  server: TestServer,
  username: string,
  profile: Record<string, string> = {},
): Promise<TestUser> {
  const { userId, password } = await registerUser(server, username, profile);
  const tokens = await login(
    server,
    { username, password },
    { 'X-Service-Authentication-Key': server.config.clientKey },
  );
  const accessToken = tokens['access_token'] as string;
  return {
    userId,
    username,
    password,
    accessToken,
    refreshToken: tokens['refresh_token'] as string,
    auth: { Authorization: `Bearer ${accessToken}` },
  };
}

/** A master access token, as `{ Authorization }` headers. */
export async function masterAuth(server: TestServer): Promise<Record<string, string>> {
  const tokens = await login(server, {}, { 'X-Service-Authentication-Key': server.config.masterKey });
  return { Authorization: `Bearer ${tokens['access_token'] as string}` };
}
