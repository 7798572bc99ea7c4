/**
 * `@basekit/sdk`: the typed client of the basekit service.
 * The helpers arrive with the SDK issue; for now the package exposes the contract's generated types.
 */
export type { paths, components, webhooks, operations } from './generated/schema.js';
