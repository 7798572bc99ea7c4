// Vitest global set-up of the Playwright tests on one reference server (vitest.config.ts at the repository root):
// the server, the page built once and served, and one Chromium that every worker connects to. Each worker gets a
// project and a browser context of its own (fixtures.ts), so test files run in parallel without meeting.
import { startServer } from '@basekit/mock-server';
import type { TestProject } from 'vitest/node';
import { launchChromiumServer, serveBuild } from '../support.js';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: { serverUrl: string; adminKey: string; siteUrl: string; browserEndpoint: string };
  }
}

export default async function setup({ provide }: TestProject) {
  // A plain build: with `?server=` any build talks to a reference server.
  const [server, site, chromium] = await Promise.all([
    startServer({ port: 0 }),
    serveBuild('production'),
    launchChromiumServer(),
  ]);
  provide('e2e', {
    serverUrl: server.url,
    adminKey: server.engine.project.config.masterKey,
    siteUrl: site.url,
    browserEndpoint: chromium.wsEndpoint(),
  });
  return async () => {
    await chromium.close();
    await site.close();
    await server.close();
  };
}
