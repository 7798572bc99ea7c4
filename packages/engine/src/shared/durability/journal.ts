import type { Config } from '../../config.js';
import type { Journal } from '../capabilities.js';
import { concatBytes, readUpTo } from '../util/bytes.js';
import type { Durability } from './declarations.js';
import { StorageError, errorResponse } from '../errors.js';
import { declaredLength, withBodyRead } from '../http/body.js';
import type { Moment } from '../moment.js';
import type { Project, StateJson, StateSlice } from '../project.js';
import {
  keptCredentials,
  keptHeaders,
  replayedHeaders,
  strippedBody,
  strippedUrl,
  type Credential,
  type SecretInputs,
} from './record-secrets.js';
import { StateRestoreError, importInitialState, type RestoreSummary } from './restore.js';
import { Replay, Witness } from './witness.js';
import { OneAtATime } from '../util/one-at-a-time.js';

/**
 * How the journal keeps a request its route declares so (see `Durability`): `nothing` (it changes nothing kept, or
 * only a slice that keeps itself here: the files tree on disk), so it runs beside anything; `record`, replayed at
 * start-up; `snapshot`, a change of the whole state (an import), kept as the snapshot it leaves. Requests that are
 * kept run one at a time.
 */
function keeping({ changes, keptBy, whole }: Durability, project: Project): 'nothing' | 'record' | 'snapshot' {
  if (changes !== 'state' || (keptBy && project.persistsItself(keptBy))) return 'nothing';
  return whole ? 'snapshot' : 'record';
}

/**
 * The format of the records and snapshots this engine writes. 1: requests kept as sent (secrets too), secrets drawn
 * from the recorded random bytes; 2: secrets stripped, credentials kept by what they were, the results of work on
 * secrets kept as `outcomes`. This engine replays both; a later format stops the start (see `checkFormats`).
 */
const FORMAT = 2;

/** One state-changing request as the journal keeps it, with the real time it read and the random bytes it drew. */
interface RequestRecord {
  v?: number;
  kind: 'request';
  method: string;
  /** The URL, its secret query parameters stripped. */
  url: string;
  /** The headers, but those that carried a credential. */
  headers: [string, string][];
  /** The headers that carried a credential, kept by what it was. */
  credentials?: Credential[];
  /** The body, base64, its secret fields stripped. */
  body?: string;
  timeMs: number;
  /** Every random byte the request drew (but those of secrets it handed out), in order, base64. */
  random?: string;
  /** The results of the request's work on secrets (`Moment.secretOutcome`), in order. */
  outcomes?: unknown[];
  /** The server's address then, which links it built (e-mail confirmation) start with. */
  serverUrl?: string;
}

/** A slice as background work (a transcoder job) left it after its request was answered. */
interface SliceRecord {
  v?: number;
  kind: 'slice';
  key: string;
  json: unknown;
}

type JournalRecord = RequestRecord | SliceRecord;

/** The journal's snapshot: a `GET /__admin/state` export (its config aside) plus the config changes made at run time. */
interface Snapshot extends StateJson {
  basekitSnapshot: number;
  configChanges: Partial<Config>;
  /** The state the folder started from (`--import`), which a reset returns to. */
  initialState?: StateJson;
}

/**
 * Room a record may take beyond its body (base64): the URL and headers (at most 16 KiB in Node), the random bytes
 * and outcomes of the request.
 */
const RECORD_ALLOWANCE = 96 * 1024;

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const succeeded = (response: Response) => response.status >= 200 && response.status < 300;

/** A write the journal could not make, as the client is answered (507). */
const storageFailure = (error: unknown): StorageError =>
  error instanceof StorageError ? error : new StorageError(false, (error as Error).message);

/** Stops the start, naming the format, when the journal holds a snapshot or record of a format this engine cannot replay. */
function checkFormats(location: string, snapshot: unknown, records: readonly unknown[]): void {
  const format = (snapshot as Partial<Snapshot> | null)?.basekitSnapshot;
  if (snapshot !== undefined && typeof format === 'number' && format > FORMAT)
    throw formatError(location, `its snapshot is of format ${format}`);
  for (const [i, record] of records.entries()) {
    const v = (record as JournalRecord | null)?.v;
    if (v !== undefined && v !== 1 && v !== FORMAT)
      throw formatError(location, `record ${i + 1} of its journal is of format ${JSON.stringify(v)}`);
  }
}

