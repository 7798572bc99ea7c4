import type { paths } from '../generated/schema.js';

type Operation<P extends keyof paths, M extends keyof paths[P]> = paths[P][M];
type Json<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/** The JSON request body of an operation of the contract. */
export type JsonBody<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { requestBody?: infer Body } ? Json<Body> : never;

/** The JSON success body (200, 201 or 202) of an operation of the contract. */
export type JsonResult<P extends keyof paths, M extends keyof paths[P]> =
  Operation<P, M> extends { responses: infer Responses }
    ? { [Status in keyof Responses]: Status extends 200 | 201 | 202 ? Json<Responses[Status]> : never }[keyof Responses]
    : never;
