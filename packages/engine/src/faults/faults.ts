import { getPath } from 'hono/utils/url';
import { servicePath } from '../shared/http/path.js';
import type { Project } from '../shared/project.js';
import type { Fault, FaultSpec } from './fault.js';

/** A fault applied to one request, as the routes (and the request inspector) get it: which, and what it does. */
export interface AppliedFault {
  id: string;
  /** `status` and `reset` answer in place of the routes; `delay` only delays the real answer. */
  kind: 'status' | 'reset' | 'delay';
  spec: FaultSpec;
}

/** The admin API and the health check are never faulted: a test must always be able to take a fault away. */
const UNFAULTED = /^\/__(admin|health)(\/|$)/;

const kindOf = ({ status, network }: FaultSpec): AppliedFault['kind'] =>
  status !== undefined ? 'status' : network === 'reset' ? 'reset' : 'delay';

/**
 * The faults set on one project, in the order they were set, in memory only: never journaled, exported or part of a
 * named snapshot; a reset removes them all. A request gets the first fault that takes it.
 */
export class Faults {
  #list: Fault[] = [];
  #sequence = 0;

  /** The id the next fault gets. */
  nextId(): string {
    return `f${++this.#sequence}`;
  }

  /** How many faults are set (exhausted ones included); 0 keeps every request on its plain path. */
  get size(): number {
    return this.#list.length;
  }

  add(fault: Fault): Fault {
    this.#list.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.#list;
  }

  /** Removes one fault; false when there is none of that id. */
  remove(id: string): boolean {
    const before = this.#list.length;
    this.#list = this.#list.filter((fault) => fault.id !== id);
    return this.#list.length < before;
  }

  clear(): void {
    this.#list = [];
  }

  /** The fault `request` gets now, if any (counted as applied). */
  take(request: Request): AppliedFault | undefined {
    // A browser's CORS preflight is not the app's request: faulting it would only fail the request on CORS.
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) return undefined;
    const path = servicePath(getPath(request));
    if (UNFAULTED.test(path)) return undefined;
    for (const fault of this.#list) {
      if (fault.take(request.method, path)) return { id: fault.id, kind: kindOf(fault.spec), spec: fault.spec };
    }
    return undefined;
  }
}

const byProject = new WeakMap<Project, Faults>();

/** The faults of a project (none until the first is set). */
export function faultsOf(project: Project): Faults {
  let faults = byProject.get(project);
  if (!faults) {
    const created = new Faults();
    project.onReset(() => created.clear());
    byProject.set(project, (faults = created));
  }
  return faults;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Serves a request of a project that has faults set: the fault it gets (if any) waits its `delayMs`, outside any
 * turn the journal gives, so a delayed request holds up no other; then `inject` answers in its place (a status, a
 * dropped connection) or `serve` answers as always, told of the delay so the inspector can show it.
 */
export async function serveWithFaults(
  faults: Faults,
  request: Request,
  serve: (request: Request, fault?: AppliedFault) => Promise<Response>,
  inject: (request: Request, fault: AppliedFault) => Promise<Response>,
): Promise<Response> {
  const fault = faults.take(request);
  if (!fault) return serve(request);
  if (fault.spec.delayMs) await wait(fault.spec.delayMs);
  return fault.kind === 'delay' ? serve(request, fault) : inject(request, fault);
}
