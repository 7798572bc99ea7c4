#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  ConfigError,
  DEFAULT_CONFIG,
  StateRestoreError,
  resolveConfig,
  type Capabilities,
  type Config,
  type Engine,
  type RestoreSummary,
  type StateJson,
} from '@basekit/engine';
import { isLoopback } from '@basekit/engine/server';
import { banner } from './banner.js';
import { SavedStateError } from './files/disk.js';
import { startServer } from './server.js';
import { isWildcard } from './tls/addresses.js';
import type { ServedCertificate } from './tls/certificate.js';
import { TlsSetupError } from './tls/setup-error.js';

const USAGE =
  'usage: basekit-server [--config FILE] [--port N] [--host H] [--data-dir DIR] [--import FILE] [--https-port N [--tls-cert FILE --tls-key FILE]]\n  --port defaults to the PORT environment variable, else 3000; 0 picks a free port. --host defaults to 127.0.0.1.\n  --import starts from a GET /__admin/state export (also what POST /__admin/reset returns to); a data folder that already holds a state keeps it.\n  --https-port serves everything over HTTPS too (0 picks a free port), with a certificate of a local CA kept in the data folder or your user folder,\n  or the PEM files --tls-cert and --tls-key.';

/** Banner notes about the transcoder: why conversions cannot run here, if they cannot. */
function transcoderNotes({ transcoder }: Capabilities): string[] {
  return transcoder && 'unavailable' in transcoder ? [transcoder.unavailable] : [];
}

/** A banner note about the projects beside the default one (the banner shows the default project's keys). */
function projectNotes({ projects }: Engine): string[] {
  const more = projects.registry.size - 1;
  return more > 0
    ? [`${more} more project${more === 1 ? '' : 's'} beside this one: GET /__admin/projects lists them`]
    : [];
}

/**
 * A banner warning when other machines can reach this server (it listens beyond loopback) while a project uses a
 * built-in key, which everybody knows.
 */
function exposureWarnings(url: string, { projects }: Engine): string[] {
  const host = new URL(url).hostname;
  if (isLoopback(host)) return [];
  const where = isWildcard(host.replace(/^\[|\]$/g, '')) ? 'every address of this machine' : host;
  const configs = projects.registry.list().map(({ project }) => project.config);
  const keys = [
    ...(configs.some((c) => c.masterKey === DEFAULT_CONFIG.masterKey) ? ['master key'] : []),
    ...(configs.some((c) => c.clientKey === DEFAULT_CONFIG.clientKey) ? ['client key'] : []),
  ];
  if (keys.length === 0) return [];
  const reach = keys.includes('master key')
    ? 'act as master: read and change every user, row and file, reset the project'
    : 'log in as its users';
  return [
    `this server listens on ${where}, so other machines can reach it, and uses the built-in ${keys.join(' and ')}, which everybody knows: anyone who reaches it can ${reach}. Give it keys of its own (--config) or listen on 127.0.0.1 (--host).`,
  ];
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

/** Reads a JSON file given on the command line; a file that cannot be read or parsed ends the start with one line. */
function readJsonFile(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    fail(`${what} ${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/** A state export to start from (`--import`): an object whose `areas`, when present, is an object too. */
function readImport(file: string | undefined): StateJson | undefined {
  if (!file) return undefined;
  const json = readJsonFile(file, 'state file');
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(json) || ((json as StateJson).areas !== undefined && !isObject((json as StateJson).areas))) {
    fail(
      `state file ${file} is not a GET /__admin/state export (an object with "areas", "outbox" and "clockOffsetMs")`,
    );
  }
  return json as StateJson;
}

/** Banner notes about the HTTPS certificate: a CA to trust anew, or why clients may refuse a given one. */
function certificateNotes(certificate: ServedCertificate | undefined): string[] {
  if (!certificate) return [];
  const given = certificate.warnings.map((warning) => `the certificate given with --tls-cert: ${warning}`);
  return certificate.made === 'authority'
    ? [`a new local CA was made for HTTPS: clients trust ${certificate.file} once (docs/devices.md)`, ...given]
    : given;
}

/** Banner notes about the data folder: what its state was rebuilt from, and what was left out. */
function restoreNotes(restored: RestoreSummary | undefined, importFile: string | undefined): string[] {
  if (!restored) return [];
  const notes: string[] = [];
  if (restored.snapshot || restored.records > 0) {
    notes.push(
      `state restored from the data folder (${restored.snapshot ? 'a snapshot and ' : ''}${restored.records} journal records)`,
    );
    if (importFile) notes.push(`--import ${importFile} not loaded: the data folder already holds a state`);
  }
  if (restored.dropped) notes.push(`left out: ${restored.dropped}`);
  if (restored.diverged > 0)
    notes.push(`${restored.diverged} journal records did not replay as they first ran (the server's version changed?)`);
  return notes;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'data-dir': { type: 'string' },
        import: { type: 'string' },
        'https-port': { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
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
  const httpsPort = values['https-port'] === undefined ? undefined : Number(values['https-port']);
  if (httpsPort !== undefined && (!Number.isInteger(httpsPort) || httpsPort < 0 || httpsPort > 65535))
    fail(`--https-port must be an integer from 0 to 65535\n${USAGE}`);
  try {
    const server = await startServer({
      config: readConfig(values.config),
      port,
      host,
      dataDir: values['data-dir'],
      initialState: readImport(values.import),
      httpsPort,
      tlsCert: values['tls-cert'],
      tlsKey: values['tls-key'],
    });
    const notes = [
      ...certificateNotes(server.certificate),
      ...restoreNotes(server.restored, values.import),
      ...projectNotes(server.engine),
      ...transcoderNotes(server.engine.project.capabilities),
    ];
    // A clean stop folds the journal into a snapshot, so the next start is quick. Listened for before the banner is
    // printed: a tool that stops the server as soon as it reads the banner must not find the default action of the signal.
    const stop = () =>
      void server.close().then(
        () => process.exit(0),
        (error: unknown) =>
          fail(
            `could not write the state's snapshot on the way out (the journal still holds every change): ${(error as Error).message}`,
          ),
      );
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    // Tools read the first line for the HTTP address: the HTTPS one comes second.
    const https =
      server.httpsUrl && server.certificate ? { url: server.httpsUrl, certificate: server.certificate } : undefined;
    const warnings = exposureWarnings(server.url, server.engine);
    process.stdout.write(
      `listening on ${server.url}\n${https ? `listening on ${https.url}\n` : ''}${banner(server.url, server.engine.project.config, notes, https, warnings)}\n`,
    );
  } catch (error) {
    if (error instanceof ConfigError || error instanceof TlsSetupError) fail(error.message);
    if (error instanceof SavedStateError || error instanceof StateRestoreError) fail(`cannot start: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const { port: used } = error as { port?: number };
      fail(
        used === httpsPort
          ? `port ${used} is in use on ${host}: stop what uses it, or choose another with --https-port (0 picks a free one)`
          : `port ${port} is in use on ${host}: stop what uses it, or choose another with --port (0 picks a free one) or PORT`,
      );
    }
    throw error;
  }
}

await main();
