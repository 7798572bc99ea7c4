#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, resolveConfig, type Capabilities, type Config } from '@basekit/engine';
import { banner } from './banner.js';
import { SavedStateError } from './files/disk.js';
import { startServer } from './server.js';

const USAGE = 'usage: basekit-server [--config FILE] [--port N] [--host H] [--data-dir DIR]\n  --port defaults to the PORT environment variable, else 3000; 0 picks a free port. --host defaults to 127.0.0.1.';

/** Banner notes about the transcoder: why conversions cannot run here, if they cannot. */
function transcoderNotes({ transcoder }: Capabilities): string[] {
  return transcoder && 'unavailable' in transcoder ? [transcoder.unavailable] : [];
}

function fail(message: string): never {
  process.stderr.write(`basekit-server: ${message}\n`);
  process.exit(1);
}

/** A config file is the whole project: checked as it is, never filled in from the development config. */
function readConfig(file: string | undefined): Config | undefined {
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    fail(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return resolveConfig(json);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { config: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    fail(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const port = Number(values.port ?? process.env['PORT'] ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be an integer from 0 to 65535\n${USAGE}`);
  const host = values.host ?? '127.0.0.1';
  try {
    const server = await startServer({ config: readConfig(values.config), port, host, dataDir: values['data-dir'] });
    process.stdout.write(`listening on ${server.url}\n${banner(server.url, server.engine.project.config, transcoderNotes(server.engine.project.capabilities))}\n`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    if (error instanceof SavedStateError) fail(`cannot start: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`port ${port} is in use on ${host}: stop what uses it, or choose another with --port (0 picks a free one) or PORT`);
    throw error;
  }
}

await main();
