/** What a bench page reports once its worker is started, in milliseconds since navigation began. */
export interface ReadyReport {
  /** When the page's own code began, after the bundle was fetched and evaluated. */
  loaded: number;
  /** When the handlers and the worker object were set up (for @basekit/msw: the engine created). */
  created: number;
  /** When `worker.start()` resolved. */
  ready: number;
  /** The status of one mocked request made after that, proving the worker answers. */
  status: number;
}

declare global {
  interface Window {
    benchReport?: ReadyReport;
  }
}

/** Records the ready time now, then checks that the worker answers `probe`, for the bench to read. */
export async function reportReady(
  times: Pick<ReadyReport, 'loaded' | 'created'>,
  probe: () => Promise<Response>,
): Promise<void> {
  const ready = performance.now();
  const { status } = await probe();
  window.benchReport = { ...times, ready, status };
}
