/**
 * `@basekit/engine`: the whole service as one web-standard `Request -> Response` handler over in-memory state, and
 * the interfaces through which a platform lends it capabilities (disk, hashing, images, ffmpeg). The reference server
 * (`@basekit/mock-server`) and the msw handlers (`@basekit/msw`) both wrap it.
 *
 * @example
 * import { createEngine } from '@basekit/engine';
 * const engine = createEngine(); // the built-in development project
 * const answer = await engine.fetch(new Request('http://local/auth/login', { method: 'POST', headers }));
 *
 * @module @basekit/engine
 */
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { getPath } from 'hono/utils/url';
import { ADMIN_PREFIX, servicePath } from './shared/http/path.js';
import { adminRoutes } from './admin/routes.js';
import { snapshotRoutes } from './admin/snapshots.js';
import type { Operation } from './operations.js';
import { faultsRoutes } from './faults/routes.js';
import { AREAS } from './areas/index.js';
import { resolveConfig, DEFAULT_CONFIG, type Config } from './config.js';
import { recordExchanges, type ExchangeListener } from './inspector/recorder.js';
import { inspectorRoutes } from './inspector/routes.js';
import { PROJECTS_ADMIN_PATH, projectsAdminRoutes } from './projects/admin-routes.js';
import { type EngineRoutes, hostProject } from './projects/hosted.js';
import { ServerProjects } from './projects/server-projects.js';
import { defaultCapabilities, type Capabilities } from './shared/capabilities.js';
import { declaredDurability } from './shared/durability/declarations.js';
import { loadOnce } from './shared/util/load-once.js';
import type { AppEnv } from './shared/env.js';
import { ApiError, ErrorCode, errorResponse } from './shared/errors.js';
import { withServiceHeaders } from './shared/http/header-word.js';
import { answerJson } from './shared/http/json-answer.js';
import { Moment } from './shared/moment.js';
import type { RestoreSummary } from './shared/durability/restore.js';
import type { Project, StateJson } from './shared/project.js';
import { createRoutes } from './shared/http/routes.js';

/**
 * What `createEngine` takes: the server's config, the platform's capabilities and where internal errors go.
 *
 * @example
 * const engine = createEngine({
 *   config: developmentConfig({ emailConfirmation: true }),
 *   onInternalError: (error) => console.error('engine bug', error),
 * });
 */
export interface EngineOptions {
  /**
   * The server's config (see `config.schema.json`): the default project's, with more projects in its `projects`;
   * the built-in development config when absent.
   */
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
  /**
   * Set when the engine is served over a network (the Node server), with the names it goes by there (the host it
   * listens on, the machine's names): admin calls are then answered only under host names the server knows, and pages
   * of other sites may not use the built-in master key (see `networkGuard`). Absent in msw, which nothing but its own
   * page or process can reach.
   */
  network?: { names: string[] };
}

/**
 * The whole service as one web-standard handler over in-memory state.
 *
 * @example
 * const engine: Engine = createEngine();
 * await engine.ready;
 * const stop = engine.onExchange((exchange) => console.log(exchange.summary().path));
 * const answer = await engine.fetch(new Request('http://local/auth/users/me'));
 * stop();
 * await engine.close();
 */
export interface Engine {
  /** Answers one request of the service (or of its admin API), as the service would. */
  fetch(request: Request): Promise<Response>;
  /** The default project: the one of the server's config, which requests that name no other project reach. */
  project: Project;
  /**
   * Every project of the server: the default one, those of the config's `projects`, those created at run time
   * (`POST /__admin/projects`, or `projects.create`), and those a data folder kept.
   */
  projects: ServerProjects;
  /**
   * Settles once the state is ready: at once in memory; with a journal, once the kept state is rebuilt (requests wait
   * for it). Rejects with a `StateRestoreError` when the kept state cannot be read, with a `ConfigError` when two
   * projects share an id.
   */
  ready: Promise<RestoreSummary | undefined>;
  /** Waits for the changes under way and, with a journal, writes a snapshot (a clean shutdown). */
  close(): Promise<void>;
  /** Makes `state` what `POST /__admin/reset` returns to (as `initialState` does at start); with a journal, kept at once. */
  setInitialState(state: StateJson): Promise<void>;
  /**
   * Calls `listener` with every request the engine answers from now on (of every project), whatever the config's
   * `inspectorLimit`; returns the function that stops it. An `Exchange` works out its masked headers and bodies only
   * when read (`summary()`, `details()`), so a listener that reads little costs little.
   */
  onExchange(listener: ExchangeListener): () => void;
}

