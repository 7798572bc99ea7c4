import type { Context } from 'hono';
import type { AppliedFault } from '../faults/faults.js';
import type { Moment } from './moment.js';
import type { Project } from './project.js';
import type { AccessClaims } from './auth/tokens.js';

/** The config key that bounds a route's request body (see `changes` in `durability/declarations.ts`). */
export type BodyLimitKey = 'maxJsonBodyBytes' | 'maxUploadBytes';

/** Hono's typed context for every engine route. */
export interface AppEnv {
  /** Handed to every request by `createEngine` (no middleware needed). */
  Bindings: {
    project: Project;
    /** What the request reads from outside its input and the state: its time, random bytes, secret outcomes. */
    moment: Moment;
    /** The fault this request got (`POST /__admin/faults`): it answers in place of the routes, or delayed them. */
    fault?: AppliedFault;
  };
  Variables: {
    /** The config key bounding the request body, when its route declares one (`changes({ bodyLimit })`). */
    bodyLimit?: BodyLimitKey;
    /** Set by the `bearer`/`master` middlewares. */
    principal: Principal;
    /** The request body as `readBody` read it (the request inspector shows it). */
    requestBody: Uint8Array;
    /** The request body as `readForm` parsed it. */
    requestForm: FormData;
    /** The JSON text `c.json` answered with (`jsonAnswer`), for the request inspector. */
    responseJson: string;
  };
}

export type AppContext = Context<AppEnv>;

/** Who is calling: a user with a client token, or the project administrator with a master token. */
export interface Principal extends AccessClaims {
  isMaster: boolean;
}
