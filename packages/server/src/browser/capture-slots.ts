import { AppError } from '../errors/app-error.ts';

/** Limits of the gate: captures running at once and captures allowed to wait. */
export interface CaptureSlotsOptions {
  concurrency: number;
  queueLimit: number;
  /** Seconds a refused client should wait, given how many captures are ahead of it. */
  retryAfter: (ahead: number) => number;
}

/** Gives back the slot taken by `acquire`; calling it twice is harmless. */
export type ReleaseSlot = () => void;

/**
 * Bounded concurrency with a bounded FIFO queue. A full queue refuses at once with 503
 * `overloaded` (never unbounded memory growth); a waiter whose signal aborts leaves the queue.
 */
export interface CaptureSlots {
  acquire(signal?: AbortSignal): Promise<ReleaseSlot>;
  /** Refuses every waiter and every later `acquire` with `overloaded` (used by shutdown). */
  shut(message: string): void;
  running(): number;
  queued(): number;
}

interface Waiter {
  grant: (release: ReleaseSlot) => void;
  refuse: (error: unknown) => void;
}

export function createCaptureSlots(options: CaptureSlotsOptions): CaptureSlots {
  let active = 0;
  let shutMessage: string | undefined;
  const waiters: Waiter[] = [];

  const overloaded = (message: string) =>
    new AppError('overloaded', message, { retryAfter: options.retryAfter(active + waiters.length) });

  const makeRelease = (): ReleaseSlot => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiters.shift();
      if (next) next.grant(makeRelease());
      else active -= 1;
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (shutMessage !== undefined) return Promise.reject(overloaded(shutMessage));
      if (active < options.concurrency) {
        active += 1;
        return Promise.resolve(makeRelease());
      }
      if (waiters.length >= options.queueLimit) {
        return Promise.reject(overloaded('The capture queue is full; retry later'));
      }
      return new Promise<ReleaseSlot>((resolve, reject) => {
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(signal?.reason);
        };
        const waiter: Waiter = {
          grant: (release) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(release);
          },
          refuse: (error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        waiters.push(waiter);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    shut(message) {
      shutMessage = message;
      for (const waiter of waiters.splice(0)) waiter.refuse(overloaded(message));
    },
    running: () => active,
    queued: () => waiters.length,
  };
}
