import type { Config } from '../config.js';
import type { Journal } from './capabilities.js';
import { concatBytes } from './bytes.js';
import { declaredLength, withBodyRead } from './http.js';
import { entropy } from './ids.js';
import type { Project, StateJson, StateSlice } from './project.js';
import { StateRestoreError, importInitialState, type RestoreSummary } from './restore.js';

/**
 * How the journal treats a request: `read` changes nothing and runs freely; `own` changes only state that keeps
 * itself (the files tree and bytes) or none the journal keeps (faults, named snapshots), so it is not recorded;
 * `record` is kept and replayed at start-up; `whole` changes the state in a way a replay cannot repeat (restoring a
 * named snapshot, which lives in memory only), so it runs alone and the state is then written whole (a snapshot of the
 * journal) before it is answered. What an `own` request draws from the random source must never mix with a recorded
 * request's draws: with an `asyncContext` the journal tells them apart and `own` requests run freely, without one they
 * run alone, like recorded ones.
 */
export type RequestKind = 'read' | 'own' | 'record' | 'whole';

/** One state-changing request as the journal keeps it, with the real time it read and the random bytes it drew. */
interface RequestRecord {
  kind: 'request';
  method: string;
  url: string;
  headers: [string, string][];
  /** The body, base64. */
  body?: string;
  timeMs: number;
  /** Every random byte the request drew, in order, base64. */
  random?: string;
  /** The server's address then, which links it built (e-mail confirmation) start with. */
  serverUrl?: string;
}

/** A slice as background work (a transcoder job) left it after its request was answered. */
interface SliceRecord {
  kind: 'slice';
  key: string;
  json: unknown;
}

type JournalRecord = RequestRecord | SliceRecord;

/** The journal's snapshot: a `GET /__admin/state` export plus the config changes made at run time. */
interface Snapshot extends StateJson {
  basekitSnapshot: 1;
  configChanges: Partial<Config>;
  /** The state the folder started from (`--import`), which a reset returns to. */
  initialState?: StateJson;
}

const HEADERS_NOT_KEPT = new Set(['content-length', 'connection', 'transfer-encoding', 'keep-alive']);

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const succeeded = (response: Response) => response.status >= 200 && response.status < 300;

/**
 * The recorded requests under way, of every project's journal: each is handed every random draw and keeps those of
 * its own request. One wrapper of `entropy.draw` serves them all, so that journals of several projects recording at
 * once never put back another's wrapper when they finish.
 */
const recorders = new Set<(bytes: Uint8Array) => void>();
let unrecordedDraw: ((length: number) => Uint8Array) | undefined;

