// Every call of the panel goes through here, on the SDK, typed by the contract: the admin API with the project's
// master key (`@basekit/sdk/admin`), and the service's own API with a master token (the SDK's transport, so its
// errors are the SDK's too). The panel has no back door. The project the panel works on is held in one place
// (`current`): the project of the key signed in with, or another of the server's projects (`switchProject`, when
// that key is the server's admin key).
import { createAdminClient, type AdminClient, type Config, type ConfigKeys } from '@basekit/sdk/admin';
import { ForbiddenError, createHttpClient, dataOf, type HttpClient } from '@basekit/sdk/core';
import { useLayoutEffect, useState } from 'preact/hooks';

export { dataOf };

/** The project's config as `GET /__admin/config` answers it. */
export type ProjectConfig = Config;

const KEY_STORAGE = 'basekit-panel:master-key';

/** The word of the header names (`X-<word>-Authentication-Key`): the server writes it into the page it serves. */
const servedHeaderWord =
  document.querySelector<HTMLMetaElement>('meta[name="basekit-header-word"]')?.content || 'Service';

/** The server that serves the panel: every call goes there. */
const origin = location.origin;

/** A fetch as the SDK's transport takes it. */
type Transport = (request: Request) => Promise<Response>;

/**
 * The panel's session: the key signed in with (this tab's sessionStorage only), the project worked on with its
 * master key and a master token of it, and that project's two clients.
 */
interface Current {
  signedInKey: string;
  /** The id (authentication id) of the project of that key, as it was at sign-in. */
  signedInProject: string;
  masterKey: string;
  config: ProjectConfig;
  token: { value: string; expiresAt: number } | undefined;
  admin: AdminClient;
  service: HttpClient;
}

let current: Current | undefined;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function session(): Current {
  if (!current) throw new Error('not signed in');
  return current;
}

/** The current project's admin API (its master key). */
export const admin = (): AdminClient => session().admin;

/**
 * The current project's service API (the operations of openapi/areas/), with a master token and the project's ids: a 401 renews the
 * token once and replays the call, since the server's clock may have been moved past its expiry.
 */
export const service = (): HttpClient => session().service;

/** The admin API with the key signed in with (or `key`), in the server's header word: the projects API, the sign-in. */
const serverAdmin = (key = session().signedInKey) =>
  createAdminClient({ baseUrl: origin, masterKey: key, headerWord: servedHeaderWord });

/** The ids of the project as the service's headers: each area reads the one it needs. */
const projectHeaders = (config: ProjectConfig): Record<string, string> => ({
  'X-Service-Authentication-Id': config.authenticationId,
  'X-Service-Object-Storage-Id': config.objectStorageId,
  'X-Service-Storage-Id': config.storageId,
  'X-Service-Game-Id': config.gameId,
});

/** The two clients of a project, in its header word. */
function clientsOf(config: ProjectConfig, masterKey: string): Pick<Current, 'admin' | 'service'> {
  const headerWord = config.headerWord[0];
  return {
    admin: createAdminClient({ baseUrl: origin, masterKey, authenticationId: config.authenticationId, headerWord }),
    service: createHttpClient(origin, projectHeaders(config), {
      headerWord,
      fetch: withMasterToken((request) => fetch(request)),
    }),
  };
}

/** A master token (`POST /auth/login` with the master key), kept until it expires. */
async function masterToken(renew = false): Promise<string> {
  const now = session();
  if (!renew && now.token && now.token.expiresAt > Date.now()) return now.token.value;
  const login = createHttpClient(
    origin,
    { ...projectHeaders(now.config), 'X-Service-Authentication-Key': now.masterKey },
    { headerWord: now.config.headerWord[0] },
  );
  const { access_token, expires_in } = await dataOf(login.POST('/auth/login', {}));
  now.token = { value: access_token, expiresAt: Date.now() + expires_in * 1000 };
  return access_token;
}

/**
 * `transport` with the master token on each request; a 401 renews the token once and sends the request again.
 * `service().POST(…, { fetch: withMasterToken(xhrFetch(onProgress)) })` sends one call another way (an upload with
 * progress).
 */
export function withMasterToken(transport: Transport): Transport {
  return async (request) => {
    const replay = request.clone();
    request.headers.set('Authorization', `Bearer ${await masterToken()}`);
    const response = await transport(request);
    if (response.status !== 401) return response;
    replay.headers.set('Authorization', `Bearer ${await masterToken(true)}`);
    return transport(replay);
  };
}

/**
 * Signs in with a master key: the key is checked by reading its project's config with it (a `ForbiddenError` when
 * wrong); that project becomes the current one.
 */
export async function signIn(masterKey: string): Promise<void> {
  const config = await serverAdmin(masterKey).config.get();
  current = {
    signedInKey: masterKey,
    signedInProject: config.authenticationId,
    masterKey,
    config,
    token: undefined,
    ...clientsOf(config, masterKey),
  };
  sessionStorage.setItem(KEY_STORAGE, masterKey);
  changed();
}

/** The id of the project signed in to (the URL names other projects, not this one). */
export function signedInProject(): string {
  return session().signedInProject;
}

/**
 * The server's projects, the default one first (`GET /__admin/projects`); undefined when the key signed in with is
 * not the server's admin key (the default project's master key), which alone may list them.
 */
export async function listProjects() {
  try {
    return await serverAdmin().projects.list();
  } catch (error) {
    if (error instanceof ForbiddenError) return undefined;
    throw error;
  }
}

/**
 * Makes another of the server's projects the current one (undefined: the project of the key signed in with): every
 * call from now on carries its ids and master key.
 */
export async function switchProject(id: string | undefined): Promise<void> {
  const now = session();
  const config = id === undefined ? await serverAdmin().config.get() : (await serverAdmin().projects.get(id)).config;
  current = { ...now, masterKey: config.masterKey, config, token: undefined, ...clientsOf(config, config.masterKey) };
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
export async function updateConfig(keys: ConfigKeys): Promise<ProjectConfig> {
  return replaceConfig(await admin().config.update(keys));
}

/** Reads the config again (after a reset or an import, which may change it). */
export async function reloadConfig(): Promise<ProjectConfig> {
  return replaceConfig(await admin().config.get());
}

/** The current project's config (undefined when signed out), re-rendering when it changes. */
export function useConfig(): ProjectConfig | undefined {
  const [, setVersion] = useState(0);
  // Listening from the task that renders, not after the next paint: a change in between is not missed.
  useLayoutEffect(() => {
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
  Object.assign(now, { config, masterKey: config.masterKey }, clientsOf(config, config.masterKey));
  changed();
  return config;
}
