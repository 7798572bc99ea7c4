import type { paths } from '../generated/schema.js';

/** The JSON request body of an operation of the contract. */
export type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

/** The JSON success body (200 or 201) of an operation of the contract. */
export type JsonResult<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { [status in 200 | 201]?: { content: { 'application/json': infer Result } } };
}
  ? Result
  : never;
