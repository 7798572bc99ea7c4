import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Contract, Operation } from '../support/contract.js';

/**
 * The one address the SDK talks to in the Prism run. Everything goes on to Prism, except two kinds of request that
 * Prism 5.14 cannot pass through faithfully (docs/reliability.md has the evidence):
 * - downloads whose saved path has several segments: an OpenAPI path parameter cannot span `/`
 *   (OAI/OpenAPI-Specification#892, #2204), so Prism answers NO_PATH_MATCHED for `GET /{bucket}/{path}`;
 * - multipart uploads (`POST /files`): Prism's proxy re-encodes the body as UTF-8 text, so every byte of a file
 *   above 0x7F arrives as U+FFFD (stoplightio/prism#2475), and it refuses forms that leave out optional fields.
 * Those go to the server directly and are checked here against the same contract operation instead: the request
 * form against its schema, the response's status and JSON body against the documented ones.
 */
export async function startFront(options: {
  prism: string;
  server: string;
  bucket: string;
  contract: Contract;
  violations: string[];
}): Promise<{ url: string; server: Server; checkedHere: () => number }> {
  const { prism, server, bucket, contract, violations } = options;
  let checkedHere = 0;
  const operation = (id: string) => contract.operations.find((op) => op.id === id)!;

  /** The operation this request is checked against here, or undefined when Prism checks it. */
  function bypassed(req: IncomingMessage): Operation | undefined {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const segments = path.split('/').slice(1);
    if (req.method === 'GET' && segments[0] === bucket && segments.length > 2) return operation('downloadFile');
    if (req.method === 'POST' && path === '/files' && /^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
      return operation('uploadFiles');
    return undefined;
  }

  async function checkUpload(op: Operation, req: IncomingMessage, body: Buffer): Promise<void> {
    const form = await new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type']! },
      body: new Uint8Array(body),
    }).formData();
    const fields: Record<string, string> = {};
    for (const [key, value] of form) fields[key] = typeof value === 'string' ? value : '(file)';
    const problem = contract.checkRequestBody(op, 'multipart/form-data', fields);
    if (problem) violations.push(`${req.method} ${req.url}: ${problem}`);
  }

  function forward(req: IncomingMessage, res: ServerResponse, target: string, op: Operation | undefined): void {
    const requestChunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => requestChunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(requestChunks);
      if (op?.id === 'uploadFiles')
        void checkUpload(op, req, body).catch((error: Error) =>
          violations.push(`${req.url}: unreadable form: ${error.message}`),
        );
      const upstream = httpRequest(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            res.write(chunk);
          });
          answer.on('end', () => {
            res.end();
            if (!op) return;
            const type = answer.headers['content-type'] ?? null;
            const text = Buffer.concat(chunks).toString('utf8');
            const problem = contract.checkResponse(
              op,
              answer.statusCode ?? 0,
              type,
              type?.includes('json') ? JSON.parse(text) : text,
            );
            if (problem) violations.push(`${req.method} ${req.url}: ${problem}`);
          });
        },
      );
      upstream.on('error', (error) => res.destroy(error));
      upstream.end(body);
    });
  }

  const front = createServer((req, res) => {
    const op = bypassed(req);
    if (op) checkedHere++;
    forward(req, res, op ? server : prism, op);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    server: front,
    checkedHere: () => checkedHere,
  };
}
