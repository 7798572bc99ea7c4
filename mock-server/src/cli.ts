#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, type Capabilities } from '@basekit/engine';
import { banner } from './banner.js';
import { startServer } from './server.js';

const USAGE = 'usage: basekit-server [--config FILE] [--port N] [--host H] [--data-dir DIR]';

/** Banner notes about the transcoder: why conversions cannot run here, if they cannot. */
function transcoderNotes({ transcoder }: Capabilities): string[] {
  return transcoder && 'unavailable' in transcoder ? [transcoder.unavailable] : [];
}

function fail(message: string): never {
  process.stderr.write(`basekit-server: ${message}\n`);
  process.exit(1);
}

function readConfig(file: string | undefined): unknown {
  if (!file) return undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read config file ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    fail(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
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
  try {
    const server = await startServer({ config: readConfig(values.config), port, host: values.host ?? '127.0.0.1', dataDir: values['data-dir'] });
    process.stdout.write(`listening on ${server.url}\n${banner(server.url, server.engine.project.config, transcoderNotes(server.engine.project.capabilities))}\n`);
    const stop = () => void server.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

await main();
