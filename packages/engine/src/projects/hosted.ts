import type { Area } from '../area.js';
import type { Config } from '../config.js';
import { type AppliedFault, faultsOf, serveWithFaults } from '../faults/faults.js';
import type { Capabilities } from '../shared/capabilities.js';
import { withServiceHeaders } from '../shared/header-word.js';
import type { DurableState } from '../shared/journal.js';
import { Project, type StateJson } from '../shared/project.js';
import { importInitialState, type RestoreSummary } from '../shared/restore.js';
import { recordedBodyLimit, requestKind, secretInputs } from '../request-kinds.js';

/**
 * One project the server holds, with how its requests are handled (kept by its own journal, if it has one).
 *
 * @example
 * for (const hosted of engine.projects.registry.list()) console.log(hosted.project.config.authenticationId);
 */
export interface HostedProject {
  project: Project;
  /** Handles a request that belongs to this project. */
  fetch(request: Request): Promise<Response>;
  /** Settles once its state is ready (rebuilt from its journal, if any); rejects with a `StateRestoreError`. */
  ready: Promise<RestoreSummary | undefined>;
  /** Waits for the changes under way and, with a journal, writes a snapshot. */
  close(): Promise<void>;
  /** Makes `state` what a reset returns to; with a journal, kept at once. */
  setInitialState(state: StateJson): Promise<void>;
}

/** The engine's routes, run for one project: `env` carries the project to every route, and the fault a request got. */
export type RouteRunner = (
  request: Request,
  env: { project: Project; fault?: AppliedFault },
) => Response | Promise<Response>;

/**
 * Creates a project over the areas and serves it through `routes`: each request under the project's own header
 * words; with a `journal` among `capabilities`, every change kept before it is answered.
 */
export function hostProject(
  routes: RouteRunner,
  areas: readonly Area[],
  config: Config,
  capabilities: Capabilities,
  initialState?: StateJson,
): HostedProject {
  const project = new Project(
    config,
    capabilities,
    areas.map((a) => a.state),
  );
  for (const area of areas) area.attach?.(project);
  const env = { project };
  const route = (request: Request, fault?: AppliedFault) =>
    Promise.resolve(routes(withServiceHeaders(request, project.config.headerWord), fault ? { project, fault } : env));
  // With no fault set (nearly always), a request costs one check more than it would without faults at all.
  const faults = faultsOf(project);
  const delayed = new WeakMap<Request, AppliedFault>();
  const handle = (request: Request) => route(request, faults.size === 0 ? undefined : delayed.get(request));
  const withFaults = (serve: (request: Request) => Promise<Response>) => (request: Request) =>
    faults.size === 0
      ? serve(request)
      : serveWithFaults(
          faults,
          request,
          (delayedRequest, fault) => {
            // Through the journal, if any, to `handle`, which hands the delay on to the request inspector.
            if (fault) delayed.set(delayedRequest, fault);
            return serve(delayedRequest);
          },
          route,
        );
  project.initialState = initialState;
  const { journal } = capabilities;
  if (!journal) {
    importInitialState(project);
    const setInitialState = (state: StateJson) => Promise.resolve(void (project.initialState = state));
    const fetch = withFaults(handle);
    project.dispatch = fetch;
    return {
      project,
      fetch,
      ready: Promise.resolve(undefined),
      close: () => Promise.resolve(),
      setInitialState,
    };
  }
  // The journal loads only where one is kept (the Node server's data folder, msw's IndexedDB), not in every browser app.
  let durable!: DurableState;
  const ready = import('../shared/journal.js').then(({ DurableState }) => {
    durable = new DurableState(project, journal, handle, {
      kind: (request) => requestKind(request, project),
      bodyLimit: (request) => recordedBodyLimit(request, project),
      secrets: secretInputs,
    });
    return durable.restore();
  });
  ready.catch(() => undefined); // the caller learns of it through `ready`; requests meanwhile get the error too
  const setInitialState = async (state: StateJson) => {
    await ready;
    project.initialState = state;
    await durable.snapshot();
  };
  const fetch = withFaults((request) => ready.then(() => durable.fetch(request)));
  project.dispatch = fetch;
  return {
    project,
    fetch,
    ready,
    close: () => ready.then(() => durable.close()),
    setInitialState,
  };
}
