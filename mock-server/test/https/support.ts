// Clients that trust a given CA, as an app does once the CA is installed: fetch (HTTP/1.1), node:https (HTTP/1.1,
// offering it or nothing in ALPN) and node:http2 (offering h2).
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect } from 'node:tls';
import { Agent } from 'undici';

/** fetch trusting `ca` (undici's dispatcher: this process's own trust stays as it is). */
export function trustingFetch(ca: string): typeof fetch {
  const dispatcher = new Agent({ connect: { ca } });
  return (input, init) => fetch(input, { ...init, dispatcher } as RequestInit);
}

/** An answer read whole, with the protocol it came over. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  protocol: string;
}

/** One request over HTTP/1.1 with node:https, offering `alpn` in the handshake (none by default, as most clients). */
export function overHttp1(
  url: string,
  ca: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer; alpn?: string[] } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      {
        ca,
        method: init.method ?? 'GET',
        headers: init.headers,
        ...(init.alpn && { ALPNProtocols: init.alpn }),
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks),
            protocol: `HTTP/${res.httpVersion}`,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** A node:http2 session to `origin` trusting `ca`: the client offers h2 and the server picks it. */
export async function http2Session(origin: string, ca: string): Promise<ClientHttp2Session> {
  const session = http2Connect(origin, { ca });
  await new Promise<void>((resolve, reject) => {
    session.once('connect', () => resolve());
    session.once('error', reject);
  });
  return session;
}

/** One request over an HTTP/2 session. */
export function overHttp2(
  session: ClientHttp2Session,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': init.method ?? 'GET', ':path': path, ...init.headers });
    const chunks: Buffer[] = [];
    let head: Record<string, string | string[] | undefined> = {};
    stream.on('response', (headers) => (head = headers as typeof head));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () =>
      resolve({ status: Number(head[':status']), headers: head, body: Buffer.concat(chunks), protocol: 'HTTP/2' }),
    );
    stream.on('error', reject);
    stream.end(init.body);
  });
}

/** The certificate (DER, as its SHA-256 fingerprint) a TLS server at `url` presents, and whether `ca` verifies it. */
export function presentedCertificate(
  url: string,
  ca: string,
): Promise<{ fingerprint256: string; authorized: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tlsConnect(
      { host: hostname, port: Number(port), ca, servername: undefined, rejectUnauthorized: false },
      () => {
        resolve({ fingerprint256: socket.getPeerCertificate().fingerprint256, authorized: socket.authorized });
        socket.end();
      },
    );
    socket.on('error', reject);
  });
}

/** A multipart upload body as fetch would send it: its bytes and content type. */
export async function multipart(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}
