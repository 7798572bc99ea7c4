import { createUser, masterAuth, type TestUser } from '../../../mock-server/test/support/users.js';
import type { TestServer } from '../../../mock-server/test/support/server.js';

interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

/**
 * Direct calls to the reference server in the spec's own shapes (its paths, `X-Service-…` headers), to set up what
 * a published client's call needs and to check what the call did.
 */
export interface Service {
  /** `{ Authorization }` of a master token. */
  master: Record<string, string>;
  /** A JSON request with the area's id header (chosen by the path) and the given authorization. */
  call<T = Record<string, unknown>>(
    method: string,
    path: string,
    auth: Record<string, string>,
    body?: unknown,
  ): Promise<Reply<T>>;
  /** A new registered, logged-in user whose username starts with `prefix`. */
  user(prefix: string): Promise<TestUser>;
  /** Creates a row with the master token; returns its `_id`. */
  row(table: string, values: Record<string, unknown>): Promise<string>;
  /** Submits a game event as `user`. */
  event(user: TestUser, eventName: string, values: Record<string, number>): Promise<void>;
}

/** The id header of the area a path belongs to. */
function areaHeader(server: TestServer, path: string): Record<string, string> {
  const { authenticationId, objectStorageId, gameId } = server.config;
  if (path.startsWith('/auth/')) return { 'X-Service-Authentication-Id': authenticationId };
  if (path.startsWith('/object-storage/')) return { 'X-Service-Object-Storage-Id': objectStorageId };
  if (path.startsWith('/game/')) return { 'X-Service-Game-Id': gameId };
  return {};
}

/** Logs in as master on `server` and returns the calls of `Service`. */
export async function connectService(server: TestServer): Promise<Service> {
  const master = await masterAuth(server);
  let users = 0;
  const call = async <T>(
    method: string,
    path: string,
    auth: Record<string, string>,
    body?: unknown,
  ): Promise<Reply<T>> => {
    const headers = {
      ...areaHeader(server, path),
      ...auth,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    };
    const res = await server.request(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const expectOk = <T>(reply: Reply<T>, what: string): Reply<T> => {
    if (reply.status >= 300) throw new Error(`setup: ${what} answered ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply;
  };
  return {
    master,
    call,
    user: (prefix) =>
      createUser(server, `${prefix}${++users}`, { firstName: prefix, email: `${prefix}${users}@example.com` }),
    async row(table, values) {
      return expectOk(
        await call<{ _id: string }>('POST', `/object-storage/classes/${table}`, master, values),
        `create ${table} row`,
      ).body._id;
    },
    async event(user, eventName, values) {
      const fieldsAndValues = Object.entries(values).map(([fieldName, value]) => ({ fieldName, value }));
      expectOk(await call('POST', '/game/events', user.auth, { eventName, fieldsAndValues }), `event ${eventName}`);
    },
  };
}
