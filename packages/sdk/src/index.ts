/**
 * `@basekit/sdk`: the typed client of the basekit service.
 *
 * @example
 * import { createClient, op, NotFoundError } from '@basekit/sdk';
 * const client = createClient({ baseUrl, authenticationId, clientKey, objectStorageId });
 * await client.auth.login('ann', 's3cret');
 * await client.db.table('Note').create({ title: 'Hello' });
 *
 * @module @basekit/sdk
 */
import type * as Contract from './generated/schema.js';

export { createClient, type Client, type ClientOf } from './client.js';
export * from './core/index.js';
export * from './auth/index.js';
export * from './db/index.js';
export * from './files/index.js';
export * from './transcoder/index.js';
export * from './leaderboards/index.js';

// The contract's types, as openapi-typescript generates them from openapi/dist/basekit.yaml (each described there).
/**
 * The contract's operations by path and method: parameters, bodies and answers of each.
 *
 * @example
 * type LoginAnswer = paths['/auth/login']['post']['responses'][200]['content']['application/json'];
 */
export type paths = Contract.paths;
/**
 * The contract's schemas (`components['schemas']`), parameters and answers.
 *
 * @example
 * type User = components['schemas']['User'];
 */
export type components = Contract.components;
/**
 * The contract's operations by their `operationId`.
 *
 * @example
 * type FileInfoAnswer = operations['getFileInfo']['responses'][200]['content']['application/json'];
 */
export type operations = Contract.operations;
/**
 * The requests the service sends to addresses of yours (the transcoder's notifications and deliveries).
 *
 * @example
 * type Webhooks = keyof webhooks;
 */
export type webhooks = Contract.webhooks;
