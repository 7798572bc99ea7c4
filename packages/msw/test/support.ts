import { DEFAULT_CONFIG } from '@basekit/engine';

export const BASE = 'https://api.basekit.test';
export const { authenticationId, masterKey, objectStorageId, storageId, gameId } = DEFAULT_CONFIG;
const { clientKey } = DEFAULT_CONFIG;

/** A JSON request init. */
export const json = (method: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** Logs a user in (or the master, without a username) at `base`; returns `{ Authorization }` headers. */
export async function login(base: string, username?: string, password?: string): Promise<Record<string, string>> {
  const form = new FormData();
  if (username !== undefined) form.set('username', username);
  if (password !== undefined) form.set('password', password);
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: {
      'X-Service-Authentication-Id': authenticationId,
      'X-Service-Authentication-Key': username === undefined ? masterKey : clientKey,
    },
    body: form,
  });
  const body = (await res.json()) as { access_token: string };
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`);
  return { Authorization: `Bearer ${body.access_token}` };
}

/** Registers a user at `base` and logs them in; returns the userId and `{ Authorization }` headers. */
export async function signUp(
  base: string,
  username: string,
  profile: Record<string, string> = {},
): Promise<{ userId: string; auth: Record<string, string> }> {
  const res = await fetch(
    `${base}/auth/users`,
    json(
      'POST',
      { username, password: `pw-${username}`, ...profile },
      { 'X-Service-Authentication-Id': authenticationId },
    ),
  );
  const user = (await res.json()) as { userId: string };
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(user)}`);
  return { userId: user.userId, auth: await login(base, username, `pw-${username}`) };
}

/** Resolves with the requests a handler receives, once `count` have arrived. */
export function collector<T>(count: number) {
  const items: T[] = [];
  let done!: (items: T[]) => void;
  const all = new Promise<T[]>((resolve) => (done = resolve));
  return {
    all,
    add(item: T) {
      items.push(item);
      if (items.length === count) done(items);
    },
  };
}

/** The `high-score` top 10 as `name:score`. */
export async function topScores(base: string, auth: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${base}/game/leaderboards/top/high-score?count=10`, {
    headers: { 'X-Service-Game-Id': gameId, ...auth },
  });
  const { usersProfile } = (await res.json()) as {
    usersProfile: { userBriefProfile: { userName: string }; scores: number[] }[];
  };
  return usersProfile.map((p) => `${p.userBriefProfile.userName}:${p.scores[0]}`);
}