/**
 * Creates the engine: the five areas of the service over the state of each of the server's projects, as one
 * `Request -> Response` handler that runs the same in Node and in browsers. Each request goes to the project whose
 * ids it carries (see `ProjectRegistry.resolve`), else to the default project.
 *
 * @example
 * const engine = createEngine({ config: { authenticationId: 'a', clientKey: 'c', masterKey: 'm', objectStorageId: 'd', storageId: 's', gameId: 'g' } });
 * const res = await engine.fetch(new Request('http://local/auth/login', { method: 'POST', headers: { 'X-Service-Authentication-Id': 'a', 'X-Service-Authentication-Key': 'm' } }));
 */
export function createEngine(options: EngineOptions = {}): Engine {
  const { projects: declared = [], ...config } = resolveConfig(options.config ?? DEFAULT_CONFIG);
  const capabilities = { ...defaultCapabilities(), ...options.capabilities };

  const app = withErrorHandling(
    createRoutes((request) => servicePath(getPath(request))),
    options,
  );
  const exchangeListeners = new Set<ExchangeListener>();
  const recorder = recordExchanges(exchangeListeners, options.onInternalError ?? console.error);
  // One step of Hono's chain for both (each step is an async call and its promise per request).
  const answerAndRecord: MiddlewareHandler<AppEnv> = (c, next) => {
    answerJson(c);
    return recorder(c, next);
  };
  app.use('*', answerAndRecord);
  // Browser apps call the service from their own origin; downloads expose the headers players and savers read.
  // Only requests with an Origin (browsers) need CORS headers: others skip the middleware's cost. The admin API
  // answers its own origin only (the panel): no page of another origin may send it a key or read its answers.
  const allowOrigins = cors({
    origin: '*',
    exposeHeaders: ['Content-Disposition', 'Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag', 'Last-Modified'],
  });
  const withCors: MiddlewareHandler<AppEnv> = (c, next) =>
    c.req.header('origin') === undefined || c.req.path.startsWith(ADMIN_PREFIX) ? next() : allowOrigins(c, next);
  app.use('*', withCors);
  const guard = options.network && lazyNetworkGuard(options.network.names, () => defaultProject.project.config);
  if (guard) app.use('*', guard);
  app.route('/', adminRoutes);
  app.route('/', inspectorRoutes);
  app.route('/', faultsRoutes);
  app.route('/', snapshotRoutes);
  for (const area of AREAS) app.route('/', area.routes);

  // A fault's answer, recorded as every answer is; a dropped connection has no headers to add CORS to.
  const injector = withErrorHandling(
    createRoutes((request) => servicePath(getPath(request))),
    options,
  );
  injector.use('*', answerAndRecord);
  injector.use('*', (c, next) => (c.env.fault?.kind === 'reset' ? next() : withCors(c, next)));
  // What the guard refuses is refused with a fault set too.
  if (guard) injector.use('*', guard);
  // Loaded with the first injected answer, as the faults' checks load with the first fault set.
  const answers = loadOnce(() => import('./faults/answer.js'));
  injector.all('*', async (c) => (await answers()).injectedAnswer(c, c.env.fault!));

  const routes: EngineRoutes = {
    run: (request, env) =>
      env.fault === undefined || env.fault.kind === 'delay' ? app.fetch(request, env) : injector.fetch(request, env),
    durability: declaredDurability(app, (request) => servicePath(getPath(request))),
  };
  const defaultProject = hostProject(routes, AREAS, config, capabilities, options.initialState);
  // The default project's capabilities keep its own state; every other project gets a place of its own from the store.
  const { blobs: _blobs, persistence: _persistence, journal: _journal, projects: store, ...shared } = capabilities;
  const projects = new ServerProjects(
    defaultProject,
    shared,
    (own, ownCapabilities) => hostProject(routes, AREAS, own, ownCapabilities),
    store,
  );

  const adminApp = withErrorHandling(
    createRoutes((request) => servicePath(getPath(request))),
    options,
  );
  if (guard) adminApp.use('*', guard);
  adminApp.route('/', projectsAdminRoutes(projects));
  const adminEnv = { project: defaultProject.project, moment: new Moment(defaultProject.project.clock) };
  const route = (request: Request): Promise<Response> => {
    if (isProjectsAdmin(request))
      return Promise.resolve(
        adminApp.fetch(withServiceHeaders(request, defaultProject.project.config.headerWord), adminEnv),
      );
    return projects.registry.resolve(request).fetch(request);
  };

  let started = false;
  const ready = defaultProject.ready.then(async (summary) => {
    await projects.start(declared);
    started = true;
    return summary;
  });
  ready.catch(() => undefined); // the caller learns of it through `ready`; requests meanwhile get the error too
  return {
    fetch: (request) => (started ? route(request) : ready.then(() => route(request))),
    project: defaultProject.project,
    projects,
    ready,
    close: () => ready.then(() => projects.close()),
    setInitialState: (state) => defaultProject.setInitialState(state),
    onExchange(listener) {
      exchangeListeners.add(listener);
      return () => void exchangeListeners.delete(listener);
    },
  };
}

