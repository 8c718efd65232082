import { setTimeout as sleep } from 'node:timers/promises';

export interface JobSweeperOptions {
  /** Time between the end of one sweep and the start of the next. */
  everyMs: number;
  /** One sweep; returns what it re-queued or settled, by queue, for the metrics. */
  sweep: () => Promise<Record<string, number>>;
  /** What a sweep did (only called when it did something). */
  onSwept?: (counts: Record<string, number>) => void;
  /** A sweep that failed (the database or Redis is down): the next one tries again. */
  onError: (error: unknown) => void;
}

export interface JobSweeper {
  /** Stops sweeping; waits for a sweep under way. */
  close(): Promise<void>;
}

/**
 * The database is the record of every accepted job and webhook delivery; the queue (Redis) only
 * schedules them. A Redis restarted without persistence, or an enqueue that failed while Redis
 * was away, leaves a pending record no queue holds. Every worker sweeps at an interval and queues
 * those again (idempotent: the queue's job id is the record's id), so nothing accepted waits for
 * the next restart (issue 41). One sweep at a time per process.
 */
export function startJobSweeper(options: JobSweeperOptions): JobSweeper {
  const stop = new AbortController();
  const loop = (async () => {
    while (!stop.signal.aborted) {
      try {
        await sleep(options.everyMs, undefined, { signal: stop.signal });
      } catch {
        return;
      }
      try {
        const counts = await options.sweep();
        if (Object.values(counts).some((n) => n > 0)) options.onSwept?.(counts);
      } catch (error) {
        options.onError(error);
      }
    }
  })();
  return {
    async close() {
      stop.abort();
      // A sweep waiting on a Redis that is down is not worth holding a shutdown for.
      await Promise.race([loop, sleep(1000)]);
    },
  };
}
