import type { ConfigInput } from '@basekit/engine';
import { startTestServer, type TestServer } from '../../../mock-server/test/support/server.js';
import { startHeaderWordProxy } from './header-word-proxy.js';

export interface Target {
  server: TestServer;
  /** The address a published client is given: the server itself, or the proxy in front of it. */
  clientUrl: string;
  close(): Promise<void>;
}

export interface TargetOptions {
  /** Config keys over the test server's config. */
  config?: Partial<ConfigInput>;
  /** Put a proxy in front of the server that renames this word in request header names to `Service`. */
  renameHeaderWord?: string;
}

/** Starts a reference server in-process and, when asked, a header-renaming proxy in front of it. */
export async function startTarget({ config, renameHeaderWord }: TargetOptions): Promise<Target> {
  const server = await startTestServer(config);
  if (!renameHeaderWord) return { server, clientUrl: server.url, close: () => server.close() };
  const proxy = await startHeaderWordProxy(server.url, renameHeaderWord);
  return {
    server,
    clientUrl: proxy.url,
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}