/**
 * The network guard (`admin/network-guard.ts`), loaded with the first request: only the Node server sets `network`,
 * so a browser bundle never holds it (its host checks are for real sockets).
 */
function lazyNetworkGuard(names: string[], serverConfig: () => Config): MiddlewareHandler<AppEnv> {
  let guard: MiddlewareHandler<AppEnv> | undefined;
  // Once loaded, the guard's own promise is the answer: no async wrapper (and its promise hops) per request.
  return (c, next) =>
    guard
      ? guard(c, next)
      : import('./admin/network-guard.js').then((loaded) => {
          guard ??= loaded.networkGuard(names, serverConfig, DEFAULT_CONFIG.masterKey);
          return guard(c, next);
        });
}

/** True for the projects API, which runs apart from every project (the default one's guard, no project's journal). */
function isProjectsAdmin(request: Request): boolean {
  if (!request.url.includes(PROJECTS_ADMIN_PATH)) return false;
  const path = servicePath(getPath(request));
  return path === PROJECTS_ADMIN_PATH || path.startsWith(`${PROJECTS_ADMIN_PATH}/`);
}

/** The service's error answers on an app of the engine: its own errors as they are, a client's 4xx, a 500 otherwise. */
function withErrorHandling(app: ReturnType<typeof createRoutes>, options: EngineOptions) {
  app.onError((error, c) => {
    if (error instanceof ApiError) return errorResponse(error, c);
    if (error instanceof HTTPException && error.status < 500)
      return errorResponse(new ApiError(error.status, ErrorCode.VALIDATION_FAILED, error.message), c);
    (options.onInternalError ?? console.error)(error);
    return c.json({ code: ErrorCode.INTERNAL, error: 'internal server error' }, 500);
  });
  let operations: Operation[] | undefined;
  // Loaded with the first request of no operation (an msw handler meets many: requests that are not the service's).
  const operationNames = loadOnce(() => import('./operations.js'));
  app.notFound(async (c) => {
    const { closestOperations, operationsOf } = await operationNames();
    // The app's routes are all in place by the first request; the downloads route is each project's bucket.
    operations ??= operationsOf(app.routes);
    const downloads = { method: 'GET', segments: [c.env.project.config.bucket, '{path}'] };
    const closest = closestOperations([...operations, downloads], c.req.method, c.req.path);
    const asked = `${c.req.method} ${c.req.path.slice(0, 200)}`;
    return errorResponse(
      new ApiError(
        404,
        ErrorCode.ROUTE_NOT_FOUND,
        `no such operation: ${asked}; the closest are ${closest.join(', ')}`,
      ),
      c,
    );
  });
  return app;
}

export type { Config, ConfigInput, ServiceName } from './config.js';
export { DEFAULT_CONFIG, ConfigError, developmentConfig, resolveConfig } from './config.js';
export type {
  Capabilities,
  JsonResponseInit,
  BlobStore,
  BlobWriter,
  ByteSearch,
  ContentDigests,
  FileDigests,
  Hasher,
  Hashing,
  HmacSha256,
  Pbkdf2,
  Journal,
  JournalContents,
  Persistence,
  ProjectStore,
  StoredBytes,
  ImageResizer,
} from './shared/capabilities.js';
export type { HostedProject } from './projects/hosted.js';
export type { ProjectRegistry } from './projects/registry.js';
export type { ServerProjects } from './projects/server-projects.js';
export {
  UnreadableSource,
  type Conversion,
  type ConvertPlan,
  type ConverterRun,
  type OutputPlan,
  type OpenedSource,
  type ProducedFile,
  type Rendition,
  type TranscodeRunner,
  type TranscoderCapability,
  type WatermarkLocation,
} from './shared/transcoder-capability.js';
export { ErrorCode, StorageError, type ErrorCodeValue } from './shared/errors.js';
export type {
  BodyView,
  Caller,
  Exchange,
  ExchangeDetails,
  ExchangeSummary,
  InspectedArea,
} from './inspector/exchange.js';
export type { ExchangeListener } from './inspector/recorder.js';
export type { Mail, StateJson, StateSummary } from './shared/project.js';
export type { FaultSpec, FaultView } from './faults/fault.js';
export type { SnapshotInfo } from './shared/durability/snapshots.js';
export { StateRestoreError, type RestoreSummary } from './shared/durability/restore.js';
export type { JobRecord } from './areas/transcoder/job-record.js';
export type { FileInfo, FileRecord } from './areas/files/listing.js';
