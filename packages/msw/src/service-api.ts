/** Sends one request to the service: the engine's own `fetch`, or `fetch` to a running reference server. */
export type Send = (request: Request) => Promise<Response>;

export interface CallOptions {
  headers?: Record<string, string>;
  json?: unknown;
  body?: BodyInit;
  /** Names the call in the error thrown when the service refuses it: `seed users[1] "bob"`. */
  what?: string;
}

/** A small client of the service's own HTTP API (the operations and the admin API), used for seeding and control. */
export class ServiceApi {
  constructor(
    private readonly send: Send,
    /** Where the engine's routes start: an origin, or a server's URL. */
    private readonly root: string,
    private readonly masterKey: string,
  ) {}

  /** Calls an operation and returns its JSON answer; throws with the service's error body when it is not 2xx. */
  async call<T>(
    method: string,
    path: string,
    { headers = {}, json, body, what = `${method} ${path}` }: CallOptions = {},
  ): Promise<T> {
    const init: RequestInit = {
      method,
      headers: json === undefined ? headers : { 'Content-Type': 'application/json', ...headers },
    };
    if (json !== undefined) init.body = JSON.stringify(json);
    else if (body !== undefined) init.body = body;
    const response = await this.send(new Request(this.root + path, init));
    const text = await response.text();
    if (!response.ok) throw new Error(`${what}: the service answered ${response.status} ${text}`);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }

  /** Calls the admin API (`/__admin/...`) with the master key. */
  admin<T>(method: string, path: string, json?: unknown): Promise<T> {
    return this.call<T>(method, path, { headers: { 'X-Service-Authentication-Key': this.masterKey }, json });
  }
}
