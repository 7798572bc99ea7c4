/**
 * `@basekit/sdk`: the typed client of the basekit service.
 *
 * @example
 * import { createClient, op, NotFoundError } from '@basekit/sdk';
 * const client = createClient({ baseUrl, authenticationId, clientKey, objectStorageId });
 * await client.auth.login('ann', 's3cret');
 * await client.db.table('Note').create({ title: 'Hello' });
 */
export { createClient, type Client, type ClientOf } from './client.js';
export * from './core/index.js';
export * from './auth/index.js';
export * from './db/index.js';
export * from './files/index.js';
export * from './transcoder/index.js';
export * from './leaderboards/index.js';
export type { paths, components, webhooks, operations } from './generated/schema.js';
