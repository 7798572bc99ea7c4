import { StateRestoreError, type Journal, type JournalContents } from '@basekit/engine';

const SNAPSHOTS = 'snapshots';
const RECORDS = 'records';

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

function committed(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = transaction.onabort = () =>
      reject(transaction.error ?? new Error('IndexedDB transaction failed'));
  });
}

/**
 * The engine's journal in an IndexedDB database of the page's origin (`persist: 'indexeddb'` of `createHandlers`):
 * the snapshot (and the one before it) in one object store, the records after it in another. IndexedDB commits each
 * transaction whole, so a record is there or not, never torn; a compaction replaces the snapshot and drops the
 * records in one transaction. One tab at a time keeps its changes there (a Web Lock named after the database): a tab
 * opened while another holds it starts from what is kept and keeps its own changes in memory only.
 */
export class IndexedDbJournal implements Journal {
  readonly location: string;
  #db: Promise<IDBDatabase> | undefined;
  #writable = true;
  #release: (() => void) | undefined;

  constructor(private readonly name: string) {
    this.location = `the IndexedDB database "${name}"`;
  }

  #open(): Promise<IDBDatabase> {
    this.#db ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(this.name, 1);
      request.onupgradeneeded = () => {
        request.result.createObjectStore(SNAPSHOTS);
        request.result.createObjectStore(RECORDS, { autoIncrement: true });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () =>
        reject(new StateRestoreError(this.location, request.error?.message ?? 'it cannot be opened'));
    });
    return this.#db;
  }

  async load(): Promise<JournalContents> {
    this.#writable = await this.#lock();
    if (!this.#writable)
      console.warn(
        `@basekit/msw: ${this.location} is kept by another tab of this origin; this tab starts from it and keeps its own changes in memory only`,
      );
    const db = await this.#open();
    const transaction = db.transaction([SNAPSHOTS, RECORDS], 'readonly');
    const [snapshot, records] = await Promise.all([
      done(transaction.objectStore(SNAPSHOTS).get('current')),
      done(transaction.objectStore(RECORDS).getAll()),
    ]);
    return { snapshot: snapshot === undefined ? undefined : JSON.parse(snapshot as string), records };
  }

  async append(record: unknown): Promise<void> {
    if (!this.#writable) return;
    const transaction = (await this.#open()).transaction(RECORDS, 'readwrite');
    transaction.objectStore(RECORDS).add(record);
    await committed(transaction);
  }

  async compact(snapshot: unknown): Promise<void> {
    if (!this.#writable) return;
    const transaction = (await this.#open()).transaction([SNAPSHOTS, RECORDS], 'readwrite');
    const snapshots = transaction.objectStore(SNAPSHOTS);
    const previous = await done(snapshots.get('current'));
    if (previous !== undefined) snapshots.put(previous, 'previous');
    // Kept as text: one string is stored much faster than the same state as a structured clone of many objects.
    snapshots.put(JSON.stringify(snapshot), 'current');
    transaction.objectStore(RECORDS).clear();
    await committed(transaction);
  }

  /** Closes the database and lets another tab keep the state; the journal cannot be used after. */
  async close(): Promise<void> {
    (await this.#db)?.close();
    this.#release?.();
  }

  /** Takes the database's lock for as long as this journal is open; false when another tab holds it. */
  #lock(): Promise<boolean> {
    const locks = globalThis.navigator?.locks;
    if (!locks) return Promise.resolve(true); // no Web Locks (Node tests): nothing else shares the store
    return new Promise((resolve) => {
      void locks.request(this.name, { ifAvailable: true }, (lock) => {
        resolve(lock !== null);
        return lock ? new Promise<void>((release) => (this.#release = release)) : undefined;
      });
    });
  }
}