/** Hands `recorder` every random draw until the function it returns is called. */
function recordDraws(recorder: (bytes: Uint8Array) => void): () => void {
  if (recorders.size === 0) {
    const draw = entropy.draw;
    unrecordedDraw = draw;
    entropy.draw = (length) => {
      const bytes = draw(length);
      for (const record of recorders) record(bytes);
      return bytes;
    };
  }
  recorders.add(recorder);
  return () => {
    recorders.delete(recorder);
    if (recorders.size === 0) entropy.draw = unrecordedDraw!;
  };
}

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
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: concatBytes(chunks) };
    chunks.push(value);
    size += value.length;
    if (size <= limit) continue;
    const rest = new ReadableStream<Uint8Array>({
      start: (controller) => chunks.forEach((chunk) => controller.enqueue(chunk)),
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
}

/**
 * Keeps a project's state through a `Journal`: each state-changing request that succeeds is appended before its
 * answer is returned, with the time it read and the random bytes it drew, and replayed through the engine at
 * start-up after the last snapshot; background changes are kept as the slice they changed. Requests that change
 * state run one at a time, so a record holds exactly its own request's clock and random draws.
 */
export class DurableState {
  #turn: Promise<unknown> = Promise.resolve();
  #records = 0;
  #closed = false;

  constructor(
    private readonly project: Project,
    private readonly journal: Journal,
    private readonly handle: (request: Request) => Promise<Response>,
    private readonly kindOf: (request: Request) => RequestKind,
    private readonly bodyLimit: (request: Request) => number,
  ) {
    project.onBackgroundChange((slice) => {
      if (!project.restoring && !project.persistsItself(slice))
        void this.#alone(() => this.#appendSlice(slice)).catch(() => undefined);
    });
  }

  /**
   * Rebuilds the state the journal kept: the snapshot, then every record after it, replayed in order. A journal that
   * keeps nothing yet starts from the project's `initialState` (`--import`), kept at once.
   */
  async restore(): Promise<RestoreSummary> {
    const { snapshot, records, dropped } = await this.journal.load();
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
    project.restoring = true;
    let diverged = 0;
    try {
      if (snapshot !== undefined) this.#loadSnapshot(snapshot);
      for (const [i, record] of records.entries()) {
        const replayed = await this.#replay(record as JournalRecord).catch((error: unknown) => {
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
    for (const slice of project.slices) slice.restarted?.(project.state(slice), project);
    this.#records = records.length;
    // The records are folded into a snapshot, so the next start does not replay them again: after the start, before
    // any further change (reads need not wait). Should it fail, the journal still holds every record.
    if (records.length > 0) void this.#alone(() => this.#compact()).catch(() => undefined);
    return { snapshot: snapshot !== undefined, records: records.length, diverged, ...(dropped && { dropped }) };
  }

  /** Handles a request; one that changes state is kept before its answer is returned. */
  fetch(request: Request): Promise<Response> {
    const kind = this.kindOf(request);
    if (kind === 'read' || (kind === 'own' && this.#context)) return this.handle(request);
    if (kind === 'own') return this.#alone(() => this.handle(request));
    if (kind === 'whole') return this.#alone(() => this.#keptWhole(request));
    return this.#record(request);
  }

  get #context() {
    return this.project.capabilities.asyncContext;
  }

  /** Writes a snapshot after the changes under way, so that the state as it is then is kept whole. */
  snapshot(): Promise<void> {
    return this.#alone(() => this.#compact());
  }

  /** Waits for the changes under way, writes a snapshot and stops keeping changes (a clean shutdown). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.snapshot();
  }

  async #record(request: Request): Promise<Response> {
    // Read before its turn, so that a slow client never holds the others up; no further than the engine would.
    const { bytes: body, refused } = await bodyUpTo(request, this.bodyLimit(request));
    if (refused) return this.#alone(() => this.handle(refused));
    const headers = [...request.headers].filter(([name]) => !HEADERS_NOT_KEPT.has(name));
    return this.#alone(async () => {
      const timeMs = Date.now();
      const drawn: Uint8Array[] = [];
      const context = this.#context;
      const mine = {};
      const stopRecording = recordDraws((bytes) => {
        if (!context || context.getStore() === mine) drawn.push(bytes);
      });
      this.project.clock.pin(timeMs);
      let response: Response;
      try {
        const handle = () => this.handle(body ? withBodyRead(request, body) : request);
        response = await (context ? context.run(mine, handle) : handle());
      } finally {
        this.project.clock.unpin();
        stopRecording();
      }
      if (succeeded(response) && !this.#closed) {
        const record: RequestRecord = { kind: 'request', method: request.method, url: request.url, headers, timeMs };
        if (this.project.serverUrl) record.serverUrl = this.project.serverUrl;
        if (body) record.body = toBase64(body);
        if (drawn.length > 0) record.random = toBase64(concatBytes(drawn));
        await this.#append(record);
      }
      return response;
    });
  }

  /** Handles a change the journal cannot replay, then writes the state whole before the answer. */
  async #keptWhole(request: Request): Promise<Response> {
    const response = await this.handle(request);
    if (succeeded(response) && !this.#closed) await this.#compact();
    return response;
  }

  /** Runs `work` after every change before it, and before any change after it. */
  #alone<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(work);
    this.#turn = run.catch(() => undefined);
    return run;
  }

  async #appendSlice(slice: StateSlice<unknown>): Promise<void> {
    if (this.#closed) return;
    const state = this.project.state(slice);
    await this.#append({
      kind: 'slice',
      key: slice.key,
      json: slice.toJSON ? slice.toJSON(state, this.project) : state,
    });
  }

  async #append(record: JournalRecord): Promise<void> {
    await this.journal.append(record);
    if (++this.#records >= this.project.config.journalCompactAfter) await this.#compact();
  }

  async #compact(): Promise<void> {
    const { project } = this;
    const snapshot: Snapshot = {
      basekitSnapshot: 1,
      ...project.exportState((slice) => !project.persistsItself(slice)),
      configChanges: project.configChanges(),
      ...(project.initialState && { initialState: project.initialState }),
    };
    await this.journal.compact(snapshot);
    this.#records = 0;
  }

  #loadSnapshot(json: unknown): void {
    const snapshot = json as Partial<Snapshot> | null;
    if (typeof snapshot !== 'object' || snapshot === null || snapshot.basekitSnapshot !== 1)
      throw new StateRestoreError(this.journal.location, 'the snapshot is not a basekit snapshot');
    try {
      this.project.applyConfigChanges(snapshot.configChanges ?? {});
      this.project.importState(snapshot);
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
    const random = record.random ? fromBase64(record.random) : new Uint8Array(0);
    let used = 0;
    const draw = entropy.draw;
    // Each draw takes the bytes the request drew the first time, in order; past them (an engine that draws more
    // than the one that recorded), fresh ones.
    entropy.draw = (length) => {
      const bytes = used + length <= random.length ? random.slice(used, used + length) : draw(length);
      used += length;
      return bytes;
    };
    this.project.clock.pin(record.timeMs);
    const { serverUrl } = this.project;
    this.project.serverUrl = record.serverUrl;
    try {
      const body = record.body === undefined ? undefined : fromBase64(record.body);
      const request = new Request(record.url, { method: record.method, headers: record.headers });
      const response = await this.handle(body ? withBodyRead(request, body) : request);
      await response.body?.cancel();
      return succeeded(response);
    } finally {
      this.project.serverUrl = serverUrl;
      this.project.clock.unpin();
      entropy.draw = draw;
    }
  }
}
