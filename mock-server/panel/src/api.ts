// Every call of the panel goes through here: the admin API with the master key, or the service's own API with a
// master token. The panel has no back door. The project the panel works on is held in one place (`current`): the
// project of the key signed in with, or another of the server's projects (`switchProject`, when that key is the
// server's admin key).
import type { Config } from '@basekit/engine';
import { useEffect, useState } from 'preact/hooks';

/** The project's config as `GET /__admin/config` answers it. */
export type ProjectConfig = Config;

/** A call the server answered with an error: its status and the service's `{"code","error"}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

const KEY_STORAGE = 'basekit-panel:master-key';

/** The word of the header names (`X-<word>-Authentication-Key`): the server writes it into the page it serves. */
const servedHeaderWord =
  document.querySelector<HTMLMetaElement>('meta[name="basekit-header-word"]')?.content || 'Service';

/**
 * The panel's session: the key signed in with (this tab's sessionStorage only), the project worked on with its
 * master key, and a master token of that project.
 */
interface Current {
  signedInKey: string;
  /** The id (authentication id) of the project of that key, as it was at sign-in. */
  signedInProject: string;
  masterKey: string;
  config: ProjectConfig;
  token: { value: string; expiresAt: number } | undefined;
}

let current: Current | undefined;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

const headerWord = () => current?.config.headerWord[0] ?? servedHeaderWord;

/** `X-<word>-<name>`, in the word the current project accepts. */
export function header(name: string): string {
  return `X-${headerWord()}-${name}`;
}

async function failure(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { code?: number; error?: string };
    return new ApiError(response.status, body.code, body.error ?? `${response.status} ${response.statusText}`);
  } catch {
    return new ApiError(response.status, undefined, text || `${response.status} ${response.statusText}`);
  }
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}

function session(): Current {
  if (!current) throw new ApiError(401, undefined, 'not signed in');
  return current;
}

const withHeaders = (init: RequestInit, headers: Record<string, string>): RequestInit => ({
  ...init,
  headers: { ...headers, ...(init.headers as Record<string, string>) },
});

/**
 * An admin API call (`/__admin/...`) of the current project, as a raw response: its master key and its ids (the
 * server finds the project by them).
 */
export function adminResponse(path: string, init: RequestInit = {}): Promise<Response> {
  const { masterKey, config } = session();
  return fetch(path, withHeaders(init, { ...projectHeaders(config), [header('Authentication-Key')]: masterKey }));
}

/** An admin call with the key signed in with (or `key`), in the server's header word: the projects API, the sign-in. */
function serverAdmin(path: string, key = session().signedInKey): Promise<Response> {
  return fetch(path, { headers: { [`X-${servedHeaderWord}-Authentication-Key`]: key } });
}

/** An admin API call whose JSON answer is returned (an `ApiError` when it fails). */
export async function admin<T>(path: string, init: RequestInit = {}): Promise<T> {
  return json<T>(await adminResponse(path, init));
}

