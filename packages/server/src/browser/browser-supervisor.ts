import { settlesWithin } from './abort-race.ts';
import type { BrowserProcess } from './browser-process.ts';
import { captureFailed } from './capture-errors.ts';
import type { PreparedPage } from './prepared-page.ts';

/**
 * One Chromium and what runs on it. Its life:
 *
 *   launching -> live -> retiring -> closed     (recycled: takes no new leases, closes after the last)
 *                  \---> dead     -> closed     (exited, disconnected or wedged: leases aborted, killed)
 *
 * Only `live` instances hand out pages. `markDead` is the one way into `dead`.
 */
export interface BrowserInstance {
  readonly process: BrowserProcess;
  state: 'live' | 'retiring' | 'dead';
  /** Leases holding a page of this browser (captures and compositions). */
  leases: number;
  /** Captures started on it; recycling counts these only. */
  captures: number;
  /** Pages prepared in advance, by lease class. */
  readonly spares: Map<string, Promise<PreparedPage>[]>;
  /** One per lease: aborting it fails that lease. */
  readonly aborters: Set<AbortController>;
}

export interface BrowserSupervisorOptions {
  launch: () => Promise<BrowserProcess>;
  /** How long a browser may take to close before it is killed. */
  closeTimeoutMs: number;
  /** Runs once per launched browser, when it goes live (e.g. to prepare its first page). */
  onLive?: (instance: BrowserInstance) => void;
  /**
   * How long `close` waits for cleanups other than the browsers' own closing (a context, a page
   * still being prepared) once every browser is gone; default 2000.
   */
  cleanupGraceMs?: number;
}

export interface BrowserSupervisor {
  /** The live browser, launching one when there is none (one launch at a time). */
  live(): Promise<BrowserInstance>;
  /** Registers a lease on `instance`; the returned function ends it (idempotent). */
  attach(instance: BrowserInstance, aborter: AbortController): () => void;
  /** Recycling: the instance takes no new leases and closes after its last one. */
  retire(instance: BrowserInstance): void;
  /**
   * The one place a browser is declared dead: out of service, its leases aborted with `reason`,
   * closed (killed if it hangs).
   */
  markDead(instance: BrowserInstance, reason: Error): void;
  /** Keeps a background cleanup so `close` can wait for it. */
  track(promise: Promise<unknown>): void;
  /** Aborts every lease with `reason` (shutdown, after the grace period). */
  abortAll(reason: Error): void;
  /**
   * Closes every browser (after a launch under way) and waits until each has exited or been
   * killed; the other cleanups get `cleanupGraceMs` more.
   */
  close(): Promise<void>;
  launches(): number;
  /** The live browser if there is one; never launches. */
  current(): BrowserInstance | undefined;
}

export function createBrowserSupervisor(options: BrowserSupervisorOptions): BrowserSupervisor {
  let current: BrowserInstance | undefined;
  let launching: Promise<BrowserInstance> | undefined;
  let launches = 0;
  let closing = false;
  const instances = new Set<BrowserInstance>();
  const cleanups = new Set<Promise<unknown>>();
  const processClosings = new Set<Promise<unknown>>();

  const trackIn = (set: Set<Promise<unknown>>, promise: Promise<unknown>) => {
    const settled = promise.catch(() => undefined).finally(() => set.delete(settled));
    set.add(settled);
  };
  const track = (promise: Promise<unknown>) => trackIn(cleanups, promise);

  /**
   * Closes the process once (a retired browser that exits later is not closed again). Bounded:
   * a browser that does not close in time is killed.
   */
  const closeProcess = (instance: BrowserInstance) => {
    if (!instances.delete(instance)) return;
    trackIn(processClosings, instance.process.close(options.closeTimeoutMs));
  };

  /** Out of service: no longer current, its prepared pages dropped. */
  const leaveService = (instance: BrowserInstance, disposeSpares: boolean) => {
    if (current === instance) current = undefined;
    for (const spares of instance.spares.values())
      for (const spare of spares.splice(0))
        if (disposeSpares) track(spare.then((prepared) => prepared.context.close()));
  };

  const markDead = (instance: BrowserInstance, reason: Error) => {
    if (instance.state !== 'dead') {
      instance.state = 'dead';
      leaveService(instance, false);
      closeProcess(instance);
    }
    for (const aborter of instance.aborters) aborter.abort(reason);
  };

  const launch = async (): Promise<BrowserInstance> => {
    const process = await options.launch();
    launches += 1;
    if (closing) {
      // Shut down while it started: closed with the rest, never handed out.
      trackIn(processClosings, process.close(options.closeTimeoutMs));
      throw captureFailed('render_failed', 'The service shut down while the browser started');
    }
    const instance: BrowserInstance = {
      process,
      state: 'live',
      leases: 0,
      captures: 0,
      spares: new Map(),
      aborters: new Set(),
    };
    instances.add(instance);
    const gone = () =>
      markDead(instance, captureFailed('render_failed', 'The browser exited during the capture'));
    process.browser.on('disconnected', gone);
    process.onExit(gone);
    if (instance.state === 'live') {
      current = instance;
      options.onLive?.(instance);
    }
    return instance;
  };

  return {
    live() {
      if (closing) {
        return Promise.reject(captureFailed('render_failed', 'The service is shutting down'));
      }
      if (current && (!current.process.alive() || !current.process.browser.isConnected())) {
        markDead(current, captureFailed('render_failed', 'The browser exited during the capture'));
      }
      if (current?.state === 'live') return Promise.resolve(current);
      launching ??= launch().finally(() => {
        launching = undefined;
      });
      return launching;
    },
    attach(instance, aborter) {
      instance.leases += 1;
      instance.aborters.add(aborter);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        instance.leases -= 1;
        instance.aborters.delete(aborter);
        if (instance.leases === 0 && instance.state === 'retiring') closeProcess(instance);
      };
    },
    retire(instance) {
      if (instance.state !== 'live') return;
      instance.state = 'retiring';
      leaveService(instance, true);
      if (instance.leases === 0) closeProcess(instance);
    },
    markDead,
    track,
    abortAll(reason) {
      for (const instance of instances) for (const aborter of instance.aborters) aborter.abort(reason);
    },
    async close() {
      closing = true;
      while (launching) await launching.catch(() => undefined);
      for (const instance of [...instances]) {
        instance.state = 'dead';
        leaveService(instance, true);
        closeProcess(instance);
      }
      await Promise.allSettled([...processClosings]);
      // Every browser has exited. A context close or a page preparation of a browser that is
      // gone has nothing left to do, but Playwright can leave one pending for good (seen once in
      // a full test run: a shutdown waited over 100 s): it gets a grace, not a wait.
      await settlesWithin(Promise.allSettled([...cleanups]), options.cleanupGraceMs ?? 2000);
    },
    launches: () => launches,
    current: () => (current?.state === 'live' ? current : undefined),
  };
}
