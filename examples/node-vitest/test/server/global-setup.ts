// Vitest global set-up: one reference server for the whole run, in Vitest's main process, or the one at BASEKIT_URL
// (a CI service container: docs/ci/github-actions.yml). The tests learn its address and admin key through
// `inject('basekitServer')` and each test file creates a project of its own on it (project.ts), so files running at
// once in parallel workers never see each other's users, rows or scores.
import { startServer } from '@basekit/mock-server';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    basekitServer: { url: string; adminKey: string };
  }
}

export default async function setup({ provide }: TestProject) {
  const { BASEKIT_URL: url, BASEKIT_ADMIN_KEY: adminKey = 'dev-master-key' } = process.env;
  if (url) {
    provide('basekitServer', { url, adminKey });
    return;
  }
  // Port 0: a free port. The server's own (default) project is the admin: its master key creates projects.
  const server = await startServer({ port: 0 });
  provide('basekitServer', { url: server.url, adminKey: server.engine.project.config.masterKey });
  return () => server.close();
}
