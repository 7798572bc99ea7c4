import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../mock-server/test/support/server.js';
import { connectService } from './support/service.js';
import { recordExchanges, type ExchangeLog } from './support/exchanges.js';
import { loadPublishedClient } from './backtory-sdk/client.js';
import type { Case, DriveContext } from './backtory-sdk/case.js';
import { USER_CASES } from './backtory-sdk/users.js';
import { DATABASE_CASES } from './backtory-sdk/database.js';
import { LEADERBOARDS, LEADERBOARD_CASES } from './backtory-sdk/leaderboards.js';
import { EXPECTED_FAILURES } from './backtory-sdk/expected-failures.js';
import { OUT_OF_SCOPE } from './backtory-sdk/out-of-scope.js';

/**
 * The service's published Node client, `backtory-sdk@0.3.5` from npm, unmodified, drives every operation it offers on
 * the users service, the database and the leaderboards against the reference server. An operation listed in
 * EXPECTED_FAILURES must fail (and the list must shrink when it starts passing); every other one must pass.
 */

/** The word the client writes in its header names (`X-Backtory-Game-Id`) where the spec writes `Service`. */
const CLIENT_HEADER_WORD = 'Backtory';
const CASES: Case[] = [...USER_CASES, ...DATABASE_CASES, ...LEADERBOARD_CASES];

let server: TestServer;
let context: DriveContext;
let exchanges: ExchangeLog;
/** Each driven operation's outcome: undefined when it passed, else why not. */
const outcomes = new Map<string, string | undefined>();

function printSummary(): void {
  const failures = [...outcomes].filter(([, reason]) => reason !== undefined);
  const lines = [
    `backtory-sdk@0.3.5: ${outcomes.size - failures.length} of ${outcomes.size} operations pass` +
      ` (${Object.keys(OUT_OF_SCOPE).length} more are cloud code and realtime calls, other services, not driven)`,
    ...failures.map(([operation, reason]) => `  - ${operation}: ${reason}`),
  ];
  console.info(lines.join('\n'));
}

beforeAll(async () => {
  // The client's own header names, and the spec's for the test's direct calls.
  server = await startTestServer({ ...LEADERBOARDS, headerWord: ['Service', CLIENT_HEADER_WORD] });
  exchanges = recordExchanges(server.url);
  context = { client: loadPublishedClient(server.url, server.config), server, service: await connectService(server) };
});

afterAll(async () => {
  printSummary();
  exchanges?.stop();
  vi.unstubAllEnvs();
  await server?.close();
});

describe('backtory-sdk@0.3.5 against the reference server', () => {
  for (const { operation, drive } of CASES) {
    const expectedFailure = EXPECTED_FAILURES[operation];
    const test = expectedFailure === undefined ? it : it.fails;
    test(expectedFailure === undefined ? operation : `${operation} fails today: ${expectedFailure}`, async () => {
      exchanges.take();
      try {
        await drive(context);
        outcomes.set(operation, undefined);
      } catch (error) {
        const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
        outcomes.set(operation, `${reason} [the client sent: ${exchanges.take().join(', ') || 'nothing'}]`);
        throw error;
      }
    });
  }

  it('lists as expected failures only operations it drives, and none out of scope', () => {
    const driven = new Set(CASES.map((c) => c.operation));
    expect(Object.keys(EXPECTED_FAILURES).filter((operation) => !driven.has(operation))).toEqual([]);
    expect(Object.keys(OUT_OF_SCOPE).filter((operation) => driven.has(operation))).toEqual([]);
  });
});
