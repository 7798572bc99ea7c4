import { request as httpRequest } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Sends a request on a connection of its own (no keep-alive pool), so that how the server ends one exchange
 * (for example closing a socket whose body it did not read) can never be mistaken for how it answered the next.
 * The body is serialized exactly as fetch would (FormData gets its multipart boundary).
 */
export async function send(url: string, init: RequestInit): Promise<Answer> {
  const request = new Request(url, init);
  const body = init.body === undefined ? undefined : new Uint8Array(await request.arrayBuffer());
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  if (body) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: request.method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
