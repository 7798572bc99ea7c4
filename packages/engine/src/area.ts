import type { Hono } from 'hono';
import type { ServiceName } from './config.js';
import type { AppEnv } from './shared/env.js';
import type { Project, StateSlice } from './shared/project.js';

/** One area of the service: its routes and its slice of project state. Areas meet only through `shared/`. */
export interface Area {
  name: ServiceName;
  routes: Hono<AppEnv>;
  state: StateSlice<unknown>;
  /** Called once per project, after it is created; wires what the area offers to the others. */
  attach?(project: Project): void;
}
