import type { FailOutcome, JobLease, JobQueue } from './job-queue.ts';

/** Does the work of one job; must be idempotent (a job can be delivered more than once). */
export type JobHandler<T> = (lease: JobLease<T>, signal: AbortSignal) => Promise<void>;

export interface JobConsumerOptions<T> {
  /** Jobs worked on at once by this consumer. */
  concurrency: number;
  /** Longest wait between looks for due jobs when nothing wakes the consumer. */
  pollIntervalMs: number;
  /** How often a held lease is renewed (well under the lease duration). */
  renewEveryMs: number;
  /** On close, how long in-flight jobs may run on before they are aborted and given back. */
  shutdownGraceMs: number;
  /** Whether a failure is worth another attempt (default: every failure is). */
  isRetryable?: (error: unknown) => boolean;
  /**
   * Called when the queue gives up on a job: instead of the handler for a job delivered more
   * often than allowed (its workers kept dying), and after the handler threw on the last attempt.
   * Lets the owner record the failure and settle credits; must be idempotent.
   */
  onExhausted?: (lease: JobLease<T>) => Promise<void>;
  /** Failures of the handler or of the queue itself, for the log. */
  onError?: (error: unknown, lease?: JobLease<T>) => void;
  /** A failed attempt and what the queue made of it (retried or final), for the metrics. */
  onFailure?: (error: unknown, outcome: FailOutcome) => void;
}

export interface JobConsumer {
  /** Stops taking jobs, lets in-flight ones finish within the grace, releases the rest. */
  close(): Promise<void>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs a handler over a queue: at most `concurrency` jobs at once, each under a lease renewed
 * while it runs; success completes the job, an error fails it (retried with the queue's backoff
 * when retryable), a lost lease aborts the handler. Built only on the JobQueue interface, so
 * every adapter gets the same worker behaviour.
 */
export function startJobConsumer<T>(
  queue: JobQueue<T>,
  handler: JobHandler<T>,
  options: JobConsumerOptions<T>,
): JobConsumer {
  const stop = new AbortController();
  const shutdown = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const report = (error: unknown, lease?: JobLease<T>) => options.onError?.(error, lease);
  /** Aborted when a slot frees up, to end the loop's wait early. */
  let slotFreed = new AbortController();

  async function work(lease: JobLease<T>): Promise<void> {
    const leaseLost = new AbortController();
    const signal = AbortSignal.any([leaseLost.signal, shutdown.signal]);
    const renewal = setInterval(() => {
      queue.renew(lease).then(
        (held) => {
          if (!held) leaseLost.abort(new Error(`Lease of job ${lease.id} lost`));
        },
        (error: unknown) => report(error, lease),
      );
    }, options.renewEveryMs);
    try {
      if (lease.attempt > lease.maxAttempts) {
        await options.onExhausted?.(lease);
        await queue.fail(lease, 'Delivered more often than allowed', { retry: false });
        return;
      }
      await handler(lease, signal);
      await queue.complete(lease);
    } catch (error) {
      if (leaseLost.signal.aborted) return;
      if (shutdown.signal.aborted) {
        await queue.release(lease);
        return;
      }
      report(error, lease);
      const outcome = await queue.fail(lease, messageOf(error), {
        retry: options.isRetryable?.(error) ?? true,
      });
      options.onFailure?.(error, outcome);
      // The queue gave up on a job whose handler never settled it (it threw on its last attempt,
      // e.g. the database was away): let the owner settle it, or it would stay pending forever.
      if (outcome === 'failed') await options.onExhausted?.(lease);
    } finally {
      clearInterval(renewal);
    }
  }

  function launch(lease: JobLease<T>): void {
    const running = work(lease)
      .catch((error: unknown) => report(error, lease))
      .finally(() => {
        inFlight.delete(running);
        slotFreed.abort();
      });
    inFlight.add(running);
  }

  async function loop(): Promise<void> {
    while (!stop.signal.aborted) {
      if (inFlight.size >= options.concurrency) {
        slotFreed = new AbortController();
        await queue.waitForWork(options.pollIntervalMs, AbortSignal.any([stop.signal, slotFreed.signal]));
        continue;
      }
      let lease: JobLease<T> | undefined;
      try {
        lease = await queue.take();
      } catch (error) {
        report(error);
      }
      if (lease && stop.signal.aborted) {
        await queue.release(lease).catch(report);
        break;
      }
      if (lease) launch(lease);
      else await queue.waitForWork(options.pollIntervalMs, stop.signal);
    }
  }

  const running = loop();

  return {
    async close() {
      stop.abort();
      await running;
      if (inFlight.size > 0) {
        const grace = new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.shutdownGraceMs);
          Promise.allSettled([...inFlight]).then(() => {
            clearTimeout(timer);
            resolve();
          });
        });
        await grace;
        shutdown.abort(new Error('The worker is shutting down'));
        await Promise.allSettled([...inFlight]);
      }
    },
  };
}
