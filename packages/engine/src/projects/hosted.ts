import type { Area } from '../area.js';
import type { Config } from '../config.js';
import { type AppliedFault, faultsOf, serveWithFaults } from '../faults/faults.js';
import type { Capabilities } from '../shared/capabilities.js';
import type { Durability } from '../shared/durability/declarations.js';
import { withServiceHeaders } from '../shared/http/header-word.js';
import type { DurableState } from '../shared/durability/journal.js';
import { Moment } from '../shared/moment.js';
import { Project, type StateJson } from '../shared/project.js';
import { importInitialState, type RestoreSummary } from '../shared/durability/restore.js';

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

/** The engine's routes, which every project runs. */
export interface EngineRoutes {
  /**
   * Runs a request for one project: `env` carries the project and the request's moment to every route, and the fault
   * the request got.
   */
  run(request: Request, env: { project: Project; moment: Moment; fault?: AppliedFault }): Response | Promise<Response>;
  /** What the request's route declares about the state it changes. */
  durability(request: Request): Durability;
}

/**
 * Creates a project over the areas and serves it through `routes`: each request under the project's own header
 * words, with a moment of its own (the platform's time and random bytes, unless the journal gives another); with a
 * `journal` among `capabilities`, every change kept before it is answered.
 */
export function hostProject(
  routes: EngineRoutes,
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
  const live = { project, moment: new Moment(project.clock) };
  const route = (request: Request, moment?: Moment, fault?: AppliedFault) =>
    Promise.resolve(
      routes.run(
        withServiceHeaders(request, project.config.headerWord),
        fault ? { project, moment: moment ?? live.moment, fault } : moment ? { project, moment } : live,
      ),
    );
  // With no fault set (nearly always), a request costs one check more than it would without faults at all.
  const faults = faultsOf(project);
  const delayed = new WeakMap<Request, AppliedFault>();
  // The journal hands a recorded request its own moment (`Witness`), and a replayed one the moment it kept (`Replay`).
  const handle = (request: Request, moment?: Moment) =>
    route(request, moment, faults.size === 0 ? undefined : delayed.get(request));
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
          (injected, fault) => route(injected, undefined, fault),
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
  const ready = import('../shared/durability/journal.js').then(({ DurableState }) => {
    durable = new DurableState({ project, journal, handle, declared: routes.durability });
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
