import { createServer, type Server } from 'node:http';

/** A page's files by URL path, e.g. `/` and `/app.js`. */
export type Site = Map<string, { contents: Uint8Array | string; type: string }>;

/** Serves `site` from 127.0.0.1 on a free port (service workers need a secure context: localhost counts). */
export async function serveSite(site: Site): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const file = site.get(new URL(request.url ?? '/', 'http://host').pathname);
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { 'Content-Type': file.type, 'Cache-Control': 'no-store' }).end(file.contents);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}
