// The one way the tests launch a browser: the machine's Chromium (found by programs.ts) through playwright-core.
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';
import { CHROMIUM, programPath } from './programs.js';

/** Headless, usable as root in a container, and none of Chromium's own traffic (updates, sync, QUIC probes). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Options that launch the machine's Chromium with the usual flags and `args` besides. Throws, naming what to
 * install, when there is no Chromium.
 */
function chromiumOptions(args: string[] = []): LaunchOptions {
  return { executablePath: programPath(CHROMIUM), args: [...CHROMIUM_ARGS, ...args] };
}

/** Launches Chromium for this process, with `args` besides the usual flags. */
export function launchChromium(args?: string[]): Promise<Browser> {
  return chromium.launch(chromiumOptions(args));
}

/** Launches Chromium for other processes too: they connect with `chromium.connect(server.wsEndpoint())`. */
export function launchChromiumServer(args?: string[]): Promise<BrowserServer> {
  return chromium.launchServer(chromiumOptions(args));
}
