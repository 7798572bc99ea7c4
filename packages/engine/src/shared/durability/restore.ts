import type { Project } from '../project.js';

// What starting from a kept or given state needs, with a journal or without one.

/**
 * What the state was rebuilt from at start-up.
 *
 * @example
 * const summary: RestoreSummary | undefined = await engine.ready;
 * if (summary) console.log(`restored ${summary.records} changes after the snapshot`);
 */
export interface RestoreSummary {
  /** True when there was a snapshot. */
  snapshot: boolean;
  /** Records replayed after it. */
  records: number;
  /** Replayed requests that did not answer 2xx as they did the first time (0 unless the engine changed between runs). */
  diverged: number;
  /** What the journal left out (a torn last record), in words. */
  dropped?: string;
}

/**
 * The state a journal keeps cannot be rebuilt; the message says where it is and what to do. Nothing was written.
 *
 * @example
 * try {
 *   await engine.ready;
 * } catch (error) {
 *   if (error instanceof StateRestoreError) console.error(error.message); // where the state is and what to do
 * }
 */
export class StateRestoreError extends Error {
  override name = 'StateRestoreError';

  constructor(
    location: string,
    problem: string,
    advice = 'It is left as it is: repair it or put back a copy (the previous snapshot is kept beside it), or move it away to start this data folder empty.',
  ) {
    super(`${location} cannot be restored (${problem}). ${advice}`);
  }
}

/** Starts the project from its `initialState`; one that does not fit is a `StateRestoreError`, not a crash. */
export function importInitialState(project: Project): void {
  try {
    project.importInitialState();
  } catch (error) {
    throw new StateRestoreError(
      'the state to start from (initialState, --import)',
      (error as Error).message,
      'Give a GET /__admin/state export of this version.',
    );
  }
}
