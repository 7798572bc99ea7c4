// Vitest global set-up (vitest.config.ts): one reference server for the whole run, its address and admin key
// provided to the tests as `sharedServer`, where each test file creates a project of its own (shared-server.ts).
import type { TestProject } from 'vitest/node';
import { startServer } from '../../src/server.js';

export default async function setup({ provide }: TestProject): Promise<() => Promise<void>> {
  const server = await startServer({ port: 0 });
  provide('sharedServer', { url: server.url, adminKey: server.engine.project.config.masterKey });
  return () => server.close();
}