const formatError = (location: string, problem: string) =>
  new StateRestoreError(
    location,
    `${problem}; this server replays formats 1 to ${FORMAT}`,
    'It is left as it is: start the basekit version that wrote it (or a later one), or move it away to start empty.',
  );

/**
 * The body of `request` when it has at most `limit` bytes; otherwise (past the limit, or unreadable) the request as it
 * came (what was read put back first), for the engine to refuse (413, 400) as it would any other. A body whose declared
 * length is within the limit is read whole, as the engine reads it (`readBody`).
 */
async function bodyUpTo(
  request: Request,
  limit: number,
): Promise<{ bytes?: Uint8Array<ArrayBuffer>; refused?: Request }> {
  if (request.method === 'GET' || request.method === 'HEAD') return {};
  const declared = declaredLength(request);
  if (declared !== undefined && declared > limit) return { refused: request };
  if (declared !== undefined) {
    const bytes = await request.arrayBuffer().then(
      (buffer) => new Uint8Array(buffer),
      () => undefined,
    );
    if (bytes === undefined) return { refused: request };
    return bytes.byteLength > limit ? { refused: withBodyRead(request, bytes) } : { bytes };
  }
  if (!request.body) return {};
  const reader = request.body.getReader();
  const read = await readUpTo(reader, limit);
  if ('bytes' in read) return read;
  const rest = new ReadableStream<Uint8Array>({
    start: (controller) => {
      for (const chunk of read.over) controller.enqueue(chunk);
    },
    pull: async (controller) => {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return {
    refused: new Request(request.url, {
      method: request.method,
      headers: request.headers,
      body: rest,
      duplex: 'half',
    } as RequestInit),
  };
}

/** What a project's `DurableState` keeps its state with. */
interface DurableStateOptions {
  project: Project;
  /** Where the records and snapshots go (the Node server's data folder, msw's IndexedDB, a test's memory). */
  journal: Journal;
  /** Runs a request through the project's app, with the moment it is recorded or replayed with. */
  handle: (request: Request, moment?: Moment) => Promise<Response>;
  /** What the route of a request declares (`declaredDurability`). */
  declared: (request: Request) => Durability;
}

/**
 * Keeps a project's state through a `Journal`: each state-changing request that succeeds is appended before its
 * answer is returned, with what its moment witnessed (the time it read, the random bytes it drew and the results of
 * its work on secrets, never a secret itself), and replayed through the engine at start-up after the last snapshot,
 * each with a moment that hands the same back; background changes are kept as the slice they changed. Whether a
 * request changes state, its body limit and its secret inputs are what its route declares (`declared`). Requests
 * that change state run one at a time, so that the records keep their order. A change whose record cannot be written
 * is answered 507 and undone: room is set aside before the change is made, and should its record still fail, the
 * state is rebuilt from what was kept.
 */
export class DurableState {
  readonly #turns = new OneAtATime();
  #records = 0;
  #closed = false;

  private readonly project: Project;
  private readonly journal: Journal;
  private readonly handle: DurableStateOptions['handle'];
  private readonly declared: DurableStateOptions['declared'];

  constructor({ project, journal, handle, declared }: DurableStateOptions) {
    this.project = project;
    this.journal = journal;
    this.handle = handle;
    this.declared = declared;
    project.onBackgroundChange((slice) => {
      if (!project.restoring && !project.persistsItself(slice))
        void this.#alone(() => this.#appendSlice(slice)).catch(() => undefined);
    });
  }

  /**
   * Rebuilds the state the journal kept: the snapshot, then every record after it, replayed in order. A journal that
   * keeps nothing yet starts from the project's `initialState` (`--import`), kept at once. Nothing is written before
   * the whole state is rebuilt, so a journal that cannot be replayed is left as it was.
   */
  async restore(): Promise<RestoreSummary> {
    const { snapshot, records, dropped } = await this.journal.load();
    checkFormats(this.journal.location, snapshot, records);
    const { project } = this;
    if (snapshot === undefined && records.length === 0) {
      if (project.initialState) {
        importInitialState(project);
        await this.#alone(() => this.#compact());
      }
      return { snapshot: false, records: 0, diverged: 0, ...(dropped && { dropped }) };
    }
    // A kept state is restored with the start it had: a reset returns to that, not to a state given to this run.
    project.initialState = undefined;
    const diverged = await this.#rebuild(snapshot, records as JournalRecord[]);
    for (const slice of project.slices) slice.restarted?.(project.state(slice), project);
    // The records are folded into a snapshot, so the next start does not replay them again: after the start, before
    // any further change (reads need not wait). Should it fail, the journal still holds every record.
    if (records.length > 0) void this.#alone(() => this.#compact()).catch(() => undefined);
    return { snapshot: snapshot !== undefined, records: records.length, diverged, ...(dropped && { dropped }) };
  }

  /** Handles a request; one that changes state is kept before its answer is returned. */
  fetch(request: Request): Promise<Response> {
    const durability = this.declared(request);
    const kept = keeping(durability, this.project);
    return kept === 'nothing' ? this.handle(request) : this.#record(request, durability, kept);
  }

  /** Writes a snapshot after the changes under way, so that the state as it is then is kept whole. */
  snapshot(): Promise<void> {
    return this.#alone(() => this.#compact());
  }

  /**
   * Waits for the changes under way, writes a snapshot, waits for the areas' own writes and stops keeping changes (a
   * clean shutdown).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.snapshot();
    await this.project.capabilities.persistence?.settled();
  }

  async #record(request: Request, durability: Durability, kind: 'record' | 'snapshot'): Promise<Response> {
    const { project } = this;
    // Read before its turn, so that a slow client never holds the others up; no further than the route would.
    const { bytes: body, refused } = await bodyUpTo(request, project.config[durability.bodyLimit]);
    if (refused) return this.#alone(() => this.handle(refused));
    return this.#alone(async () => {
      if (kind === 'record') {
        // Room for the record before the change is made: a full disk refuses it while nothing has changed.
        const bound = RECORD_ALLOWANCE + (body ? Math.ceil(body.length / 3) * 4 : 0);
        const room = await this.journal.reserve?.(bound).then(
          () => undefined,
          (error: unknown) => storageFailure(error),
        );
        if (room) return errorResponse(room);
      }
      const kept = keptHeaders(request, project);
      const issuer = project.tokens;
      const moment = new Witness(project.clock);
      const response = await this.handle(body ? withBodyRead(request, body) : request, moment);
      if (!succeeded(response) || this.#closed) return response;
      try {
        if (kind === 'snapshot') await this.#compact();
        else {
          const record: RequestRecord = {
            v: FORMAT,
            kind: 'request',
            method: request.method,
            url: request.url,
            headers: kept.headers,
            timeMs: moment.realMs,
          };
          const credentials = keptCredentials(kept, issuer, moment);
          if (credentials.length > 0) record.credentials = credentials;
          if (project.serverUrl) record.serverUrl = project.serverUrl;
          const { secrets } = durability;
          if (secrets) record.url = strippedUrl(request.url, secrets);
          if (body) await this.#keepBody(record, request, body, secrets);
          if (moment.drawn.length > 0) record.random = toBase64(concatBytes(moment.drawn));
          if (moment.outcomes.length > 0) record.outcomes = moment.outcomes;
          await this.#append(record);
        }
      } catch (error) {
        // The change was made but cannot be kept: it is undone, from what the journal holds.
        await response.body?.cancel();
        const { snapshot, records } = await this.journal.load();
        await this.#rebuild(snapshot, records as JournalRecord[]);
        return errorResponse(storageFailure(error));
      }
      return response;
    });
  }

  /** Puts the request's body in its record, its secret fields stripped (a form kept URL-encoded then). */
  async #keepBody(
    record: RequestRecord,
    request: Request,
    body: Uint8Array<ArrayBuffer>,
    secrets: SecretInputs | undefined,
  ): Promise<void> {
    if (!secrets) {
      record.body = toBase64(body);
      return;
    }
    const stripped = await strippedBody(request, body, secrets);
    record.body = toBase64(stripped.body);
    if (stripped.contentType)
      record.headers = [
        ...record.headers.filter(([name]) => name !== 'content-type'),
        ['content-type', stripped.contentType],
      ];
  }

  /** Runs `work` after every change before it, and before any change after it. */
  #alone<T>(work: () => Promise<T>): Promise<T> {
    return this.#turns.run(work);
  }

  async #appendSlice(slice: StateSlice<unknown>): Promise<void> {
    if (this.#closed) return;
    const state = this.project.state(slice);
    await this.#append({
      v: FORMAT,
      kind: 'slice',
      key: slice.key,
      json: slice.toJSON ? slice.toJSON(state, this.project) : state,
    });
  }

  /** Appends a record; every `journalCompactAfter` records, a snapshot too (which, failing, is tried again later). */
  async #append(record: JournalRecord): Promise<void> {
    await this.journal.append(record);
    const after = this.project.config.journalCompactAfter;
    if (++this.#records < after) return;
    await this.#compact().catch(() => {
      this.#records = after - Math.max(1, Math.floor(after / 10));
    });
  }

  async #compact(): Promise<void> {
    const { project } = this;
    const { config: _settings, ...state } = project.exportState((slice) => !project.persistsItself(slice));
    const snapshot: Snapshot = {
      basekitSnapshot: FORMAT,
      ...state,
      configChanges: project.configChanges(),
      ...(project.initialState && { initialState: project.initialState }),
    };
    await this.journal.compact(snapshot);
    this.#records = 0;
  }

  /**
   * Makes the state what the journal keeps: the snapshot (else the start), then each record replayed in order.
   * Answers how many replayed requests did not succeed as they did the first time.
   */
  async #rebuild(snapshot: unknown, records: readonly JournalRecord[]): Promise<number> {
    const { project } = this;
    project.restoring = true;
    let diverged = 0;
    try {
      if (snapshot !== undefined) this.#loadSnapshot(snapshot);
      else {
        project.reconfigure(project.startConfig);
        project.importState({});
      }
      for (const [i, record] of records.entries()) {
        const replayed = await this.#replay(record).catch((error: unknown) => {
          throw new StateRestoreError(
            this.journal.location,
            `record ${i + 1} of the journal cannot be replayed: ${(error as Error).message}`,
          );
        });
        if (!replayed) diverged++;
      }
    } finally {
      project.restoring = false;
    }
    this.#records = records.length;
    return diverged;
  }

  #loadSnapshot(json: unknown): void {
    const snapshot = json as Partial<Snapshot> | null;
    if (
      typeof snapshot !== 'object' ||
      snapshot === null ||
      (snapshot.basekitSnapshot !== 1 && snapshot.basekitSnapshot !== FORMAT)
    )
      throw new StateRestoreError(this.journal.location, 'the snapshot is not a basekit snapshot');
    try {
      this.project.applyConfigChanges(snapshot.configChanges ?? {});
      this.project.importState(snapshot, { settings: false });
      this.project.initialState = snapshot.initialState;
    } catch (error) {
      throw new StateRestoreError(this.journal.location, `the snapshot does not fit: ${(error as Error).message}`);
    }
  }

  /** Replays one record; false when a request that succeeded the first time did not now. */
  async #replay(record: JournalRecord): Promise<boolean> {
    if (record.kind === 'slice') {
      this.project.importSlice(record.key, record.json);
      return true;
    }
    const moment = new Replay(this.project.clock, {
      timeMs: record.timeMs,
      random: record.random ? fromBase64(record.random) : new Uint8Array(0),
      outcomes: record.outcomes ?? [],
      legacy: record.v === undefined || record.v === 1,
    });
    const { serverUrl } = this.project;
    this.project.serverUrl = record.serverUrl;
    try {
      const body = record.body === undefined ? undefined : fromBase64(record.body);
      const headers = await replayedHeaders(record.headers, record.credentials ?? [], this.project);
      const request = new Request(record.url, { method: record.method, headers });
      const response = await this.handle(body ? withBodyRead(request, body) : request, moment);
      await response.body?.cancel();
      return succeeded(response);
    } finally {
      this.project.serverUrl = serverUrl;
    }
  }
}
