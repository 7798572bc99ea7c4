/**
 * `@basekit/msw`: mock handlers backed by the reference server's engine.
 * Filled by the msw issue; the package exists so the workspace and its build are complete.
 */
export const PACKAGE_NAME = '@basekit/msw';
