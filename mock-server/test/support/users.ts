// The Node server's tests sign users in with the engine's own test helpers (packages/engine/test/support).
export * from '../../../packages/engine/test/support/users.js';
