import { createAdaptorServer } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import {
  createEngine,
  developmentConfig,
  resolveConfig,
  type ConfigInput,
  type Engine,
  type RestoreSummary,
  type StateJson,
} from '@basekit/engine';
import { nodeCapabilities } from './capabilities.js';
import { dropConnection, writeJsonAnswer } from './json-response.js';
import { BUILT_PANEL_DIR, panelFiles } from './panel.js';
import { keepRequestBody } from './request-body.js';

export interface StartOptions {
  /** Config keys (see `config.schema.json`) over the built-in development config (see `developmentConfig`). */
  config?: Partial<ConfigInput>;
  /** 0 picks a free port. Default 3000. */
  port?: number;
  host?: string;
  /** Keep every state in this folder across restarts (`--data-dir`); overrides the config's `dataDir`. */
  dataDir?: string;
  /** A `GET /__admin/state` export to start from (`--import`), and to return to on reset; a data folder that holds a state keeps it instead. */
  initialState?: StateJson;
  /** The built management panel served at `/__admin/panel/` (default: the one shipped in this package; tests serve a build of their own). */
  panelDir?: string;
}

export interface RunningServer {
  /** `http://HOST:PORT`, the one origin of every area. */
  url: string;
  engine: Engine;
  /** What the data folder's state was rebuilt from; undefined without a data folder. */
  restored: RestoreSummary | undefined;
  /** Stops listening, waits for the changes under way and writes a snapshot of the state (a clean shutdown). */
  close(): Promise<void>;
}

/**
 * Starts the reference server in this process.
 *
 * @example
 * const server = await startServer({ port: 0 });
 * const res = await fetch(`${server.url}/auth/login`, { method: 'POST', headers: { 'X-Service-Authentication-Id': 'dev-auth-id', 'X-Service-Authentication-Key': 'dev-master-key' } });
 * await server.close();
 */
export async function startServer({
  config,
  port = 3000,
  host = '127.0.0.1',
  dataDir,
  initialState,
  panelDir = BUILT_PANEL_DIR,
}: StartOptions = {}): Promise<RunningServer> {
  const resolved = resolveConfig(developmentConfig(dataDir ? { ...config, dataDir } : config));
  const engine = createEngine({
    config: resolved,
    capabilities: await nodeCapabilities({ dataDir: resolved.dataDir, fsync: resolved.fsync }),
    initialState,
  });
  const restored = await engine.ready;
  // Keep the global Request/Response: fetch clients in the same process (tests) must keep working.
  const panel = panelFiles(panelDir, () => engine.project.config.headerWord[0]!);
  const server = createAdaptorServer({
    // The engine's JSON answers are written as they are (see JsonResponse); anything else goes through the adaptor.
    fetch: (request, { incoming, outgoing }) => {
      keepRequestBody(request, incoming);
      return (
        panel(request) ??
        engine
          .fetch(request)
          .then((response) =>
            response.type === 'error' ? dropConnection(outgoing) : writeJsonAnswer(response, outgoing),
          )
      );
    },
    overrideGlobalObjects: false,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  // Links the server sends (confirmation e-mails) point here unless the config has a publicUrl, never at a Host header.
  engine.projects.registry.serverUrl = url;
  return {
    url,
    engine,
    restored,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      await engine.close();
    },
  };
}