/** A JSON request body with its content type, for `admin` and `service`. */
export function jsonBody(method: string, body: unknown): RequestInit {
  return { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

/** The ids of the project as the service's headers: each area reads the one it needs. */
function projectHeaders(config: ProjectConfig): Record<string, string> {
  return {
    [header('Authentication-Id')]: config.authenticationId,
    [header('Object-Storage-Id')]: config.objectStorageId,
    [header('Storage-Id')]: config.storageId,
    [header('Game-Id')]: config.gameId,
  };
}

/** A master token (`POST /auth/login` with the master key), kept until it expires. */
async function masterToken(renew = false): Promise<string> {
  const now = session();
  if (!renew && now.token && now.token.expiresAt > Date.now()) return now.token.value;
  const response = await fetch('/auth/login', {
    method: 'POST',
    headers: { ...projectHeaders(now.config), [header('Authentication-Key')]: now.masterKey },
  });
  const { access_token, expires_in } = await json<{ access_token: string; expires_in: number }>(response);
  now.token = { value: access_token, expiresAt: Date.now() + expires_in * 1000 };
  return access_token;
}

/**
 * A call of the service's own API with a master token and the project's ids, as a raw response (downloads, uploads).
 * A 401 renews the token once and retries: the server's clock may have been moved past its expiry. `transport`
 * replaces fetch (an upload with progress goes through XMLHttpRequest).
 */
export async function serviceResponse(
  path: string,
  init: RequestInit = {},
  transport: typeof fetch = fetch,
): Promise<Response> {
  const send = async (renew: boolean) =>
    transport(
      path,
      withHeaders(init, { ...projectHeaders(session().config), Authorization: `Bearer ${await masterToken(renew)}` }),
    );
  const response = await send(false);
  return response.status === 401 ? send(true) : response;
}

/** A call of the service's own API whose JSON answer is returned (an `ApiError` when it fails). */
export async function service<T>(path: string, init: RequestInit = {}, transport: typeof fetch = fetch): Promise<T> {
  return json<T>(await serviceResponse(path, init, transport));
}

/**
 * Signs in with a master key: the key is checked by reading its project's config with it (403 when wrong); that
 * project becomes the current one.
 */
export async function signIn(masterKey: string): Promise<void> {
  const config = await json<ProjectConfig>(await serverAdmin('/__admin/config', masterKey));
  current = { signedInKey: masterKey, signedInProject: config.authenticationId, masterKey, config, token: undefined };
  sessionStorage.setItem(KEY_STORAGE, masterKey);
  changed();
}

/** The id of the project signed in to (the URL names other projects, not this one). */
export function signedInProject(): string {
  return session().signedInProject;
}

/** A project of the server as the projects API lists it: its id (the authentication id) and its config. */
export interface ServerProject {
  id: string;
  config: ProjectConfig;
}

/**
 * The server's projects, the default one first (`GET /__admin/projects`); undefined when the key signed in with is
 * not the server's admin key (the default project's master key), which alone may list them.
 */
export async function listProjects(): Promise<ServerProject[] | undefined> {
  const response = await serverAdmin('/__admin/projects');
  if (response.status === 403 || response.status === 404) return undefined;
  return (await json<{ projects: ServerProject[] }>(response)).projects;
}

/**
 * Makes another of the server's projects the current one (undefined: the project of the key signed in with): every
 * call from now on carries its ids and master key.
 */
export async function switchProject(id: string | undefined): Promise<void> {
  const now = session();
  const config =
    id === undefined
      ? await json<ProjectConfig>(await serverAdmin('/__admin/config'))
      : (await json<ServerProject>(await serverAdmin(`/__admin/projects/${encodeURIComponent(id)}`))).config;
  current = { ...now, masterKey: config.masterKey, config, token: undefined };
  changed();
}

/** Signs in again with the key this tab kept, if any (a reload, a shared link opened in the same tab). */
export async function resumeSession(): Promise<boolean> {
  const masterKey = sessionStorage.getItem(KEY_STORAGE);
  if (!masterKey) return false;
  try {
    await signIn(masterKey);
    return true;
  } catch {
    sessionStorage.removeItem(KEY_STORAGE);
    return false;
  }
}

export function signOut(): void {
  sessionStorage.removeItem(KEY_STORAGE);
  current = undefined;
  changed();
}

/** The current project's config (signed in only). */
export function project(): ProjectConfig {
  return session().config;
}

/** Changes config keys at run time (`PATCH /__admin/config`); the panel follows the answer (a new header word too). */
export async function updateConfig(patch: Partial<ProjectConfig>): Promise<ProjectConfig> {
  const config = await admin<ProjectConfig>('/__admin/config', jsonBody('PATCH', patch));
  return replaceConfig(config);
}

/** Reads the config again (after a reset or an import, which may change it). */
export async function reloadConfig(): Promise<ProjectConfig> {
  return replaceConfig(await admin<ProjectConfig>('/__admin/config'));
}

/** The current project's config (undefined when signed out), re-rendering when it changes. */
export function useConfig(): ProjectConfig | undefined {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((v) => v + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return current?.config;
}

function replaceConfig(config: ProjectConfig): ProjectConfig {
  const now = session();
  // The master key or the ids may have changed: the token of before may no longer fit.
  if (config.masterKey !== now.masterKey || config.authenticationId !== now.config.authenticationId)
    now.token = undefined;
  // A new master key of the project signed in to is the key the tab keeps from now on.
  if (now.masterKey === now.signedInKey) {
    now.signedInKey = config.masterKey;
    sessionStorage.setItem(KEY_STORAGE, config.masterKey);
  }
  now.config = config;
  now.masterKey = config.masterKey;
  changed();
  return config;
}
