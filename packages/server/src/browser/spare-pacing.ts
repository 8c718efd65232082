/**
 * When the pool prepares the next capture's page (a new context and renderer, about 150 ms of
 * the browser's work on two cores).
 *
 * - `ahead`: as soon as the current capture's page has loaded (`PageLease.loaded`). The next
 *   page is ready when a capture follows at once, but its creation shares the cores and the
 *   browser's main thread with the current capture's waits and shot: on the simple bench page
 *   those took 108 ms alone against 189 ms beside it (quiet machine, 16 captures each).
 * - `after`: once the current capture is done, and the caller's work on it after the lease
 *   (compose, encode, store: `RunOptions.afterwards`). A capture on an otherwise idle service
 *   then has the machine to itself; one that follows at once waits for its page (back to back,
 *   16 captures each: 326 against 299 ms on the simple page, 519 against 481 on the heavy one).
 *
 * Each lease picks by what came before it: another capture running beside it (more captures at
 * once than prepared pages), or a start sooner after the last capture's end than a page takes
 * to prepare, means the next one will likely come as soon: `ahead`. Otherwise `after`, and
 * also before anything is known.
 */
export type SparePace = 'ahead' | 'after';

export interface PaceSignals {
  /** Leases of the same class running beside the one that is starting. */
  othersRunning: number;
  /** Milliseconds since the last lease of the class ended; undefined before the first did. */
  sinceLastEnd: number | undefined;
  /** How long the last page prepared in advance took; undefined before one was ready. */
  prepareMs: number | undefined;
}

export function paceFor(signals: PaceSignals): SparePace {
  if (signals.othersRunning > 0) return 'ahead';
  if (signals.sinceLastEnd === undefined || signals.prepareMs === undefined) return 'after';
  return signals.sinceLastEnd < signals.prepareMs ? 'ahead' : 'after';
}
