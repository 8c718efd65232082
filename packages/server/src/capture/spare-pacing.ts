/**
 * When the pool prepares the next capture's page (a new context and renderer, about 150 ms of
 * the browser's work on two cores).
 *
 * - `ahead`: as soon as the current capture's page has loaded (`PageLease.loaded`). The next
 *   page is ready when a capture follows at once, but its creation shares the cores and the
 *   browser's main thread with the current capture's waits and shot: on the simple bench page
 *   those took 108 ms alone against 189 ms beside it (quiet machine, 16 captures each).
 * - `after`: once the current capture is done. A capture on an otherwise idle service then has
 *   the machine to itself; one that follows at once waits for its page (back to back, 16
 *   captures each: 326 against 299 ms on the simple page, 519 against 481 on the heavy one).
 *
 * The pool starts in `after` and moves by what the last spare showed: taken before it was ready
 * (or none there: more captures than spares at once), captures come faster than `after` keeps
 * up with; ready and left idle at least as long as it took to prepare, `after` would have had it
 * ready too.
 */
export interface SpareTiming {
  startedAt: number;
  /** When the page was ready; absent while it is still being prepared. */
  readyAt?: number;
}

export type SparePace = 'ahead' | 'after';

/** The pace after a lease took `spare` (undefined: there was none) at `now`. */
export function nextPace(current: SparePace, spare: SpareTiming | undefined, now: number): SparePace {
  if (spare?.readyAt === undefined) return 'ahead';
  const idle = now - spare.readyAt;
  return idle >= spare.readyAt - spare.startedAt ? 'after' : current;
}
