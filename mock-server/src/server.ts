import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
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
import { ConnectionLimiter } from './connections.js';
import { dropConnection, writeJsonAnswer } from './json-response.js';
import { BUILT_PANEL_DIR, panelFiles } from './panel.js';
import { keepRawHeaders } from './kept-headers.js';
import { keepRequestBody } from './request-body.js';
import { machineNames, urlHost } from './tls/addresses.js';
import type { ServedCertificate } from './tls/certificate.js';
import type { FetchCallback } from './tls/https.js';
import { userDataFolder } from './tls/user-folder.js';
import { finishBody } from './unread-body.js';

/**
 * What `startServer` takes: the project's config, where to listen, and where to keep the state.
 *
 * @example
 * const server = await startServer({ port: 0, config: { emailConfirmation: true }, dataDir: '.basekit-data' });
 */
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
  /** Also serve everything over HTTPS on this port, beside HTTP (`--https-port`; 0 picks a free one); overrides the config's `httpsPort`. */
  httpsPort?: number;
  /** PEM certificate (chain) and key files to serve over HTTPS (`--tls-cert`, `--tls-key`); without them, a certificate of the local CA. */
  tlsCert?: string;
  tlsKey?: string;
  /** Where the local CA and the server's certificate are kept; default `tls` in the data folder, else in the per-user folder (`userDataFolder()`). */
  tlsDir?: string;
}

/**
 * A reference server running in this process.
 *
 * @example
 * const server: RunningServer = await startServer({ port: 0 });
 * const client = createClient({ baseUrl: server.url, ...keys });
 * afterAll(() => server.close());
 */
export interface RunningServer {
  /** `http://HOST:PORT`, the one origin of every area. */
  url: string;
  /** `https://HOST:PORT` when HTTPS is served too (`httpsPort`): the same areas, panel and admin API, the same state. */
  httpsUrl: string | undefined;
  /** The certificate served over HTTPS: the file clients trust (the local CA's certificate, or the given one). */
  certificate: ServedCertificate | undefined;
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
  initialState,
  panelDir = BUILT_PANEL_DIR,
  tlsDir,
  ...serverKeys
}: StartOptions = {}): Promise<RunningServer> {
  // dataDir, httpsPort, tlsCert and tlsKey given here override the config's.
  const given = Object.fromEntries(Object.entries(serverKeys).filter(([, value]) => value !== undefined));
  const resolved = resolveConfig(developmentConfig({ ...config, ...given }));
  // Loaded only for HTTPS: a server without it starts as it did before.
  const https =
    resolved.httpsPort === undefined
      ? undefined
      : await (await import('./tls/https.js')).prepareHttps({
          port: resolved.httpsPort,
          host,
          folder: tlsDir ?? join(resolved.dataDir ?? userDataFolder(), 'tls'),
          certFile: resolved.tlsCert,
          keyFile: resolved.tlsKey,
        });
  const engine = createEngine({
    config: resolved,
    capabilities: {
      ...(await nodeCapabilities({ dataDir: resolved.dataDir, fsync: resolved.fsync })),
      // The transcoder fetching from this server's own HTTPS address trusts its CA, as the app that gave the URL does.
      ...(https?.fetch && { fetch: https.fetch }),
    },
    initialState,
    network: { names: [host, ...machineNames()] },
  });
  const restored = await engine.ready;
  // Keep the global Request/Response: fetch clients in the same process (tests) must keep working.
  const panel = panelFiles(panelDir, () => engine.project.config.headerWord[0]!);
  // The engine's JSON answers are written as they are (see JsonResponse); anything else goes through the adaptor. A
  // `Response.error()` (a fault's dropped connection) is no answer at all.
  const fetch: FetchCallback = (request, { incoming, outgoing }) => {
    keepRequestBody(request, incoming);
    keepRawHeaders(request, incoming);
    return (
      panel(request) ??
      engine.fetch(request).then((response) => {
        if (response.type === 'error') return dropConnection(outgoing);
        // A body not read whole is read (or its connection closed) first: see finishBody.
        const reading = finishBody(incoming, outgoing);
        return reading ? reading.then(() => writeJsonAnswer(response, outgoing)) : writeJsonAnswer(response, outgoing);
      })
    );
  };
  const server = createAdaptorServer({ fetch, overrideGlobalObjects: false });
  // One cap for both listeners: their connections take files of the same process.
  const connections = new ConnectionLimiter(() => engine.project.config);
  connections.watch(server as Server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${urlHost(address.address)}:${address.port}`;
  const secure = await https
    ?.start(fetch, (secureServer) => connections.watch(secureServer))
    .catch(async (error: unknown) => {
      // The HTTP side listens already: a start that fails leaves nothing running.
      await new Promise((resolve) => server.close(resolve));
      await engine.close();
      throw error;
    });
  // Links the server sends (confirmation e-mails) point here unless the config has a publicUrl, never at a Host header.
  engine.projects.registry.serverUrl = url;
  return {
    url,
    httpsUrl: secure?.url,
    certificate: https?.certificate,
    engine,
    restored,
    close: async () => {
      await Promise.all([
        secure?.close(),
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        }),
      ]);
      await engine.close();
    },
  };
}
