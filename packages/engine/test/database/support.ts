import type { TestServer } from '../support/server.js';

/** A response: the status and the JSON body, which is either the success shape or an error `{code, error}`. */
export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T & { code?: number; error?: string };
}

/** A database client for tests: every request carries the storage id and the given Authorization header. */
export function database(server: TestServer, auth: Record<string, string>) {
  const call = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> => {
    const res = await server.request(`/object-storage${path}`, {
      method,
      headers: {
        'X-Service-Object-Storage-Id': server.config.objectStorageId,
        'Content-Type': 'application/json',
        ...auth,
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Reply<T>['body'] };
  };
  return {
    call,
    create: (table: string, row: unknown) =>
      call<{ _id: string; createdAt: string }>('POST', `/classes/${table}/`, row),
    get: (table: string, id: string) => call('GET', `/classes/${table}/${id}`),
    update: (table: string, id: string, changes: unknown) =>
      call<{ updatedAt: string }>('PUT', `/classes/${table}/${id}`, changes),
    remove: (table: string, id: string) => call('DELETE', `/classes/${table}/${id}`),
    removeAll: (table: string) => call<{ deletedCount: number }>('DELETE', `/classes/${table}`),
    query: (table: string, where: unknown = {}, params = '') =>
      call<{ results: Record<string, unknown>[]; count?: number }>(
        'POST',
        `/classes/query/${table}${params ? `?${params}` : ''}`,
        where,
      ),
    batch: (requests: unknown) => call('POST', '/batch', { requests }),
  };
}

export type Database = ReturnType<typeof database>;

/** Creates rows one after the other (creation order is the default query order) and returns their ids. */
export async function seed(db: Database, table: string, rows: unknown[]): Promise<string[]> {
  const ids: string[] = [];
  for (const row of rows) {
    const { status, body } = await db.create(table, row);
    if (status !== 201) throw new Error(`seed failed: ${status} ${JSON.stringify(body)}`);
    ids.push(body._id);
  }
  return ids;
}

export const pointer = (className: string, _id: string) => ({ __type: 'Pointer', className, _id });
export const date = (iso: string) => ({ __type: 'Date', iso });
