import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { getPath } from 'hono/utils/url';
import { adminRoutes } from './admin/routes.js';
import type { Area } from './area.js';
import { AREAS } from './areas/index.js';
import { resolveConfig, DEFAULT_CONFIG } from './config.js';
import { defaultCapabilities, type Capabilities } from './shared/capabilities.js';
import type { AppEnv } from './shared/env.js';
import { ApiError, ErrorCode, errorResponse } from './shared/errors.js';
import { withServiceHeaders } from './shared/header-word.js';
import { servicePath } from './shared/path.js';
import { DurableState } from './shared/journal.js';
import { importInitialState, type RestoreSummary } from './shared/restore.js';
import { Project, type StateJson } from './shared/project.js';
import { createRoutes } from './shared/routes.js';
import { recordedBodyLimit, requestKind } from './request-kinds.js';

export interface EngineOptions {
  /** A project config (see `config.schema.json`); the built-in development config when absent. */
  config?: unknown;
  /** Platform capabilities; browser-safe defaults where absent. */
  capabilities?: Partial<Capabilities>;
  /** Called with every error that is not the client's fault (the response is a 500). */
  onInternalError?: (error: unknown) => void;
  /**
   * A state to start from (a `GET /__admin/state` export), which `POST /__admin/reset` returns to as well. With a
   * journal that already keeps a state, that state is restored instead.
   */
  initialState?: StateJson;
}

/** The whole service as one web-standard handler over in-memory state. */
export interface Engine {
  fetch(request: Request): Promise<Response>;
  project: Project;
  /**
   * Settles once the state is ready: at once in memory; with a journal, once the kept state is rebuilt (requests wait
   * for it). Rejects with a `StateRestoreError` when the kept state cannot be read.
   */
  ready: Promise<RestoreSummary | undefined>;
  /** Waits for the changes under way and, with a journal, writes a snapshot (a clean shutdown). */
  close(): Promise<void>;
  /** Makes `state` what `POST /__admin/reset` returns to (as `initialState` does at start); with a journal, kept at once. */
  setInitialState(state: StateJson): Promise<void>;
}

/**
 * Creates the engine: the five areas of the service over one project's state, as a `Request -> Response` handler
 * that runs the same in Node and in browsers.
 *
 * @example
 * const engine = createEngine({ config: { authenticationId: 'a', clientKey: 'c', masterKey: 'm', objectStorageId: 'd', storageId: 's', gameId: 'g' } });
 * const res = await engine.fetch(new Request('http://local/auth/login', { method: 'POST', headers: { 'X-Service-Authentication-Id': 'a', 'X-Service-Authentication-Key': 'm' } }));
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const config = resolveConfig(options.config ?? DEFAULT_CONFIG);
  const areas: readonly Area[] = AREAS;
  const project = new Project(config, { ...defaultCapabilities(), ...options.capabilities }, areas.map((a) => a.state));
  for (const area of areas) area.attach?.(project);

  const app = createRoutes((request) => servicePath(getPath(request)));
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(error);
    if (error instanceof HTTPException && error.status < 500) return errorResponse(new ApiError(error.status, ErrorCode.VALIDATION_FAILED, error.message));
    (options.onInternalError ?? console.error)(error);
    return c.json({ code: ErrorCode.INTERNAL, error: 'internal server error' }, 500);
  });
  app.notFound(() => errorResponse(new ApiError(404, ErrorCode.ROUTE_NOT_FOUND, 'no such operation')));
  // Browser apps call the service from their own origin; downloads expose the headers players and savers read.
  // Only requests with an Origin (browsers) need CORS headers: others skip the middleware's cost.
  const allowOrigins = cors({ origin: '*', exposeHeaders: ['Content-Disposition', 'Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag', 'Last-Modified'] });
  app.use('*', (c, next) => (c.req.header('origin') === undefined ? next() : allowOrigins(c, next)));
  app.route('/', adminRoutes);
  for (const area of areas) app.route('/', area.routes);

  const env = { project };
  const handle = (request: Request) => Promise.resolve(app.fetch(withServiceHeaders(request, project.config.headerWord), env));
  project.initialState = options.initialState;
  const { journal } = project.capabilities;
  if (!journal) {
    importInitialState(project);
    const setInitialState = (state: StateJson) => Promise.resolve(void (project.initialState = state));
    return { fetch: handle, project, ready: Promise.resolve(undefined), close: () => Promise.resolve(), setInitialState };
  }
  const durable = new DurableState(
    project,
    journal,
    handle,
    (request) => requestKind(request, project),
    (request) => recordedBodyLimit(request, project),
  );
  const ready = durable.restore();
  ready.catch(() => undefined); // the caller learns of it through `ready`; requests meanwhile get the error too
  const setInitialState = async (state: StateJson) => {
    await ready;
    project.initialState = state;
    await durable.snapshot();
  };
  return { fetch: (request) => ready.then(() => durable.fetch(request)), project, ready, close: () => ready.then(() => durable.close()), setInitialState };
}

export type { Config, ConfigInput, ServiceName } from './config.js';
export { DEFAULT_CONFIG, ConfigError, developmentConfig, resolveConfig } from './config.js';
export type { AsyncContext, Capabilities, BlobStore, BlobWriter, Hasher, Hashing, Journal, JournalContents, Persistence, StoredBytes, ImageResizer } from './shared/capabilities.js';
export { UnreadableSource, type ConvertPlan, type ConverterRun, type OutputPlan, type OpenedSource, type ProducedFile, type Rendition, type TranscodeRunner, type TranscoderCapability, type WatermarkLocation } from './areas/transcoder/runner.js';
export { ffmpegOptions } from './areas/transcoder/ffmpeg-options.js';
export { MAX_FRAME } from './areas/transcoder/units.js';
export { ErrorCode, type ErrorCodeValue } from './shared/errors.js';
export type { Mail, StateJson } from './shared/project.js';
export { StateRestoreError, type RestoreSummary } from './shared/restore.js';
export type { JobRecord } from './areas/transcoder/jobs.js';
