// The SDK's end-to-end suite against one shared server: each test file gets a project of its own on the server that
// shared-server.setup.ts started in Vitest's global set-up, or a server of its own when no shared server runs.
import { inject } from 'vitest';
import type { ConfigInput } from '@basekit/engine';
import { createTestProject } from '../../src/testing.js';
import { TEST_CONFIG, startTestServer, type TestServer } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server of the global set-up; absent when the run has none. */
    sharedServer?: { url: string; adminKey: string };
  }
}

/** What a test needs of its backend: the address, its project's config, plain and admin requests, reset and close. */
export type TestEndpoint = Pick<TestServer, 'url' | 'config' | 'request' | 'admin' | 'reset' | 'close'>;

/**
 * A backend for one test file. With a shared server (`inject('sharedServer')`), a new project on it whose config keys
 * are the test config's and `overrides` (ids and keys generated), deleted again by `close()`; else a server of its own.
 */
export async function startTestEndpoint(overrides: Partial<ConfigInput> = {}): Promise<TestEndpoint> {
  const shared = inject('sharedServer');
  if (!shared) return startTestServer(overrides);
  const {
    authenticationId: _a,
    clientKey: _c,
    masterKey: _m,
    objectStorageId: _o,
    storageId: _s,
    gameId: _g,
    ...keys
  } = TEST_CONFIG;
  const project = await createTestProject({ ...shared, config: { ...keys, ...overrides } });
  return {
    url: project.url,
    config: project.config,
    request: (path, init) => fetch(`${project.url}${path}`, init),
    admin: (path, init = {}) => {
      // The call's own headers win, compared without regard to case.
      const headers = new Headers(project.masterHeaders);
      for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
      return fetch(`${project.url}${path}`, { ...init, headers });
    },
    reset: project.reset,
    close: project.delete,
  };
}
