import { setTimeout as sleep } from 'node:timers/promises';

/** An in-process wake-up: waiters resolve on `notify()` or after their timeout, whichever first. */
export interface WakeUp {
  notify(): void;
  wait(timeoutMs: number, signal: AbortSignal): Promise<void>;
}

export function createWakeUp(): WakeUp {
  const waiters = new Set<() => void>();
  return {
    notify() {
      for (const wake of [...waiters]) wake();
    },
    async wait(timeoutMs, signal) {
      if (signal.aborted) return;
      const local = new AbortController();
      const wake = () => local.abort();
      waiters.add(wake);
      try {
        await sleep(timeoutMs, undefined, { signal: AbortSignal.any([signal, local.signal]) });
      } catch {
        // woken up or stopped: both just return
      } finally {
        waiters.delete(wake);
      }
    },
  };
}
