import type { MiddlewareHandler } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import type { RouterRoute } from 'hono/types';
import type { AppEnv, BodyLimitKey } from '../env.js';
import type { StateSlice } from '../project.js';
import type { SecretInputs } from './record-secrets.js';

/**
 * What a route says about the state it changes: whether it changes any, and how the change is kept. The journal reads
 * it before it handles a request (`DurableState`); the route's body readers read `bodyLimit` (`readBody`).
 */
export interface Durability {
  /**
   * `nothing`; `memory`: only what lives for the server's run (the request inspector), which no restart keeps;
   * `state`: the project's state, which the journal keeps and replays at start-up.
   */
  changes: 'nothing' | 'memory' | 'state';
  /** A slice that keeps itself where the platform lets it (`persistsItself`): the change is then not recorded. */
  keptBy?: StateSlice<unknown>;
  /** The change replaces the whole state (an import): kept as the snapshot it leaves, not as the request it was. */
  whole?: boolean;
  /** The config key that bounds the request body: the route reads no further, nor does the journal before it. */
  bodyLimit: BodyLimitKey;
  /** The inputs that carry a password or a token, which the journal never writes. */
  secrets?: SecretInputs;
}

/** What `changes` may say beyond "it changes the project's state, and the journal keeps it as the request". */
type ChangeOptions = Partial<Pick<Durability, 'keptBy' | 'whole' | 'bodyLimit' | 'secrets'>>;

const DURABILITY = Symbol('durability');

type Declared<H> = H & { [DURABILITY]: Durability };

const declared = <H extends object>(handler: H): handler is Declared<H> => DURABILITY in handler;

/**
 * `handler` carrying `durability`, for `declaredDurability` to find; run, it hands the route's body limit to the
 * readers (`bodyLimitOf`) first.
 */
function carrying(durability: Durability, handler: MiddlewareHandler<AppEnv>): Declared<MiddlewareHandler<AppEnv>> {
  const { bodyLimit } = durability;
  const run: MiddlewareHandler<AppEnv> =
    bodyLimit === 'maxJsonBodyBytes'
      ? (c, next) => handler(c, next)
      : (c, next) => {
          c.set('bodyLimit', bodyLimit);
          return handler(c, next);
        };
  return Object.assign(run, { [DURABILITY]: durability });
}

/** A declaration: a middleware that does nothing but what `carrying` adds, wherever it is left among the handlers. */
const declaration = (durability: Durability) => carrying(durability, (_c, next) => next());

/**
 * The handlers of one route with its declaration taken off and carried by the last one (the route's own handler):
 * a request then pays for no step of its own (each middleware is one more `await` in Hono's chain, measured at 2 to
 * 4 µs of CPU on a get-by-id). `createRoutes` registers every route of the engine so.
 */
export function onLastHandler<H extends object>(handlers: readonly H[]): H[] {
  const at = handlers.findIndex(declared);
  if (at < 0 || at === handlers.length - 1) return [...handlers];
  const { [DURABILITY]: durability } = handlers[at] as Declared<H>;
  const rest = handlers.filter((_, i) => i !== at);
  const own = rest.pop() as MiddlewareHandler<AppEnv>;
  return [...rest, carrying(durability, own) as unknown as H];
}

/**
 * Declares a route that changes nothing: the journal lets it run beside anything and keeps nothing of it.
 *
 * @example
 * databaseRoutes.get('/object-storage/classes/:table/:id', reads, (c) => c.json(getRow(...)));
 */
export const reads = declaration({ changes: 'nothing', bodyLimit: 'maxJsonBodyBytes' });

/**
 * Declares a route that changes only what lives for the server's run (the request inspector): nothing a restart
 * keeps, so the journal treats it as it treats a read.
 */
export const changesMemoryOnly = declaration({ changes: 'memory', bodyLimit: 'maxJsonBodyBytes' });

/**
 * Declares a route that changes the project's state: the journal keeps each request of it that succeeds before its
 * answer is returned, and replays it at start-up. The time it reads, the random bytes it draws and the results of its
 * work on secrets come from its `c.env.moment`, which the journal keeps and hands back.
 *
 * @example
 * usersRoutes.post('/auth/users', changes({ secrets: { json: ['password'] } }), authId, async (c) => ...);
 * filesRoutes.post('/files', changes({ keptBy: filesState, bodyLimit: 'maxUploadBytes' }), storage, async (c) => ...);
 */
export function changes(options: ChangeOptions = {}): MiddlewareHandler<AppEnv> {
  return declaration({ changes: 'state', bodyLimit: 'maxJsonBodyBytes', ...options });
}

const NOTHING: Durability = reads[DURABILITY];

/** How much a declaration keeps, to pick the most among the routes a request matches. */
const WEIGHT = { nothing: 0, memory: 1, state: 2 } as const;

/** One route of an app (a method and a path pattern) and what it declares. */
interface DeclaredRoute {
  method: string;
  path: string;
  durability: Durability;
}

/**
 * Every route of `app` with its declaration. Throws, naming them, when routes declare none: every route says whether
 * it changes state, so that none is lost at a restart by being taken for a read.
 *
 * @example
 * declaredRoutes(databaseRoutes); // [{ method: 'GET', path: '/object-storage/classes/:table/:id', durability: … }, …]
 */
export function declaredRoutes(app: { routes: readonly RouterRoute[] }): DeclaredRoute[] {
  const routes = new Map<string, DeclaredRoute | undefined>();
  for (const { method, path, handler } of app.routes) {
    if (method === 'ALL') continue; // a middleware of every route (`use`)
    const route = `${method} ${path}`;
    // Hono keeps each handler of a route as a route of its own: one of them carries the declaration.
    if (declared(handler)) routes.set(route, { method, path, durability: handler[DURABILITY] });
    else if (!routes.has(route)) routes.set(route, undefined);
  }
  const undeclared = [...routes].filter(([, route]) => !route).map(([route]) => route);
  if (undeclared.length > 0)
    throw new Error(
      `${undeclared.join(', ')}: every route declares whether it changes state (reads, changes() or changesMemoryOnly of shared/durability/declarations.ts)`,
    );
  return [...routes.values()] as DeclaredRoute[];
}

/**
 * What the routes of `app` declare, by request (see `declaredRoutes`, which throws for a route that declares nothing).
 * Of the routes a request matches (a route of a fixed path and a catch-all, such as downloads, both match), the one
 * that keeps the most counts: recording a request that changed nothing costs a record, taking a change for a read
 * would lose it at the next restart. No route matches: nothing changes.
 */
export function declaredDurability(
  app: { routes: readonly RouterRoute[] },
  pathOf: (request: Request) => string,
): (request: Request) => Durability {
  const router = new TrieRouter<Durability>();
  for (const { method, path, durability } of declaredRoutes(app)) router.add(method, path, durability);
  return (request) => {
    // Hono answers HEAD with the GET route.
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    let most = NOTHING;
    for (const [durability] of router.match(method, pathOf(request))[0])
      if (WEIGHT[durability.changes] > WEIGHT[most.changes]) most = durability;
    return most;
  };
}
